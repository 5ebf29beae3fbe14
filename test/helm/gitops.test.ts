import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  CHART_DIR, KUBE_VERSION, REPO_ROOT, ROLES, findHelm, helm, named, ofKind, recordSkippedHelmSuite, renderChart, renderChartText,
} from './helm-harness.js';
import type { K8sObject } from './helm-harness.js';

/**
 * What a GitOps controller (Argo CD, Flux, helm diff) needs from the chart: renders that never change
 * by themselves, secrets that are made once and kept, the admin API off the public path, a `helm test`
 * that its own NetworkPolicies let through, and the deployment details that have to match the image.
 */
const HELM = findHelm();
if (!HELM) recordSkippedHelmSuite('test/helm/gitops.test.ts');

const EXTERNAL = ['-f', join(CHART_DIR, 'ci', 'external-values.yaml')];
const DEV = ['-f', join(REPO_ROOT, 'deploy', 'values', 'dev.yaml')];
const PROD = ['-f', join(REPO_ROOT, 'deploy', 'values', 'prod.yaml')];
const ADMIN = ['--set', 'admin.enabled=true'];
const container = (objs: K8sObject[], role: string) => named(objs, 'Deployment', `lf-leadfinder-${role}`).spec.template.spec.containers[0];
const envNames = (objs: K8sObject[], role: string): string[] => container(objs, role).env.map((e: { name: string }) => e.name);
const envValue = (objs: K8sObject[], role: string, name: string) => container(objs, role).env.find((e: { name: string }) => e.name === name);

