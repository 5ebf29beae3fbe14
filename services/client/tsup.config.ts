import { defineConfig } from 'tsup';

/**
 * The published build of @leadfinder/client: ESM and CJS with their .d.ts, for Node 20. The repository's
 * private wire package (the zod schemas shared with the server) is bundled in, code and types (see
 * src/wire.ts), so the only runtime dependency left is zod. `scripts/pack.mjs` runs this with LEADFINDER_CLIENT_OUT_DIR.
 */
export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  outDir: process.env.LEADFINDER_CLIENT_OUT_DIR ?? 'dist',
  platform: 'node',
  target: 'node20',
  external: ['zod'],
  // src/wire.ts reaches the wire sources by relative path, so their code and types are bundled.
  dts: { compilerOptions: { allowImportingTsExtensions: false, noEmit: false } },
  tsconfig: '../../tsconfig.base.json',
  clean: true,
  sourcemap: false,
  splitting: false,
  treeshake: true,
});
