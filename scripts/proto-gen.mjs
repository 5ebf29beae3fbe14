#!/usr/bin/env node
// Regenerates the TypeScript for proto/ into services/platform/src/gen (ts-proto, options in buf.gen.yaml).
//   node scripts/proto-gen.mjs            lint, then generate in place
//   node scripts/proto-gen.mjs --out DIR  generate under DIR instead (used by proto-check.mjs)
// Runs buf from node_modules, from the repository root, so it works from any directory.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const GEN_DIR = 'services/platform/src/gen';
const BUF = join(ROOT, 'node_modules', '.bin', 'buf');

function buf(args) {
  const result = spawnSync(BUF, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.error) throw result.error;
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Generates into `outRoot` (default: the repository itself). */
export function generate(outRoot) {
  if (!existsSync(BUF)) {
    console.error('buf not found in node_modules/.bin: run npm ci first');
    process.exit(1);
  }
  buf(['lint']);
  buf(outRoot ? ['generate', '-o', outRoot] : ['generate']);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--out');
  const out = at > 0 ? process.argv[at + 1] : undefined;
  generate(out ? resolve(out) : undefined);
  console.log(`generated ${out ? join(resolve(out), GEN_DIR) : GEN_DIR}`);
}