describe.skipIf(!HELM)('the chart under GitOps', () => {
  const bin = HELM!;

  it('renders byte-identical manifests twice in a row for every shipped values file, with nothing random or cluster-read in the templates', async () => {
    for (const args of [[], EXTERNAL, DEV, PROD, ADMIN]) {
      const [first, second] = [await renderChartText(bin, args), await renderChartText(bin, args)];
      expect(second === first, `values ${args.join(' ') || 'default'}`).toBe(true);
    }
    const templates = ['_helpers.tpl', '_workload.tpl', 'secret.yaml', 'secret-generator.yaml', 'networkpolicy.yaml', 'configmap.yaml']
      .map((f) => readFileSync(join(CHART_DIR, 'templates', f), 'utf8').replace(/\{\{-?\s*\/\*[\s\S]*?\*\/\s*-?\}\}/g, ''))
      .join('\n');
    expect(templates).not.toMatch(/\b(lookup|randAlpha|randAlphaNum|randAscii|randNumeric|randBytes|uuidv4|now|genPrivateKey|genCA)\b/);
  });

  it('puts no generated secret into the render: without values the edge reads them from the Secret the hook Job makes once', async () => {
    const objs = await renderChart(bin, ADMIN);
    expect(ofKind(objs, 'Secret').map((s) => s.metadata.name)).toEqual(['lf-leadfinder-mongodb']);
    for (const name of ['LEADFINDER_SESSION_SECRET', 'LEADFINDER_ADMIN_TOKEN']) {
      expect(envValue(objs, 'edge', name).valueFrom.secretKeyRef).toMatchObject({ name: 'lf-leadfinder-generated', optional: false });
    }
    const job = named(objs, 'Job', 'lf-leadfinder-secret-generator');
    expect(job.metadata.annotations!['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    const env = Object.fromEntries(job.spec.template.spec.containers[0].env.map((e: { name: string; value: string }) => [e.name, e.value]));
    expect(env).toMatchObject({ SECRET_NAME: 'lf-leadfinder-generated', SECRET_KEYS: 'session-secret admin-token' });
    // Its Role reads and patches that one Secret only.
    const role = named(objs, 'Role', 'lf-leadfinder-secret-generator');
    expect(role.metadata.annotations!['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    const rules = (role as unknown as { rules: { verbs: string[]; resourceNames?: string[] }[] }).rules;
    expect(rules).toContainEqual({ apiGroups: [''], resources: ['secrets'], resourceNames: ['lf-leadfinder-generated'], verbs: ['get', 'patch'] });
    expect(rules.flatMap((r) => r.verbs).sort()).toEqual(['create', 'get', 'patch']);
  });

  it('renders no generator with existingSecret or explicit values, and refuses to render without either when generation is off', async () => {
    for (const args of [EXTERNAL, ['--set', 'secrets.sessionSecret=s'.padEnd(40, 's')]]) {
      expect(ofKind(await renderChart(bin, args), 'Job')).toEqual([]);
    }
    const refused = await helm(bin, ['template', 'lf', CHART_DIR, '--kube-version', KUBE_VERSION, '--set', 'secrets.generate=false']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('set secrets.existingSecret, secrets.sessionSecret, or secrets.generate=true');
  });

  it('keeps the admin API off by default: no token, no admin port, and the one edge Service the Ingress routes to', async () => {
    const objs = await renderChart(bin, ['--set', 'ingress.enabled=true']);
    expect(envNames(objs, 'edge')).not.toContain('LEADFINDER_ADMIN_TOKEN');
    expect(envNames(objs, 'edge')).not.toContain('LEADFINDER_ADMIN_PORT');
    expect(container(objs, 'edge').ports.map((p: { name: string }) => p.name)).toEqual(['http']);
    expect(ofKind(objs, 'Secret').flatMap((s) => Object.keys(s.data ?? {}))).not.toContain('admin-token');
  });

  it('serves an enabled admin API on its own port and Service, which neither the Ingress nor the public ingress rule reaches', async () => {
    const objs = await renderChart(bin, [...EXTERNAL]);
    expect(envValue(objs, 'edge', 'LEADFINDER_ADMIN_PORT')).toEqual({ name: 'LEADFINDER_ADMIN_PORT', value: '8081' });
    expect(container(objs, 'edge').ports).toContainEqual({ name: 'admin', containerPort: 8081, protocol: 'TCP' });
    const adminSvc = named(objs, 'Service', 'lf-leadfinder-edge-admin');
    expect(adminSvc.spec.ports).toEqual([{ name: 'admin', port: 8081, targetPort: 'admin', protocol: 'TCP', appProtocol: 'http' }]);
    expect(named(objs, 'Service', 'lf-leadfinder-edge').spec.ports.map((p: { port: number }) => p.port)).toEqual([8080]);
    const backends = named(objs, 'Ingress', 'lf-leadfinder-edge').spec.rules
      .flatMap((r: { http: { paths: { backend: { service: unknown } }[] } }) => r.http.paths.map((p) => p.backend.service));
    expect(backends).toEqual([{ name: 'lf-leadfinder-edge', port: { name: 'http' } }]);
    const ingress = named(objs, 'NetworkPolicy', 'lf-leadfinder-edge').spec.ingress as { ports: { port: string }[]; from?: unknown[] }[];
    const toAdmin = ingress.filter((r) => r.ports.some((p) => p.port === 'admin'));
    expect(toAdmin).toEqual([{ ports: [{ port: 'admin', protocol: 'TCP' }], from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ops' } } }] }]);
    for (const rule of ingress.filter((r) => r !== toAdmin[0])) expect(rule.ports.map((p) => p.port)).toEqual(['http']);
  });

  it('lets the helm test pod through the edge NetworkPolicy even when edge ingress is narrowed to the ingress controller', async () => {
    for (const args of [[], EXTERNAL]) {
      const objs = await renderChart(bin, args);
      const pod = named(objs, 'Pod', 'lf-leadfinder-test-edge-readyz');
      const policy = named(objs, 'NetworkPolicy', 'lf-leadfinder-edge').spec;
      const labels = pod.metadata.labels!;
      // Same namespace: a rule admits the pod when it has no `from`, or a podSelector-only peer matching its labels.
      const admits = (policy.ingress as { ports: { port: string }[]; from?: { podSelector?: { matchLabels: Record<string, string> }; namespaceSelector?: unknown }[] }[])
        .some((rule) => rule.ports.some((p) => p.port === 'http') && (!rule.from || rule.from.some((peer) =>
          peer.podSelector && !peer.namespaceSelector && Object.entries(peer.podSelector.matchLabels).every(([k, v]) => labels[k] === v))));
      expect(admits, args.join(' ') || 'default').toBe(true);
      // The test pod itself is selected by no policy of the chart, so its egress is not cut.
      for (const np of ofKind(objs, 'NetworkPolicy')) {
        const selected = Object.entries(np.spec.podSelector.matchLabels as Record<string, string>).every(([k, v]) => labels[k] === v);
        expect(selected, np.metadata.name).toBe(false);
      }
    }
  });

  it('takes NATS credentials and TLS files from a Secret, only into the roles that talk to NATS', async () => {
    const objs = await renderChart(bin, [
      '--set', 'externalNats.url=tls://nats.messaging:4222', '--set', 'externalNats.existingSecret=nats-client',
      '--set', 'externalNats.credsKey=nats.creds', '--set', 'externalNats.passwordKey=password', '--set', 'externalNats.userKey=user',
      '--set', 'externalNats.tls.caKey=ca.crt', '--set', 'externalNats.tls.certKey=tls.crt', '--set', 'externalNats.tls.keyKey=tls.key',
    ]);
    for (const role of ['edge', 'coordinator']) {
      expect(envValue(objs, role, 'LEADFINDER_NATS_CREDS_FILE').value).toBe('/etc/leadfinder/nats/nats.creds');
      expect(envValue(objs, role, 'LEADFINDER_NATS_TLS_CA_FILE').value).toBe('/etc/leadfinder/nats/ca.crt');
      expect(envValue(objs, role, 'LEADFINDER_NATS_TLS_CERT_FILE').value).toBe('/etc/leadfinder/nats/tls.crt');
      expect(envValue(objs, role, 'LEADFINDER_NATS_TLS_KEY_FILE').value).toBe('/etc/leadfinder/nats/tls.key');
      expect(envValue(objs, role, 'LEADFINDER_NATS_PASSWORD').valueFrom.secretKeyRef).toEqual({ name: 'nats-client', key: 'password' });
      expect(envValue(objs, role, 'LEADFINDER_NATS_USER').valueFrom.secretKeyRef).toEqual({ name: 'nats-client', key: 'user' });
      expect(envNames(objs, role)).not.toContain('LEADFINDER_NATS_TOKEN');
      expect(container(objs, role).volumeMounts).toContainEqual({ name: 'nats', mountPath: '/etc/leadfinder/nats', readOnly: true });
      const volumes = named(objs, 'Deployment', `lf-leadfinder-${role}`).spec.template.spec.volumes;
      expect(volumes).toContainEqual({ name: 'nats', secret: { secretName: 'nats-client', defaultMode: 0o440 } });
    }
    for (const role of ['fetcher', 'filter']) expect(envNames(objs, role).filter((n) => n.startsWith('LEADFINDER_NATS'))).toEqual([]);
  });

  it('declares the Kubernetes versions it supports (gRPC probes) and refuses older clusters', async () => {
    const chart = parse(readFileSync(join(CHART_DIR, 'Chart.yaml'), 'utf8'));
    expect(chart.kubeVersion).toBe('>=1.25.0-0');
    const old = await helm(bin, ['template', 'lf', CHART_DIR, '--kube-version', '1.23.0']);
    expect(old.code).not.toBe(0);
    expect(old.stderr).toContain('incompatible with Kubernetes v1.23.0');
  });

  it('limits the Node heap to global.heapPercent of each role\'s memory limit, and requests at least the measured idle RSS', async () => {
    for (const args of [[], DEV, PROD, ['--set', 'fetcher.resources.limits.memory=2Gi', '--set', 'global.heapPercent=50']]) {
      const objs = await renderChart(bin, args);
      for (const role of ROLES) {
        const c = container(objs, role);
        const limit = String(c.resources.limits.memory);
        const mib = limit.endsWith('Gi') ? Number(limit.slice(0, -2)) * 1024 : Number(limit.slice(0, -2));
        const percent = args.includes('global.heapPercent=50') ? 50 : 75;
        expect(envValue(objs, role, 'NODE_OPTIONS').value, `${role} ${args.join(' ')}`)
          .toBe(`--enable-source-maps --max-old-space-size=${Math.floor((mib * percent) / 100)}`);
        const request = String(c.resources.requests.memory);
        expect(Number(request.slice(0, -2)), `${role} request`).toBeGreaterThanOrEqual(MEASURED_IDLE_RSS_MIB[role]!);
      }
    }
    const refused = await helm(bin, ['template', 'lf', CHART_DIR, '--kube-version', KUBE_VERSION, '--set', 'edge.resources.limits.memory=500M']);
    expect(refused.stderr).toContain('write it in Mi or Gi');
  });

  it('defaults to the image tag deploy/README.md builds', async () => {
    const readme = readFileSync(join(REPO_ROOT, 'deploy', 'README.md'), 'utf8');
    const built = /docker build -f deploy\/Dockerfile -t (\S+) \./.exec(readme)?.[1];
    const objs = await renderChart(bin);
    for (const role of ROLES) expect(container(objs, role).image).toBe(built);
    for (const run of readme.matchAll(/docker run [^\n]*?(leadfinder\S*)(?=\s|$)/g)) expect(run[1]).toBe(built);
  });
});

/**
 * Idle RSS of each role measured here (MiB; see charts/leadfinder/README.md "Memory"): node running the
 * role's start script, after start-up, no traffic. Requests must not sit below it.
 */
const MEASURED_IDLE_RSS_MIB: Record<string, number> = JSON.parse(readFileSync(join(CHART_DIR, 'files', 'measured-idle-rss.json'), 'utf8')).mib;

describe('the secret generator script (charts/leadfinder/files/generate-secret.sh) against a Kubernetes API on loopback', () => {
  const run = promisify(execFile);
  const dir = mkdtempSync(join(tmpdir(), 'lf-secretgen-'));
  const secrets = new Map<string, { data: Record<string, string>; labels: Record<string, string> }>();
  const requests: string[] = [];
  let refuse = false;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => {
      requests.push(`${req.method} ${req.url}`);
      const answer = (status: number, value: unknown) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(value)); };
      if (req.headers.authorization !== 'Bearer sa-token') return answer(401, { message: 'Unauthorized' });
      if (refuse) return answer(403, { message: 'secrets is forbidden' });
      const m = /^\/api\/v1\/namespaces\/research\/secrets(?:\/([\w-]+))?$/.exec(req.url ?? '');
      if (!m) return answer(404, { message: 'no route' });
      const name = m[1];
      const found = name ? secrets.get(name) : undefined;
      if (req.method === 'GET') return found ? answer(200, { metadata: { name, labels: found.labels }, data: found.data }) : answer(404, { reason: 'NotFound' });
      if (req.method === 'POST' && !name) {
        const posted = JSON.parse(body);
        if (secrets.has(posted.metadata.name)) return answer(409, { reason: 'AlreadyExists' });
        secrets.set(posted.metadata.name, { data: posted.data, labels: posted.metadata.labels });
        return answer(201, posted);
      }
      if (req.method === 'PATCH' && found && req.headers['content-type'] === 'application/merge-patch+json') {
        Object.assign(found.data, JSON.parse(body).data);
        return answer(200, found);
      }
      return answer(405, { message: 'unexpected call' });
    });
  });
  let api = '';
  let script = '';

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    writeFileSync(join(dir, 'token'), 'sa-token');
    writeFileSync(join(dir, 'namespace'), 'research');
    script = readFileSync(join(CHART_DIR, 'files', 'generate-secret.sh'), 'utf8');
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  const generate = (keys: string) => run('sh', ['-c', script], {
    env: {
      PATH: process.env.PATH, KUBERNETES_API: api, SERVICE_ACCOUNT_DIR: dir, SECRET_NAME: 'lf-leadfinder-generated',
      SECRET_KEYS: keys, SECRET_LABELS_JSON: '{"app.kubernetes.io/instance":"lf"}',
    },
    timeout: 20_000,
  });
  const decoded = () => Object.fromEntries(Object.entries(secrets.get('lf-leadfinder-generated')!.data)
    .map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]));

  it('creates the Secret once with a random 64-character value per key, then leaves it alone on every later run', async () => {
    secrets.clear();
    await generate('session-secret');
    const first = decoded();
    expect(Object.keys(first)).toEqual(['session-secret']);
    expect(first['session-secret']).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(secrets.get('lf-leadfinder-generated')!.labels).toEqual({ 'app.kubernetes.io/instance': 'lf' });
    requests.length = 0;
    const again = await generate('session-secret');
    expect(again.stdout).toContain('nothing changed');
    expect(requests).toEqual(['GET /api/v1/namespaces/research/secrets/lf-leadfinder-generated']);
    expect(decoded()).toEqual(first);
  });

  it('adds a key the Secret lacks (admin API enabled later) without touching the ones it has', async () => {
    const before = decoded()['session-secret'];
    await generate('session-secret admin-token');
    const after = decoded();
    expect(after['session-secret']).toBe(before);
    expect(after['admin-token']).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(after['admin-token']).not.toBe(before);
  });

  it('makes different values for another installation', async () => {
    const before = decoded()['session-secret'];
    secrets.clear();
    await generate('session-secret');
    expect(decoded()['session-secret']).not.toBe(before);
  });

  it('fails, naming the HTTP status, when the API refuses', async () => {
    refuse = true;
    try {
      await expect(generate('session-secret')).rejects.toMatchObject({ stderr: expect.stringContaining('HTTP 403') });
    } finally {
      refuse = false;
    }
  });

  it.skipIf(!HELM)('is the script the hook Job runs', async () => {
    const objs = await renderChart(HELM!);
    expect(named(objs, 'Job', 'lf-leadfinder-secret-generator').spec.template.spec.containers[0].args).toEqual([script]);
  });
});
