#!/usr/bin/env node
// Packs @leadfinder/client for publishing: `node services/client/scripts/pack.mjs [DEST]` builds ESM and
// CJS with their .d.ts (tsup.config.ts), writes the published manifest beside them in a staging folder
// and runs `npm pack` there; prints the tarball's path. The workspace package itself stays private and
// source-only (the repository's tools import its TypeScript directly).
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

const staging = mkdtempSync(join(tmpdir(), 'leadfinder-client-pack-'));
try {
  execFileSync(process.execPath, [join(root, 'node_modules', 'tsup', 'dist', 'cli-default.js')], {
    cwd: here,
    env: { ...process.env, LEADFINDER_CLIENT_OUT_DIR: join(staging, 'dist') },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const manifest = {
    name: workspace.name,
    version: workspace.version,
    description: 'Typed SDK for the leadfinder web-research API: start searches, follow their event streams, read results.',
    license: rootManifest.license,
    type: 'module',
    main: './dist/index.cjs',
    module: './dist/index.js',
    types: './dist/index.d.ts',
    exports: {
      '.': {
        import: { types: './dist/index.d.ts', default: './dist/index.js' },
        require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
      },
      './package.json': './package.json',
    },
    files: ['dist', 'README.md'],
    sideEffects: false,
    // fetch, ReadableStream and AbortSignal.any (Node 20.3+); the same floor as the service.
    engines: rootManifest.engines,
    // The wire schemas are bundled; zod is what they are made of.
    dependencies: { zod: workspace.dependencies.zod },
  };
  writeFileSync(join(staging, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  copyFileSync(join(here, 'README.md'), join(staging, 'README.md'));
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', dest], { cwd: staging, encoding: 'utf8' }));
  console.log(join(dest, packed.filename));
} finally {
  rmSync(staging, { recursive: true, force: true });
}
