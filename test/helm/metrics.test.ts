import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '@leadfinder/platform';
import {
  CHART_DIR, KUBE_VERSION, REPO_ROOT, ROLES, findHelm, findKubernetesValidate, helm, named, ofKind, recordSkippedHelmSuite,
  renderChart, renderChartText,
} from './helm-harness.js';
import type { K8sObject, RoleName } from './helm-harness.js';

const HELM = findHelm();
if (!HELM) recordSkippedHelmSuite('test/helm/metrics.test.ts');
const VALIDATE = findKubernetesValidate();

const METRICS = [
  '--set', 'metrics.enabled=true', '--set', 'metrics.serviceMonitor.enabled=true',
  '--set', 'metrics.prometheusRule.enabled=true', '--set', 'metrics.grafanaDashboard.enabled=true',
  '--set', 'metrics.serviceMonitor.labels.release=kube-prometheus-stack',
];
const DEPLOY_FILES = join(REPO_ROOT, 'deploy', 'observability');
const CHART_FILES = join(CHART_DIR, 'files', 'observability');

const container = (objs: K8sObject[], role: RoleName) => named(objs, 'Deployment', `lf-leadfinder-${role}`).spec.template.spec.containers[0];
const podLabels = (objs: K8sObject[], role: RoleName): Record<string, string> => named(objs, 'Deployment', `lf-leadfinder-${role}`).spec.template.metadata.labels;
const matches = (selector: Record<string, string>, labels: Record<string, string> = {}) => Object.entries(selector).every(([k, v]) => labels[k] === v);

describe('observability files shipped twice', () => {
  it('the chart carries byte-identical copies of deploy/observability/ (the chart cannot read outside itself)', () => {
    for (const file of ['grafana-dashboard.json', 'prometheus-rules.yaml']) {
      expect(readFileSync(join(CHART_FILES, file), 'utf8'), file).toBe(readFileSync(join(DEPLOY_FILES, file), 'utf8'));
    }
  });
});

