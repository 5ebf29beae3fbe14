/**
 * The OpenAPI documents pass the linters outside clients use, from package registries only:
 * `@redocly/cli lint` (npm devDependency, recommended rules: no error and no warning) and
 * `openapi-spec-validator` (PyPI; LEADFINDER_TEST_OPENAPI_SPEC_VALIDATOR_BIN, PATH, or the venv that
 * .ci/install-tools.sh makes). Without the Python tool its test is skipped and recorded, and fails under
 * LEADFINDER_TEST_REQUIRE_SERVERS=1.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { recordSkippedSuite, toolPath } from '@leadfinder/testkit';
import { buildOpenApiDocument } from '../../services/edge/src/openapi/document.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'leadfinder-openapi-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The public document and the admin one, as files; plus a document with known faults, to prove the tools see them. */
const files = {
  public: join(dir, 'public.json'),
  admin: join(dir, 'admin.json'),
  broken: join(dir, 'broken.json'),
};
writeFileSync(files.public, JSON.stringify(buildOpenApiDocument('public')));
writeFileSync(files.admin, JSON.stringify(buildOpenApiDocument('admin')));
{
  // No servers, no license, an operation without operationId or 4xx, and a description that is not text.
  const broken = structuredClone(buildOpenApiDocument('public')) as { servers?: unknown; info: Record<string, unknown>; paths: Record<string, unknown> };
  delete broken.servers;
  delete broken.info.license;
  broken.paths['/broken'] = { get: { responses: { 200: { description: 42 } } } };
  writeFileSync(files.broken, JSON.stringify(broken));
}

const REDOCLY = join(process.cwd(), 'node_modules', '.bin', 'redocly');

async function redoclyLint(file: string): Promise<{ totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string }[] }> {
  // Exit code 1 when there are errors; the JSON report is on stdout either way.
  const result = await run(REDOCLY, ['lint', file, '--format=json'], { timeout: 60_000, maxBuffer: 16 << 20, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } })
    .catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return JSON.parse(result.stdout);
}

describe('@redocly/cli lint (recommended rules)', () => {
  it.each(['public', 'admin'] as const)('finds no error and no warning in the %s document', async (which) => {
    const report = await redoclyLint(files[which]);
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('reports the faults of a broken document (the lint is not vacuous)', async () => {
    const report = await redoclyLint(files.broken);
    expect([...new Set(report.problems.map((p) => p.ruleId))]).toEqual(
      expect.arrayContaining(['no-empty-servers', 'info-license', 'operation-operationId', 'operation-4xx-response', 'security-defined', 'struct']),
    );
    expect(report.totals.errors).toBeGreaterThan(0);
  });
});

const validator = toolPath('openapi-spec-validator');
if (!validator) recordSkippedSuite('test/openapi/validators.test.ts', 'openapi-spec-validator');

describe.skipIf(!validator)('openapi-spec-validator', () => {
  it.each(['public', 'admin'] as const)('validates the %s document', async (which) => {
    const { stdout } = await run(validator!, [files[which]], { timeout: 60_000 });
    expect(stdout.trim()).toBe(`${files[which]}: OK`);
  });

  it('refuses a broken document', async () => {
    const failed = await run(validator!, [files.broken], { timeout: 60_000 }).then(() => null, (error: { code?: number; stdout?: string }) => error);
    expect(failed?.code).toBe(1);
    expect(failed?.stdout).toMatch(/description/);
  });
});
