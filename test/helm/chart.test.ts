import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  CHART_DIR, KUBE_VERSION, REPO_ROOT, ROLES, findHelm, helm, named, ofKind, recordSkippedHelmSuite, renderChart,
} from './helm-harness.js';
import type { K8sObject, RoleName } from './helm-harness.js';

const HELM = findHelm();
if (!HELM) recordSkippedHelmSuite('test/helm/chart.test.ts');

const EXTERNAL = ['-f', join(CHART_DIR, 'ci', 'external-values.yaml')];
const SECRET_ENV = [
  'LEADFINDER_ADMIN_TOKEN', 'LEADFINDER_SESSION_SECRET', 'LEADFINDER_LLM_API_KEY',
  'LEADFINDER_BRAVE_API_KEY', 'LEADFINDER_OIDC_CLIENT_SECRET', 'LEADFINDER_MONGODB_URL',
];
const PRIVATE_V4 = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', '100.64.0.0/10', '127.0.0.0/8'];

const deployment = (objs: K8sObject[], role: RoleName) => named(objs, 'Deployment', `lf-leadfinder-${role}`);
const container = (objs: K8sObject[], role: RoleName) => deployment(objs, role).spec.template.spec.containers[0];
/** An env var's source as rendered (only the secret kind is ever read in these tests). */
interface EnvSource { secretKeyRef: { name: string; key: string; optional?: boolean } }
const envOf = (objs: K8sObject[], role: RoleName): { name: string; value?: string; valueFrom?: EnvSource }[] =>
  container(objs, role).env;
const policy = (objs: K8sObject[], role: RoleName) => named(objs, 'NetworkPolicy', `lf-leadfinder-${role}`);

