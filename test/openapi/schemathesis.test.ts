/**
 * schemathesis (PyPI; LEADFINDER_TEST_SCHEMATHESIS_BIN, PATH, or the venv .ci/install-tools.sh makes)
 * against a real `leadfinder serve` on 127.0.0.1, started here and stopped after: every check, every
 * phase (coverage, fuzzing, and the stateful phase that follows the document's links from a created run
 * to its record, stop and event stream), a bounded number of examples and a fixed seed. Skipped and
 * recorded without the tool; a failure under LEADFINDER_TEST_REQUIRE_SERVERS=1.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordSkippedSuite, toolPath } from '@leadfinder/testkit';
import { createAccount, startServerProcess } from '../support/server-process.js';
import type { ServerProcess } from '../support/server-process.js';

const ADMIN = 'schemathesis-admin-token-0123456789abcdef';
const HOOKS = join(process.cwd(), 'test', 'openapi', 'schemathesis_hooks.py');
const CONFIG = join(process.cwd(), 'test', 'openapi', 'schemathesis.toml');
const schemathesis = toolPath('schemathesis');
if (!schemathesis) recordSkippedSuite('test/openapi/schemathesis.test.ts', 'schemathesis');

interface StRun {
  code: number;
  output: string;
}

describe.skipIf(!schemathesis)('schemathesis against an embedded server', () => {
  let server: ServerProcess;
  let token: string;
  const dir = mkdtempSync(join(tmpdir(), 'leadfinder-schemathesis-'));

  beforeAll(async () => {
    server = await startServerProcess({
      env: {
        LEADFINDER_ADMIN_TOKEN: ADMIN,
        // The fuzzer sends hundreds of requests a minute and creates keys: the limits are tested elsewhere.
        LEADFINDER_RATE_LIMIT_PER_MIN: '1000000',
        LEADFINDER_KEYS_PER_ACCOUNT: '1000000',
        // Webhook targets are rewritten to a closed loopback port by the hooks; loopback must then be allowed.
        LEADFINDER_WEBHOOK_ALLOW_PRIVATE: '1',
        // The searches the fuzzer starts end at their first spend (`budget_exhausted`): researching each
        // to the end was a third of this file's CPU, and the research is tested elsewhere; the routes
        // answer about an ended run as about any other.
        LEADFINDER_SPEND_CEILING_USD: '0.001',
      },
    });
    // A session token works on /v1 and /api/keys alike; a balance no run of the test can exhaust (each holds 5 USD).
    token = (await createAccount(server.url, ADMIN, 1_000_000)).sessionToken;
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  function st(args: string[]): Promise<StRun> {
    return new Promise((resolve) => {
      execFile(
        schemathesis!,
        ['--config-file', CONFIG, 'run', ...args, '--checks', 'all', '--seed', '1', '--no-color', '--request-timeout', '30', '-H', `Authorization: Bearer ${token}`],
        // Its cwd is a temp folder: hypothesis keeps a database of examples in `.hypothesis` there.
        // The hooks make a drawn Idempotency-Key name one body, as a client's does (see the file).
        // 200 s: the fuzzer is CPU-bound (about 45 s alone); beside other test files on two cores it needs more.
        { cwd: dir, timeout: 200_000, maxBuffer: 32 << 20, env: { PATH: process.env.PATH ?? '', HOME: dir, SCHEMATHESIS_TELEMETRY: 'false', SCHEMATHESIS_HOOKS: HOOKS, PYTHONDONTWRITEBYTECODE: '1' } },
        (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, output: stdout + stderr }),
      );
    });
  }

  it('finds no issue with every check and every phase, stateful included', async () => {
    const junit = join(dir, 'junit.xml');
    const run = await st([`${server.url}/openapi.json`, '--max-examples', '5', '--report', 'junit', '--report-junit-path', junit]);
    expect(run.output).toMatch(/No issues found/);
    expect(run.code).toBe(0);
    expect(run.output).toMatch(/Operations:\s+17 selected \/ 17 total/);
    for (const phase of ['Coverage', 'Fuzzing', 'Stateful']) expect(run.output).toMatch(new RegExp(`✅\\s+${phase}`));
    // The stateful phase followed every link: created run → record, stop, events; created key → revoke;
    // created webhook endpoint → rotate its secret, delete it.
    expect(run.output).toMatch(/API Links:\s+6 covered \/ 6 selected \/ 6 total/);
    const cases = readFileSync(junit, 'utf8').match(/<testcase /g) ?? [];
    expect(cases.length).toBeGreaterThanOrEqual(10);
  }, 210_000);

  it('reports a response the document does not describe (the run is not vacuous)', async () => {
    // The served document without the 404 of GET /v1/searches/{id}: every unknown id is then an undocumented answer.
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, { get: { responses: Record<string, unknown> } }> };
    delete document.paths['/v1/searches/{id}']!.get.responses['404'];
    const file = join(dir, 'without-404.json');
    writeFileSync(file, JSON.stringify(document));
    const run = await st([file, '--url', server.url, '--max-examples', '3', '--phases', 'coverage', '--include-operation-id', 'getSearch']);
    expect(run.code).not.toBe(0);
    expect(run.output).toMatch(/Undocumented status code/);
  }, 120_000);
});
