#!/usr/bin/env node
// CI check: regenerates proto code into a temporary directory and fails if it differs from the
// committed services/platform/src/gen (someone edited a .proto without regenerating, or hand-edited
// generated code). Fix with: node scripts/proto-gen.mjs
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { GEN_DIR, ROOT, generate } from './proto-gen.mjs';

function files(dir) {
  const out = [];
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  try {
    walk(dir);
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
  }
  return out.sort();
}

const tmp = mkdtempSync(join(tmpdir(), 'leadfinder-proto-'));
try {
  generate(tmp);
  const fresh = join(tmp, GEN_DIR);
  const committed = join(ROOT, GEN_DIR);
  const a = files(fresh);
  const b = files(committed);
  const problems = [
    ...a.filter((f) => !b.includes(f)).map((f) => `missing: ${GEN_DIR}/${f}`),
    ...b.filter((f) => !a.includes(f)).map((f) => `unexpected: ${GEN_DIR}/${f}`),
    ...a.filter((f) => b.includes(f) && !readFileSync(join(fresh, f)).equals(readFileSync(join(committed, f)))).map((f) => `differs: ${GEN_DIR}/${f}`),
  ];
  if (problems.length > 0) {
    console.error(`generated proto code is stale:\n  ${problems.join('\n  ')}\nrun: node scripts/proto-gen.mjs`);
    process.exitCode = 1;
  } else {
    console.log(`proto check: ${a.length} generated files up to date`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