describe.skipIf(!HELM)('helm chart charts/leadfinder', () => {
  const bin = HELM!;
  let objs: K8sObject[];
  let external: K8sObject[];

  beforeAll(async () => {
    [objs, external] = await Promise.all([renderChart(bin), renderChart(bin, EXTERNAL)]);
  });

  it('passes helm lint --strict with the default values and with the external-services values', async () => {
    const byDefault = await helm(bin, ['lint', '--strict', CHART_DIR, '--kube-version', KUBE_VERSION]);
    const withExternal = await helm(bin, ['lint', '--strict', CHART_DIR, '--kube-version', KUBE_VERSION, ...EXTERNAL]);
    expect(byDefault.stdout + byDefault.stderr).toContain('0 chart(s) failed');
    expect(byDefault.code).toBe(0);
    expect(withExternal.code, withExternal.stdout + withExternal.stderr).toBe(0);
  });

  it('renders one Deployment per role, running the one image with that role as its argument', () => {
    expect(ofKind(objs, 'Deployment').map((d) => d.metadata.name).sort()).toEqual(
      ROLES.map((r) => `lf-leadfinder-${r}`).sort(),
    );
    for (const role of ROLES) {
      expect(container(objs, role).image).toBe('leadfinder:0.1.0');
      expect(container(objs, role).args).toEqual(['--role', role]);
    }
    const pinned = deployment(external, 'fetcher').spec.template.spec.containers[0].image;
    expect(pinned).toBe('ghcr.io/leadfinder/leadfinder:0.1.0');
  });

  it('runs every role as uid 10001 on a read-only root filesystem with no capabilities, writing only to emptyDirs', () => {
    for (const role of ROLES) {
      const pod = deployment(objs, role).spec.template.spec;
      const c = container(objs, role);
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 10001, seccompProfile: { type: 'RuntimeDefault' } });
      expect(c.securityContext).toMatchObject({
        runAsNonRoot: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] },
      });
      const mounts = Object.fromEntries(c.volumeMounts.map((m: { name: string; mountPath: string }) => [m.mountPath, m.name]));
      expect(Object.keys(mounts).sort()).toEqual(['/data', '/tmp']);
      for (const v of pod.volumes) expect(v.emptyDir, `${role} volume ${v.name}`).toBeDefined();
      expect(pod.automountServiceAccountToken).toBe(false);
    }
  });

  it('probes the edge over HTTP (/healthz live, /readyz ready) with a startup probe allowing at least two minutes', () => {
    const c = container(objs, 'edge');
    const httpPort = c.ports.find((p: { name: string }) => p.name === 'http').containerPort;
    expect(httpPort).toBe(8080);
    expect(envOf(objs, 'edge')).toContainEqual({ name: 'PORT', value: '8080' });
    expect(c.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(c.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(c.startupProbe.httpGet.path).toBe('/healthz');
    expect(c.startupProbe.periodSeconds * c.startupProbe.failureThreshold).toBeGreaterThanOrEqual(120);
  });

  it('probes the coordinator over HTTP on the health port it is told to serve', () => {
    const c = container(objs, 'coordinator');
    expect(c.ports).toEqual([{ name: 'health', containerPort: 9090, protocol: 'TCP' }]);
    expect(envOf(objs, 'coordinator')).toContainEqual({ name: 'LEADFINDER_HEALTH_PORT', value: '9090' });
    expect(c.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'health' });
    expect(c.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'health' });
    expect(c.startupProbe.httpGet).toEqual({ path: '/healthz', port: 'health' });
  });

  it('probes fetcher and filter with kubelet gRPC probes on the port they serve grpc.health.v1 on', () => {
    for (const role of ['fetcher', 'filter'] as const) {
      const c = container(objs, role);
      expect(envOf(objs, role)).toContainEqual({ name: 'LEADFINDER_GRPC_PORT', value: '50051' });
      expect(c.ports).toContainEqual({ name: 'grpc', containerPort: 50051, protocol: 'TCP' });
      for (const probe of [c.livenessProbe, c.readinessProbe, c.startupProbe]) {
        expect(probe.grpc).toEqual({ port: 50051 });
        expect(probe.httpGet).toBeUndefined();
      }
    }
  });

  it('autoscales fetcher and filter only, leaving their replica count to the HPA', () => {
    const hpas = ofKind(objs, 'HorizontalPodAutoscaler');
    expect(hpas.map((h) => h.spec.scaleTargetRef.name).sort()).toEqual(['lf-leadfinder-fetcher', 'lf-leadfinder-filter']);
    for (const h of hpas) {
      expect(h.apiVersion).toBe('autoscaling/v2');
      expect(h.spec.metrics[0].resource).toEqual({ name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } });
    }
    expect(deployment(objs, 'fetcher').spec.replicas).toBeUndefined();
    expect(deployment(objs, 'edge').spec.replicas).toBe(2);
  });

  it('selects each role by name, instance and component, and guards each with a PodDisruptionBudget', () => {
    for (const role of ROLES) {
      const selector = deployment(objs, role).spec.selector.matchLabels;
      expect(selector).toEqual({
        'app.kubernetes.io/name': 'leadfinder', 'app.kubernetes.io/instance': 'lf', 'app.kubernetes.io/component': role,
      });
      expect(deployment(objs, role).spec.template.metadata.labels).toMatchObject(selector);
      const pdb = named(objs, 'PodDisruptionBudget', `lf-leadfinder-${role}`);
      expect(pdb.spec.selector.matchLabels).toEqual(selector);
      expect(pdb.spec.maxUnavailable).toBe(1);
    }
  });

  it('uses minAvailable instead of maxUnavailable when it is set', async () => {
    const rendered = await renderChart(bin, ['--set', 'edge.pdb.minAvailable=1', '--set', 'filter.pdb.create=false']);
    expect(named(rendered, 'PodDisruptionBudget', 'lf-leadfinder-edge').spec).toMatchObject({ minAvailable: 1 });
    expect(named(rendered, 'PodDisruptionBudget', 'lf-leadfinder-edge').spec.maxUnavailable).toBeUndefined();
    expect(ofKind(rendered, 'PodDisruptionBudget').map((p) => p.metadata.name)).not.toContain('lf-leadfinder-filter');
  });

  it('exposes the edge on a ClusterIP Service and fetcher/filter on headless gRPC Services the coordinator dials', () => {
    const edge = named(objs, 'Service', 'lf-leadfinder-edge');
    expect(edge.spec.type).toBe('ClusterIP');
    expect(edge.spec.clusterIP).toBeUndefined();
    expect(edge.spec.ports).toEqual([{ name: 'http', port: 8080, targetPort: 'http', protocol: 'TCP', appProtocol: 'http' }]);
    const config = named(objs, 'ConfigMap', 'lf-leadfinder-config').data!;
    for (const role of ['fetcher', 'filter'] as const) {
      const svc = named(objs, 'Service', `lf-leadfinder-${role}-headless`);
      expect(svc.spec.clusterIP).toBe('None');
      expect(svc.spec.ports[0]).toMatchObject({ port: 50051, targetPort: 'grpc' });
      expect(svc.spec.selector).toEqual(deployment(objs, role).spec.selector.matchLabels);
      expect(config[`LEADFINDER_${role.toUpperCase()}_ADDR`]).toBe(`dns:///lf-leadfinder-${role}-headless.research.svc.cluster.local:50051`);
    }
    expect(ofKind(objs, 'Service')).toHaveLength(3);
  });

  it('lets the fetcher reach global unicast addresses only: never private, loopback, link-local or CGNAT ranges', () => {
    const np = policy(objs, 'fetcher').spec;
    expect(np.policyTypes).toEqual(['Ingress', 'Egress']);
    const [dns, internet, ...rest] = np.egress;
    expect(rest).toEqual([]);
    expect(dns.ports).toEqual([{ port: 53, protocol: 'UDP' }, { port: 53, protocol: 'TCP' }]);
    expect(dns.to[0].podSelector.matchLabels).toEqual({ 'k8s-app': 'kube-dns' });
    expect(internet.ports).toBeUndefined();
    const blocks = internet.to.map((p: { ipBlock: { cidr: string; except: string[] } }) => p.ipBlock);
    // IPv6: only 2000::/3, so loopback, unique-local, link-local, multicast, IPv4-mapped and NAT64 are out.
    expect(blocks.map((b: { cidr: string }) => b.cidr)).toEqual(['0.0.0.0/0', '2000::/3']);
    expect(blocks[0].except).toEqual(expect.arrayContaining([...PRIVATE_V4, '192.0.0.0/24', '198.18.0.0/15', '224.0.0.0/4', '240.0.0.0/4']));
    expect(blocks[1].except).toEqual(expect.arrayContaining(['2001::/23', '2002::/16']));
    expect(np.ingress).toEqual([{
      ports: [{ port: 'grpc', protocol: 'TCP' }],
      from: [{ podSelector: { matchLabels: deployment(objs, 'coordinator').spec.selector.matchLabels } }],
    }]);
  });

  it('limits the other roles to named peers: datastores, DNS, fetcher/filter, and the LLM over 443 for the filter once one is configured', () => {
    for (const role of ['edge', 'coordinator'] as const) {
      for (const rule of policy(objs, role).spec.egress) {
        expect(rule.to?.length, `${role} egress rule without peers allows everything`).toBeGreaterThan(0);
        expect(rule.ports?.length, `${role} egress rule without ports`).toBeGreaterThan(0);
        for (const peer of rule.to) expect(peer.ipBlock, `${role} may not reach raw address ranges`).toBeUndefined();
      }
      const ports = policy(objs, role).spec.egress.flatMap((r: { ports: { port: number }[] }) => r.ports.map((p) => p.port));
      expect(ports).toEqual(expect.arrayContaining([53, 4222, 27017]));
    }
    const toGrpc = policy(objs, 'coordinator').spec.egress.find((r: { ports: { port: number }[] }) => r.ports[0]!.port === 50051);
    expect(toGrpc.to.map((p: { podSelector: { matchLabels: Record<string, string> } }) => p.podSelector.matchLabels['app.kubernetes.io/component'])).toEqual(['fetcher', 'filter']);
    // No LLM configured (the default): the filter runs the rule-based reasoner and reaches DNS only.
    expect(policy(objs, 'filter').spec.egress.map((r: { ports: { port: number }[] }) => r.ports[0]!.port)).toEqual([53]);
    const filterEgress = policy(external, 'filter').spec.egress;
    const llm = filterEgress.find((r: { ports: { port: number }[] }) => r.ports[0]!.port === 443);
    expect(llm.ports).toEqual([{ port: 443, protocol: 'TCP' }]);
    expect(llm.to[0].ipBlock.except).toEqual(expect.arrayContaining(PRIVATE_V4));
    expect(policy(objs, 'edge').spec.ingress).toEqual([{ ports: [{ port: 'http', protocol: 'TCP' }] }]);
    expect(policy(objs, 'coordinator').spec.ingress).toEqual([]);
  });

  it('adds the OTLP collector to every role\'s egress once one is configured', () => {
    for (const role of ROLES) {
      const otlp = policy(external, role).spec.egress.find((r: { ports: { port: number }[] }) => r.ports?.[0]?.port === 4318);
      expect(otlp?.to[0].namespaceSelector.matchLabels, role).toEqual({ 'kubernetes.io/metadata.name': 'observability' });
    }
  });

  it('wires every secret through secretKeyRef, never as a literal env value, and only into the roles that need it', async () => {
    const rendered = await renderChart(bin, [
      '--set', 'secrets.llmApiKey=sk-test-literal-123', '--set', 'secrets.adminToken=admin-literal-456', '--set', 'admin.enabled=true',
    ]);
    const secretEnvByRole: Record<string, string[]> = {};
    for (const role of ROLES) {
      for (const e of envOf(rendered, role)) {
        if (!SECRET_ENV.includes(e.name)) continue;
        expect(e.value, `${role} ${e.name}`).toBeUndefined();
        expect(e.valueFrom?.secretKeyRef.name).toMatch(/^lf-leadfinder(-mongodb|-generated)?$/);
        (secretEnvByRole[role] ??= []).push(e.name);
      }
    }
    expect(secretEnvByRole).toEqual({
      edge: ['LEADFINDER_MONGODB_URL', 'LEADFINDER_ADMIN_TOKEN', 'LEADFINDER_OIDC_CLIENT_SECRET', 'LEADFINDER_SESSION_SECRET'],
      coordinator: ['LEADFINDER_MONGODB_URL'],
      fetcher: ['LEADFINDER_BRAVE_API_KEY'],
      filter: ['LEADFINDER_LLM_API_KEY'],
    });
    const plain = JSON.stringify(rendered.filter((o) => o.kind !== 'Secret'));
    expect(plain).not.toContain('sk-test-literal-123');
    expect(plain).not.toContain('admin-literal-456');
    const secret = named(rendered, 'Secret', 'lf-leadfinder').data!;
    expect(Buffer.from(secret['llm-api-key']!, 'base64').toString()).toBe('sk-test-literal-123');
    expect(Buffer.from(secret['admin-token']!, 'base64').toString()).toBe('admin-literal-456');
    // Not given: generated once by the hook Job into lf-leadfinder-generated, never rendered.
    expect(secret['session-secret']).toBeUndefined();
  });

  it('uses existing Secrets and creates none when the external-services values name them', () => {
    expect(ofKind(external, 'Secret')).toEqual([]);
    const env = envOf(external, 'edge');
    expect(env.find((e) => e.name === 'LEADFINDER_MONGODB_URL')!.valueFrom?.secretKeyRef).toEqual({ name: 'leadfinder-mongodb', key: 'uri' });
    expect(env.find((e) => e.name === 'LEADFINDER_ADMIN_TOKEN')!.valueFrom?.secretKeyRef).toMatchObject({ name: 'leadfinder-secrets', key: 'admin-token' });
    expect(env).toContainEqual({ name: 'LEADFINDER_NATS_URL', value: 'nats://nats.messaging.svc.cluster.local:4222' });
    expect(named(external, 'ConfigMap', 'lf-leadfinder-fetcher-config').data).toEqual({ LEADFINDER_SEARCH: 'brave' });
    expect(envOf(external, 'coordinator').map((e) => e.name)).not.toContain('LEADFINDER_BRAVE_API_KEY');
  });

  it('rolls the pods when the ConfigMap changes, through a checksum/config annotation', async () => {
    const changed = await renderChart(bin, ['--set', 'config.logLevel=debug']);
    for (const role of ROLES) {
      const before = deployment(objs, role).spec.template.metadata.annotations['checksum/config'];
      const after = deployment(changed, role).spec.template.metadata.annotations['checksum/config'];
      expect(before).toMatch(/^[a-f0-9]{64}$/);
      expect(after).not.toBe(before);
    }
    expect(named(changed, 'ConfigMap', 'lf-leadfinder-config').data!.LEADFINDER_LOG_LEVEL).toBe('debug');
  });

  it('enables the development sign-in in no default, no profile and no role', async () => {
    const dev = await renderChart(bin, ['-f', join(REPO_ROOT, 'deploy', 'values', 'dev.yaml')]);
    const prod = await renderChart(bin, ['-f', join(REPO_ROOT, 'deploy', 'values', 'prod.yaml'), '--set', `global.image.digest=sha256:${'a'.repeat(64)}`]);
    for (const rendered of [objs, external, dev, prod]) {
      expect(JSON.stringify(rendered)).not.toContain('LEADFINDER_DEV_SIGNIN');
      // The edge runs as a separate service, where start-up refuses the development sign-in anyway.
      expect(container(rendered, 'edge').args).toContain('edge');
    }
  });

  it('refuses unknown keys in any block through values.schema.json', async () => {
    for (const key of ['edge.bogus', 'filter.autoscaling.targetCpu', 'global.image.tagg', 'networkPolicy.bogus', 'bogus']) {
      const result = await helm(bin, ['template', 'lf', CHART_DIR, '--kube-version', KUBE_VERSION, '--set', `${key}=1`]);
      expect(result.code, key).not.toBe(0);
      expect(result.stderr).toMatch(/Additional property \S+ is not allowed/);
    }
  });

  it('ships a helm test pod that fetches the edge /readyz through its Service', () => {
    const pod = named(objs, 'Pod', 'lf-leadfinder-test-edge-readyz');
    expect(pod.metadata.annotations!['helm.sh/hook']).toBe('test');
    const args: string[] = pod.spec.containers[0].args;
    expect(args).toContain('--fail');
    expect(args.at(-1)).toBe('http://lf-leadfinder-edge.research.svc.cluster.local:8080/readyz');
  });

  it('renders the skaffold dev profile with one replica of each role and the prod profile with HPAs', async () => {
    const dev = await renderChart(bin, ['-f', join(REPO_ROOT, 'deploy', 'values', 'dev.yaml')]);
    expect(ofKind(dev, 'HorizontalPodAutoscaler')).toEqual([]);
    for (const role of ROLES) expect(deployment(dev, role).spec.replicas).toBe(1);
    expect(named(dev, 'ConfigMap', 'lf-leadfinder-config').data!.LEADFINDER_LOG_LEVEL).toBe('debug');
    const prod = await renderChart(bin, ['-f', join(REPO_ROOT, 'deploy', 'values', 'prod.yaml'), '--set', `global.image.digest=sha256:${'a'.repeat(64)}`]);
    expect(ofKind(prod, 'HorizontalPodAutoscaler').map((h) => h.spec.minReplicas)).toEqual([3, 3]);
    expect(container(prod, 'edge').image).toBe(`leadfinder@sha256:${'a'.repeat(64)}`);
  });
});

