import { defineConfig } from 'tsup';

/**
 * The published `leadfinder` command (client and admin commands, no `serve`): one ESM file with the SDK
 * and the wire schemas bundled in (both are private workspace packages that export TypeScript sources),
 * zod left as its one dependency. `scripts/pack.mjs` runs this with LEADFINDER_CLI_OUT_DIR.
 */
export default defineConfig({
  entry: { leadfinder: 'src/client-bin.ts' },
  format: ['esm'],
  outExtension: () => ({ js: '.mjs' }),
  outDir: process.env.LEADFINDER_CLI_OUT_DIR ?? 'dist',
  platform: 'node',
  target: 'node20',
  noExternal: ['@leadfinder/client', '@leadfinder/wire'],
  external: ['zod'],
  banner: { js: '#!/usr/bin/env node' },
  tsconfig: '../../tsconfig.base.json',
  dts: false,
  clean: true,
  sourcemap: false,
  splitting: false,
  treeshake: true,
});
