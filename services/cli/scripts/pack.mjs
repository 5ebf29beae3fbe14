#!/usr/bin/env node
// Packs the `leadfinder` command (client and admin commands) for publishing:
// `node services/cli/scripts/pack.mjs [DEST]` bundles src/client-bin.ts (tsup.config.ts) into one file,
// writes the published manifest beside it in a staging folder and runs `npm pack` there; prints the
// tarball's path. `npx leadfinder …` then works from the installed tarball. The workspace package itself
// stays private (it is also the service's composition root).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(dirname(fileURLToPath(import.meta.url)));
const root = resolve(here, '..', '..');
const dest = resolve(process.argv[2] ?? process.cwd());
const workspace = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

const staging = mkdtempSync(join(tmpdir(), 'leadfinder-cli-pack-'));
try {
  execFileSync(process.execPath, [join(root, 'node_modules', 'tsup', 'dist', 'cli-default.js')], {
    cwd: here,
    env: { ...process.env, LEADFINDER_CLI_OUT_DIR: join(staging, 'dist') },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const manifest = {
    name: workspace.name,
    version: workspace.version,
    description: 'The leadfinder command: run web-research searches from a terminal, follow them live, export the rows.',
    license: rootManifest.license,
    type: 'module',
    bin: { leadfinder: './dist/leadfinder.mjs' },
    files: ['dist', 'README.md'],
    engines: rootManifest.engines,
    // The SDK and the wire schemas are bundled; zod is what the schemas are made of.
    dependencies: { zod: workspace.dependencies.zod },
  };
  writeFileSync(join(staging, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  copyFileSync(join(here, 'README.md'), join(staging, 'README.md'));
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', dest], { cwd: staging, encoding: 'utf8' }));
  console.log(join(dest, packed.filename));
} finally {
  rmSync(staging, { recursive: true, force: true });
}
