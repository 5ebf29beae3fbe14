import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHART_DIR, REPO_ROOT, findHelm, findKubernetesValidate, helm, recordSkippedHelmSuite, renderChartText,
} from './helm-harness.js';

/**
 * Every object the chart renders, for each values file the project ships, validates against the
 * Kubernetes JSON schemas (strict: unknown fields are errors) of the oldest release the chart supports
 * (Chart.yaml kubeVersion) and of the newest the schema package has. The schemas come inside the PyPI
 * package kubernetes-validate: nothing is downloaded at test time.
 */
const HELM = findHelm();
const VALIDATE = findKubernetesValidate();
if (!HELM) recordSkippedHelmSuite('test/helm/kubernetes-schemas.test.ts');
else if (!VALIDATE) recordSkippedHelmSuite('test/helm/kubernetes-schemas.test.ts', 'kubernetes-validate', 'LEADFINDER_TEST_KUBERNETES_VALIDATE_BIN');

const KUBERNETES_VERSIONS = ['1.25.0', '1.37.0'];
const VALUES: Record<string, string[]> = {
  default: [],
  'external services': ['-f', join(CHART_DIR, 'ci', 'external-values.yaml')],
  dev: ['-f', join(REPO_ROOT, 'deploy', 'values', 'dev.yaml')],
  prod: ['-f', join(REPO_ROOT, 'deploy', 'values', 'prod.yaml'), '--set', `global.image.digest=sha256:${'a'.repeat(64)}`],
  'admin API and NATS TLS': [
    '--set', 'admin.enabled=true', '--set', 'externalNats.existingSecret=nats-client',
    '--set', 'externalNats.credsKey=nats.creds', '--set', 'externalNats.tls.caKey=ca.crt',
    '--set', 'networkPolicy.edgeIngressFrom[0].namespaceSelector.matchLabels.team=ingress',
  ],
};

describe.skipIf(!HELM || !VALIDATE)('rendered manifests against the Kubernetes JSON schemas', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lf-schemas-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const BROKEN = 'broken';
  const rendered: Record<string, string> = {};
  /** The validator's output for every rendered file, per Kubernetes version: one run of it per version (a run loads the schemas once). */
  const outputs = new Map<string, { code: number | null; stdout: string; stderr: string }>();
  beforeAll(async () => {
    const sets = { ...VALUES, [BROKEN]: ['-f', join(REPO_ROOT, 'test', 'helm', 'fixtures', 'broken-values.yaml')] };
    await Promise.all(Object.entries(sets).map(async ([name, args]) => {
      const file = join(dir, `${name.replace(/\W+/g, '-')}.yaml`);
      writeFileSync(file, await renderChartText(HELM!, args));
      rendered[name] = file;
    }));
    await Promise.all(KUBERNETES_VERSIONS.map(async (version) => {
      outputs.set(version, await helm(VALIDATE!, ['--kubernetes-version', version, '--strict', '--no-warn', ...Object.values(rendered)]));
    }));
  }, 60_000);

  /** What the validator said of one values set's objects on one version. */
  const linesFor = (name: string, version: string) => {
    const output = outputs.get(version)!;
    const lines = output.stdout.split('\n').filter((l) => l.includes(` ${rendered[name]} `));
    return { lines, output: `${version}: ${output.stdout}${output.stderr}` };
  };

  for (const name of Object.keys(VALUES)) {
    it(`validates every object rendered with the ${name} values, strictly, on Kubernetes ${KUBERNETES_VERSIONS.join(' and ')}`, () => {
      for (const version of KUBERNETES_VERSIONS) {
        const { lines, output } = linesFor(name, version);
        // Every kind the chart renders is known to the schemas (none is skipped as unknown).
        expect(lines.filter((l) => l.includes(' passed for resource ')).length, output).toBeGreaterThanOrEqual(20);
        expect(lines.filter((l) => /ERROR|WARN/.test(l))).toEqual([]);
      }
    });
  }

  it('refuses the deliberately broken values file, naming each invalid field', () => {
    const version = KUBERNETES_VERSIONS[0]!;
    expect(outputs.get(version)!.code).not.toBe(0);
    const errors = linesFor(BROKEN, version).lines.filter((l) => l.startsWith('ERROR'));
    const failed = (role: string) => errors.find((l) => l.includes(`deployment/lf-leadfinder-${role} `)) ?? '';
    expect(errors).toHaveLength(3);
    expect(failed('edge')).toMatch(/'valeu' was unexpected/);
    expect(failed('coordinator')).toMatch(/3 is not of type 'string'/);
    expect(failed('fetcher')).toMatch(/'topologyKey' is a required property/);
  });
});
