import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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

  async function validate(name: string, args: string[], version: string) {
    const file = join(dir, `${name.replace(/\W+/g, '-')}.yaml`);
    writeFileSync(file, await renderChartText(HELM!, args));
    return helm(VALIDATE!, ['--kubernetes-version', version, '--strict', '--no-warn', file]);
  }

  for (const [name, args] of Object.entries(VALUES)) {
    it(`validates every object rendered with the ${name} values, strictly, on Kubernetes ${KUBERNETES_VERSIONS.join(' and ')}`, async () => {
      for (const version of KUBERNETES_VERSIONS) {
        const result = await validate(name, args, version);
        expect(result.code, `${version}: ${result.stdout}${result.stderr}`).toBe(0);
        const passed = result.stdout.split('\n').filter((l) => l.includes(' passed for resource '));
        // Every kind the chart renders is known to the schemas (none is skipped as unknown).
        expect(passed.length).toBeGreaterThanOrEqual(20);
        expect(result.stdout).not.toMatch(/ERROR|WARN/);
      }
    });
  }

  it('refuses the deliberately broken values file, naming each invalid field', async () => {
    const result = await validate('broken', ['-f', join(REPO_ROOT, 'test', 'helm', 'fixtures', 'broken-values.yaml')], KUBERNETES_VERSIONS[0]!);
    expect(result.code).not.toBe(0);
    const errors = result.stdout.split('\n').filter((l) => l.startsWith('ERROR'));
    const failed = (role: string) => errors.find((l) => l.includes(`deployment/lf-leadfinder-${role} `)) ?? '';
    expect(errors).toHaveLength(3);
    expect(failed('edge')).toMatch(/'valeu' was unexpected/);
    expect(failed('coordinator')).toMatch(/3 is not of type 'string'/);
    expect(failed('fetcher')).toMatch(/'topologyKey' is a required property/);
  });
});
