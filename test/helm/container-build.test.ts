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

  it('builds in stages from node:20-bookworm-slim, installs production dependencies only, and compiles with deploy/build.mjs', () => {
    expect(stages.length).toBeGreaterThanOrEqual(3);
    expect(lines).toContain('ARG NODE_IMAGE=node:20-bookworm-slim');
    const installs = lines.filter((l) => /\bnpm (ci|install|i)\b/.test(l));
    expect(installs.length).toBeGreaterThan(0);
    for (const l of installs) expect(l).toMatch(/--omit=dev/);
    // The compile step is the one test/e2e/compiled-image.test.ts runs and starts role by role.
    expect(lines).toContain('RUN node deploy/build.mjs /app/dist');
    expect(runtime).toContain('COPY --from=build /app/dist ./dist');
    expect(existsSync(join(REPO_ROOT, 'deploy', 'build.mjs'))).toBe(true);
    // The build stage starts from the production install: esbuild must be a production package there.
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { dev?: boolean; version?: string }> };
    expect(lock.packages['node_modules/esbuild']?.version).toBeDefined();
    expect(lock.packages['node_modules/esbuild']?.dev).toBeUndefined();
  });

  it('runs the compiled JavaScript with node directly, as the non-root uid 10001, with the role chosen by argument', () => {
    const user = runtime.filter((l) => /^USER /.test(l)).at(-1);
    expect(user).toMatch(/^USER 10001(:10001)?$/);
    expect(runtime).toContain('ENTRYPOINT ["node", "dist/leadfinder.mjs", "serve"]');
    expect(runtime).toContain('CMD ["--role", "all"]');
    expect(runtime.some((l) => /^HEALTHCHECK/.test(l))).toBe(false);
    // No TypeScript sources and no npm or tsx on the way to node.
    expect(runtime.filter((l) => /^COPY /.test(l) && /\bservices\b/.test(l))).toEqual([]);
    expect(runtime.filter((l) => /^(ENTRYPOINT|CMD)/.test(l)).join(' ')).not.toMatch(/npm|tsx|\.ts\b/);
  });

  it('copies the manifest of every workspace before npm ci, so the lockfile is honoured', () => {
    const workspaces: string[] = JSON.parse(read('package.json')).workspaces;
    const deps = lines.slice(0, runtimeStart);
    for (const ws of workspaces) expect(deps, ws).toContain(`COPY ${ws}/package.json ${ws}/`);
  });

  it('copies only package*.json into the runtime stage from the build context (the rest comes compiled from the build stage)', () => {
    const sources = runtime.filter((l) => /^COPY /.test(l) && !l.includes('--from='))
      .flatMap((l) => l.replace(/^COPY\s+/, '').split(/\s+/).slice(0, -1));
    expect(sources.sort()).toEqual(['package-lock.json', 'package.json']);
  });
});

describe('.dockerignore', () => {
  const entries = read('.dockerignore').split('\n').map((l) => l.trim());
  it('keeps dependencies, history, local data, test artifacts and bench results out of the build context', () => {
    for (const e of ['**/node_modules', '.git', '.leadfinder', 'test-artifacts', 'bench', '**/*.test.ts']) {
      expect(entries, e).toContain(e);
    }
    // deploy/ stays out, except the build script the build stage runs.
    expect(entries.indexOf('!deploy/build.mjs')).toBeGreaterThan(entries.indexOf('deploy'));
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