describe('values.yaml, its @param comments and values.schema.json', () => {
  const valuesText = readFileSync(join(CHART_DIR, 'values.yaml'), 'utf8');
  const values = parse(valuesText) as Record<string, unknown>;
  const schema = JSON.parse(readFileSync(join(CHART_DIR, 'values.schema.json'), 'utf8'));

  /** Paths down to the leaves, stopping at free-form maps and lists (resources, affinity, extraEnv…). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- walks arbitrary JSON Schema
  function schemaPaths(node: any, prefix: string): string[] {
    const resolved = node.$ref ? schema.definitions[node.$ref.split('/').pop()] : node;
    if (resolved.type !== 'object' || !resolved.properties) return [prefix];
    expect(resolved.additionalProperties, `${prefix || 'root'} must refuse unknown keys`).toBe(false);
    return Object.entries(resolved.properties).flatMap(([k, v]) => schemaPaths(v, prefix ? `${prefix}.${k}` : k));
  }
  const documented = [...valuesText.matchAll(/^\s*## @param (\S+)/gm)].map((m) => m[1]!);

  it('documents exactly the keys the schema knows, one @param each', () => {
    const paths = schemaPaths(schema, '');
    expect([...documented].sort()).toEqual([...paths].sort());
  });

  it('gives every documented key a default in values.yaml', () => {
    for (const path of documented) {
      const value = path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], values);
      expect(value, path).not.toBeUndefined();
    }
  });

  it('gives the four role blocks the identical shape', () => {
    const shape = (role: string) => documented.filter((p) => p.startsWith(`${role}.`)).map((p) => p.slice(role.length + 1)).sort();
    for (const role of ROLES) expect(shape(role)).toEqual(shape('edge'));
    for (const role of ROLES) expect(schema.properties[role]).toEqual({ $ref: '#/definitions/role' });
  });
});