describe.skipIf(!HELM)('chart metrics: ServiceMonitor, PrometheusRule, dashboard (off by default)', () => {
  const bin = HELM!;
  let byDefault: K8sObject[];
  let withMetrics: K8sObject[];

  beforeAll(async () => {
    [byDefault, withMetrics] = await Promise.all([renderChart(bin), renderChart(bin, METRICS)]);
  });

  it('renders nothing for metrics by default: no port, no variable, no Service, no monitoring objects', () => {
    expect(ofKind(byDefault, 'ServiceMonitor')).toEqual([]);
    expect(ofKind(byDefault, 'PrometheusRule')).toEqual([]);
    expect(byDefault.filter((o) => o.metadata.name.endsWith('-metrics'))).toEqual([]);
    for (const role of ROLES) {
      const c = container(byDefault, role);
      expect(c.ports.map((p: { name: string }) => p.name)).not.toContain('metrics');
      expect(c.env.map((e: { name: string }) => e.name)).not.toContain('LEADFINDER_METRICS_PORT');
    }
    // The coordinator still admits nothing.
    expect(named(byDefault, 'NetworkPolicy', 'lf-leadfinder-coordinator').spec.ingress).toEqual([]);
  });

  it('passes helm lint --strict with metrics, ServiceMonitor, PrometheusRule and dashboard on', async () => {
    const result = await helm(bin, ['lint', '--strict', CHART_DIR, '--kube-version', KUBE_VERSION, ...METRICS]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });

  it('has every role serve /metrics on the metrics port, with a value the service accepts as LEADFINDER_METRICS_PORT', () => {
    for (const role of ROLES) {
      const c = container(withMetrics, role);
      expect(c.ports).toContainEqual({ name: 'metrics', containerPort: 9464, protocol: 'TCP' });
      const env = c.env.find((e: { name: string }) => e.name === 'LEADFINDER_METRICS_PORT');
      expect(env?.value).toBe('9464');
      expect(loadConfig({ LEADFINDER_METRICS_PORT: env.value }).LEADFINDER_METRICS_PORT).toBe(9464);
    }
  });

  it('gives each role a metrics Service that the ServiceMonitor selects, with the role as the job label', () => {
    const monitor = named(withMetrics, 'ServiceMonitor', 'lf-leadfinder');
    expect(monitor.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(monitor.metadata.labels?.release).toBe('kube-prometheus-stack');
    expect(monitor.spec.namespaceSelector).toEqual({ matchNames: ['research'] });
    expect(monitor.spec.endpoints).toEqual([{ port: 'metrics', path: '/metrics', scheme: 'http', interval: '30s', scrapeTimeout: '10s' }]);
    const selected = ofKind(withMetrics, 'Service').filter((s) => matches(monitor.spec.selector.matchLabels, s.metadata.labels));
    expect(selected.map((s) => s.metadata.name).sort()).toEqual(ROLES.map((r) => `lf-leadfinder-${r}-metrics`).sort());
    for (const role of ROLES) {
      const service = named(withMetrics, 'Service', `lf-leadfinder-${role}-metrics`);
      expect(service.metadata.labels?.[monitor.spec.jobLabel]).toBe(role);
      expect(matches(service.spec.selector, podLabels(withMetrics, role))).toBe(true);
      for (const other of ROLES.filter((r) => r !== role)) expect(matches(service.spec.selector, podLabels(withMetrics, other))).toBe(false);
      expect(service.spec.ports).toEqual([{ name: 'metrics', port: 9464, targetPort: 'metrics', protocol: 'TCP', appProtocol: 'http' }]);
    }
    // The public edge Service (the one the Ingress routes to) does not carry the metrics port.
    expect(named(withMetrics, 'Service', 'lf-leadfinder-edge').spec.ports.map((p: { name: string }) => p.name)).toEqual(['http']);
  });

  it('renders the shipped alert rules as a PrometheusRule, and the shipped dashboard for the Grafana sidecar', () => {
    const rule = named(withMetrics, 'PrometheusRule', 'lf-leadfinder');
    const shipped = parse(readFileSync(join(DEPLOY_FILES, 'prometheus-rules.yaml'), 'utf8')) as { groups: unknown[] };
    expect(rule.spec.groups).toEqual(shipped.groups);
    const dashboard = named(withMetrics, 'ConfigMap', 'lf-leadfinder-dashboard');
    expect(dashboard.metadata.labels?.grafana_dashboard).toBe('1');
    expect(JSON.parse(dashboard.data!['leadfinder.json']!)).toEqual(JSON.parse(readFileSync(join(DEPLOY_FILES, 'grafana-dashboard.json'), 'utf8')));
  });

  it('lets only metrics.ingressFrom (Prometheus pods by default) reach the metrics port of every role, the coordinator included', () => {
    for (const role of ROLES) {
      const rules = named(withMetrics, 'NetworkPolicy', `lf-leadfinder-${role}`).spec.ingress as { ports: { port: string }[]; from?: unknown[] }[];
      const scrape = rules.filter((r) => r.ports.some((p) => p.port === 'metrics'));
      expect(scrape, role).toEqual([{
        ports: [{ port: 'metrics', protocol: 'TCP' }],
        from: [{ namespaceSelector: {}, podSelector: { matchLabels: { 'app.kubernetes.io/name': 'prometheus' } } }],
      }]);
    }
    // The coordinator admits the scrape and nothing else.
    expect(named(withMetrics, 'NetworkPolicy', 'lf-leadfinder-coordinator').spec.ingress).toHaveLength(1);
  });

  it('refuses a ServiceMonitor or PrometheusRule without metrics.enabled (nothing would serve /metrics)', async () => {
    for (const flag of ['metrics.serviceMonitor.enabled=true', 'metrics.prometheusRule.enabled=true']) {
      const result = await helm(bin, ['template', 'lf', CHART_DIR, '--kube-version', KUBE_VERSION, '--set', flag]);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('need metrics.enabled=true');
    }
  });

  describe.skipIf(!VALIDATE)('against the Kubernetes JSON schemas', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lf-metrics-schemas-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    it('validates every core object of the metrics render (the two monitoring.coreos.com kinds have no schema there)', async () => {
      const file = join(dir, 'metrics.yaml');
      writeFileSync(file, await renderChartText(bin, METRICS));
      const result = await helm(VALIDATE!, ['--kubernetes-version', '1.25.0', '--strict', file]);
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(result.stdout + result.stderr).toMatch(/passed for resource service\/lf-leadfinder-coordinator-metrics/);
    });
  });
});
