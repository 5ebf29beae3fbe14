import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from './helm-harness.js';

const read = (...parts: string[]) => readFileSync(join(REPO_ROOT, ...parts), 'utf8');
/** Dockerfile instructions, continuation lines joined and comments dropped. */
const instructions = (text: string) =>
  text.replace(/\\\n/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));

describe('deploy/Dockerfile', () => {
  const lines = instructions(read('deploy', 'Dockerfile'));
  const stages = lines.filter((l) => /^FROM /i.test(l));
  const runtimeStart = lines.lastIndexOf(stages.at(-1)!);
  const runtime = lines.slice(runtimeStart);

  it('builds in stages from node:20-bookworm-slim and installs production dependencies only', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(lines).toContain('ARG NODE_IMAGE=node:20-bookworm-slim');
    const installs = lines.filter((l) => /\bnpm (ci|install|i)\b/.test(l));
    expect(installs.length).toBeGreaterThan(0);
    for (const l of installs) expect(l).toMatch(/--omit=dev/);
    expect(lines.some((l) => /npm run build|tsc\b/.test(l))).toBe(false);
  });

  it('runs as the non-root uid 10001 with the role chosen by argument', () => {
    const user = runtime.filter((l) => /^USER /.test(l)).at(-1);
    expect(user).toMatch(/^USER 10001(:10001)?$/);
    expect(runtime).toContain('ENTRYPOINT ["node", "services/cli/bin/leadfinder.mjs", "serve"]');
    expect(runtime).toContain('CMD ["--role", "all"]');
    expect(runtime.some((l) => /^HEALTHCHECK/.test(l))).toBe(false);
    expect(existsSync(join(REPO_ROOT, 'services', 'cli', 'bin', 'leadfinder.mjs'))).toBe(true);
  });

  it('copies the manifest of every workspace before npm ci, so the lockfile is honoured', () => {
    const workspaces: string[] = JSON.parse(read('package.json')).workspaces;
    const deps = lines.slice(0, runtimeStart);
    for (const ws of workspaces) expect(deps, ws).toContain(`COPY ${ws}/package.json ${ws}/`);
  });

  it('copies only package*.json, proto/ and services/ from the build context', () => {
    const sources = runtime.filter((l) => /^COPY /.test(l) && !l.includes('--from='))
      .flatMap((l) => l.replace(/^COPY\s+/, '').split(/\s+/).slice(0, -1));
    expect(sources.sort()).toEqual(['package-lock.json', 'package.json', 'proto', 'services']);
  });
});

describe('.dockerignore', () => {
  const entries = read('.dockerignore').split('\n').map((l) => l.trim());
  it('keeps dependencies, history, local data, test artifacts and bench results out of the build context', () => {
    for (const e of ['**/node_modules', '.git', '.leadfinder', 'test-artifacts', 'bench', '**/*.test.ts']) {
      expect(entries, e).toContain(e);
    }
  });
});

describe('skaffold.yaml', () => {
  const config = parse(read('skaffold.yaml'));
  const release = config.deploy.helm.releases[0];

  it('builds the leadfinder image from deploy/Dockerfile and deploys the chart with it', () => {
    expect(config.apiVersion).toMatch(/^skaffold\/v4beta(1[1-9]|[2-9]\d)$/);
    expect(config.build.artifacts).toEqual([{ image: 'leadfinder', context: '.', docker: { dockerfile: 'deploy/Dockerfile' } }]);
    expect(release.chartPath).toBe('charts/leadfinder');
    expect(release.setValueTemplates).toEqual({
      'global.image.repository': '{{.IMAGE_REPO_leadfinder}}',
      'global.image.tag': '{{.IMAGE_TAG_leadfinder}}',
    });
  });

  it('has a dev profile forwarding the edge to :8080 and a prod profile pinning the image digest', () => {
    const profiles = Object.fromEntries(config.profiles.map((p: { name: string }) => [p.name, p]));
    expect(Object.keys(profiles).sort()).toEqual(['dev', 'prod']);
    // Release "leadfinder" of chart "leadfinder" names the edge Service leadfinder-edge.
    expect(profiles.dev.portForward).toEqual([
      { resourceType: 'service', resourceName: 'leadfinder-edge', namespace: release.namespace, port: 8080, localPort: 8080 },
    ]);
    const added = (p: { patches: { path: string; value: unknown }[] }) => p.patches.map((x) => x.value);
    expect(added(profiles.dev)).toContain('deploy/values/dev.yaml');
    expect(added(profiles.prod)).toContain('deploy/values/prod.yaml');
    expect(added(profiles.prod)).toContain('{{.IMAGE_DIGEST_leadfinder}}');
    for (const f of ['deploy/values/dev.yaml', 'deploy/values/prod.yaml', ...release.valuesFiles]) {
      expect(existsSync(join(REPO_ROOT, f)), f).toBe(true);
    }
  });
});

describe('deploy/local-up.sh and local-down.sh', () => {
  it('parse as bash', () => {
    for (const script of ['local-up.sh', 'local-down.sh']) {
      expect(() => execFileSync('bash', ['-n', join(REPO_ROOT, 'deploy', script)])).not.toThrow();
    }
  });
});
