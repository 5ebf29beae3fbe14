#!/usr/bin/env node
// Compiles the service into plain JavaScript for the image: one ES module, dist/leadfinder.mjs, with the
// workspace packages (@leadfinder/*, TypeScript sources) bundled in and every third-party package left as
// an import of node_modules (installed with `npm ci --omit=dev`). The web page's static files are copied
// beside it, where services/edge/src/web/index.ts looks for them (./static/ next to the module).
// Run from anywhere: node deploy/build.mjs [outdir]   (default: dist/ at the repository root)
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Third-party packages an OpenTelemetry instrumentation patches as they load (require-in-the-middle):
 * the sources import them only after startTelemetry has enabled it (serve/adapters.ts imports the
 * MongoDB adapter lazily). A static import of an external would be hoisted to the top of the bundle and
 * load before any code runs, unpatched (no MongoDB spans from the image). Bundled instead as a CommonJS
 * `require` of node_modules, which runs when the importing module is first initialised.
 */
const LOADED_AFTER_TELEMETRY = new Set(['mongodb']);
const loadedAfterTelemetry = {
  name: 'loaded-after-telemetry',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (LOADED_AFTER_TELEMETRY.has(args.path) && args.kind === 'import-statement'
      ? { path: args.path, namespace: 'loaded-after-telemetry' }
      : undefined));
    b.onLoad({ filter: /.*/, namespace: 'loaded-after-telemetry' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

/** Workspace packages are compiled in; any other bare import stays a runtime import of node_modules. */
const thirdPartyExternal = {
  name: 'third-party-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@leadfinder/') ? undefined : { path: args.path, external: true }));
  },
};

/**
 * Builds into `outdir` (emptied first). Returns the third-party imports the bundle leaves to node_modules,
 * also written to externals.json beside it, so a test can hold them to the production dependencies.
 */
export async function buildImage(outdir) {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    entryPoints: [join(root, 'services', 'cli', 'src', 'bin.ts')],
    outfile: join(outdir, 'leadfinder.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    metafile: true,
    plugins: [loadedAfterTelemetry, thirdPartyExternal],
    // `require` for the packages bundled as a CommonJS require (LOADED_AFTER_TELEMETRY).
    banner: { js: "#!/usr/bin/env node\nimport { createRequire as __leadfinderCreateRequire } from 'node:module';\nconst require = __leadfinderCreateRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  cpSync(join(root, 'services', 'edge', 'src', 'web', 'static'), join(outdir, 'static'), { recursive: true });
  const externals = [...new Set(Object.values(result.metafile.outputs)
    .flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path)))].sort();
  writeFileSync(join(outdir, 'externals.json'), JSON.stringify(externals, null, 2) + '\n');
  return externals;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outdir = resolve(process.argv[2] ?? join(root, 'dist'));
  await buildImage(outdir);
  console.log(`built ${join(outdir, 'leadfinder.mjs')}`);
}
