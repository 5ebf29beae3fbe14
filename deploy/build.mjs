#!/usr/bin/env node
// Compiles the service into plain JavaScript for the image: one ES module, dist/leadfinder.mjs, with the
// workspace packages (@leadfinder/*, TypeScript sources) and most third-party packages bundled in; the few
// that must load from their own folder (LEFT_TO_NODE_MODULES) stay imports of node_modules (installed with
// `npm ci --omit=dev`). The web page's static files are copied beside it, where
// services/edge/src/web/index.ts looks for them (./static/ next to the module).
// Run from anywhere: node deploy/build.mjs [outdir]   (default: dist/ at the repository root)
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Third-party packages bundled as a CommonJS `require` of node_modules, which runs when the importing
 * module is first initialised, not as a static import: a static import of an external is hoisted to the
 * top of the bundle and loads before any code runs. For two reasons:
 * - an OpenTelemetry instrumentation patches them as they load (require-in-the-middle): the sources import
 *   them only after startTelemetry has enabled it (serve/adapters.ts imports the MongoDB adapter lazily);
 *   hoisted, they would load unpatched (no MongoDB spans from the image);
 * - the filter's language and place data (about a second of start-up) are needed only by the processes
 *   that run the filter, which serve/research.ts imports when it creates one: not by an edge or a fetcher.
 */
const LOADED_ON_FIRST_USE = new Set([
  'mongodb',
  'compromise', 'chrono-node', 'country-state-city', 'countries-list', 'world-countries', 'stemmer',
]);
const loadedOnFirstUse = {
  name: 'loaded-on-first-use',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (LOADED_ON_FIRST_USE.has(packageOf(args.path)) && args.kind === 'import-statement'
      ? { path: args.path, namespace: 'loaded-on-first-use' }
      : undefined));
    b.onLoad({ filter: /.*/, namespace: 'loaded-on-first-use' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

/**
 * Third-party packages the image leaves to node_modules; every other one is compiled into the bundle. A
 * process then reads and compiles one file instead of resolving and reading about 2,000 (11,000 `stat`
 * calls): 0.5 CPU-seconds less to load the modules, about 0.35 less per start of `serve` (measured on this
 * machine, 2026-11-26). Left out, and why:
 * - the packages loaded on first use (above): mongodb is patched by its instrumentation as it loads, and
 *   the filter's data loads only in the processes that run the filter;
 * - pino runs its transports in worker threads from files beside its module;
 * - @grpc/grpc-js and grpc-health-check read .proto files beside their modules;
 * - debug tries to require supports-color, which only the devDependencies bring here: compiled in, the tests'
 *   bundle would carry it and the image's (built without devDependencies) would not.
 */
const LEFT_TO_NODE_MODULES = new Set([...LOADED_ON_FIRST_USE, 'pino', '@grpc/grpc-js', 'grpc-health-check', 'debug']);

/** The package a bare import names: `@scope/name` or `name`, without a subpath. */
const packageOf = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);

/** A file's package as package-lock.json names it: node_modules/<name>, or a copy nested under another package. */
const lockPathOf = (file) => relative(root, file).split(sep).join('/')
  .match(/^(node_modules\/(?:.*\/node_modules\/)?(?:@[^/]+\/)?[^/]+)\//)?.[1];

/** For the image: Node built-ins and LEFT_TO_NODE_MODULES stay runtime imports; the rest is compiled in. */
const bundleThirdParty = {
  name: 'bundle-third-party',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('node:') || builtinModules.includes(args.path) || LEFT_TO_NODE_MODULES.has(packageOf(args.path))
      ? { path: args.path, external: true }
      : undefined));
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
 * The filter's gazetteer tables (services/filter/src/domain/gazetteer-index.ts), written beside the module
 * from the installed data packages, where a process reads them instead of building them (about 0.6
 * CPU-seconds less per start of a process that runs the filter). The module is compiled on its own to a
 * file in `outdir` (so its imports resolve in the same node_modules as the bundle's), run, and removed.
 */
async function writeGazetteerIndex(outdir) {
  const writer = join(outdir, '.gazetteer-index-writer.mjs');
  await build({
    entryPoints: [join(root, 'services', 'filter', 'src', 'domain', 'gazetteer-index.ts')],
    outfile: writer,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    plugins: [thirdPartyExternal],
    logLevel: 'warning',
  });
  try {
    const { writeGazetteerIndex: write, GAZETTEER_INDEX_FILE } = await import(pathToFileURL(writer).href);
    write(join(outdir, GAZETTEER_INDEX_FILE));
  } finally {
    rmSync(writer, { force: true });
  }
}

/**
 * Builds into `outdir` (emptied first). Returns the third-party imports the bundle leaves to node_modules,
 * also written to externals.json beside it; the third-party packages compiled in are written to
 * bundled-packages.json (their package-lock.json paths). A test holds both to the production dependencies (the image installs no other).
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
    // Stack traces need the mappings only; the sources' text would make the map 15 MB.
    sourcesContent: false,
    metafile: true,
    plugins: [loadedOnFirstUse, bundleThirdParty],
    // `require` for the packages bundled as a CommonJS require (LOADED_ON_FIRST_USE).
    banner: { js: "#!/usr/bin/env node\nimport { createRequire as __leadfinderCreateRequire } from 'node:module';\nconst require = __leadfinderCreateRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  cpSync(join(root, 'services', 'edge', 'src', 'web', 'static'), join(outdir, 'static'), { recursive: true });
  await writeGazetteerIndex(outdir);
  const externals = [...new Set(Object.values(result.metafile.outputs)
    .flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path)))].sort();
  writeFileSync(join(outdir, 'externals.json'), JSON.stringify(externals, null, 2) + '\n');
  // The metafile names inputs relative to the working directory (esbuild's default), not to the repository.
  const bundled = [...new Set(Object.keys(result.metafile.inputs)
    .map((input) => lockPathOf(resolve(input)))
    .filter((path) => path !== undefined))].sort();
  writeFileSync(join(outdir, 'bundled-packages.json'), JSON.stringify(bundled, null, 2) + '\n');
  return externals;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outdir = resolve(process.argv[2] ?? join(root, 'dist'));
  await buildImage(outdir);
  console.log(`built ${join(outdir, 'leadfinder.mjs')}`);
}
