#!/usr/bin/env node
// `npm test`: typecheck, lint (TypeScript and proto), generated-code check, import circles, then every vitest suite. Suites that need a real server (MongoDB-wire,
// NATS JetStream, helm) run when `.ci/run` has started them (or Docker is reachable); otherwise they are
// skipped and named loudly at the end with the one command that runs them.
import { Buffer } from 'node:buffer';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, mkdirSync } from 'node:fs';

const artifacts = 'test-artifacts';
mkdirSync(artifacts, { recursive: true });
rmSync(`${artifacts}/skipped-suites.jsonl`, { force: true });
rmSync(`${artifacts}/vitest.json`, { force: true });

function step(title, cmd, args) {
  process.stdout.write(`\n▶ ${title}\n`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  return r.status ?? 1;
}

/**
 * Runs the steps at once (each is one process, mostly on one core; the machine may have more), and prints
 * each step's title and output in the given order as it ends, so the log reads as if they ran in turn.
 * Resolves with the steps' exit statuses.
 */
async function concurrentSteps(steps) {
  const running = steps.map(([title, cmd, args]) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    const chunks = [];
    child.stdout.on('data', (d) => chunks.push(d));
    child.stderr.on('data', (d) => chunks.push(d));
    const status = new Promise((resolve) => {
      child.once('error', (error) => { chunks.push(Buffer.from(`${error.message}\n`)); resolve(1); });
      child.once('close', (code) => resolve(code ?? 1));
    });
    return { title, chunks, status };
  });
  const statuses = [];
  for (const { title, chunks, status } of running) {
    const code = await status;
    process.stdout.write(`\n▶ ${title}\n`);
    process.stdout.write(Buffer.concat(chunks));
    statuses.push(code);
  }
  return statuses;
}

// `--tests-only` skips the static checks (CI's repeat runs under a moved clock); other arguments go to vitest.
const args = process.argv.slice(2);
const testsOnly = args.includes('--tests-only');
const vitestArgs = args.filter((a) => a !== '--tests-only');

let failed = false;
if (!testsOnly) {
  // The static checks read the sources only, so they run at once: tsc and eslint alone take a core each.
  const statuses = await concurrentSteps([
    ['typecheck (tsc --noEmit)', 'npx', ['tsc', '-p', 'tsconfig.json']],
    ['lint (eslint)', 'npx', ['eslint', '.', '--max-warnings=0']],
    ['proto lint (buf)', 'npx', ['buf', 'lint']],
    ['generated proto code is current', 'node', ['scripts/proto-check.mjs']],
    ['no import circles (madge)', 'npx', ['madge', '--circular', '--extensions', 'ts', '--ts-config', 'tsconfig.json', 'services']],
  ]);
  if (statuses.some((status) => status !== 0)) failed = true;
}
const vitestStatus = step(`tests (vitest)${testsOnly ? `, clock ${new Date().toISOString().slice(0, 10)}` : ''}`, 'npx', [
  'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${artifacts}/vitest.json`,
  ...vitestArgs,
]);
if (vitestStatus !== 0) failed = true;

let summary = null;
try {
  const r = JSON.parse(readFileSync(`${artifacts}/vitest.json`, 'utf8'));
  summary = { passed: r.numPassedTests, failed: r.numFailedTests, skipped: r.numPendingTests + (r.numTodoTests ?? 0) };
} catch {
  // vitest did not write its report (it crashed); the exit status already says so.
}

if (existsSync(`${artifacts}/skipped-suites.jsonl`)) {
  const rows = readFileSync(`${artifacts}/skipped-suites.jsonl`, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const unique = [...new Map(rows.map((r) => [r.suite, r])).values()];
  const bar = '!'.repeat(78);
  console.log(`\n${bar}\n!! ${unique.length} SUITE(S) COULD NOT RUN: no real server was available for them\n${bar}`);
  for (const r of unique) console.log(`!!   - ${r.suite}  (needs ${r.kind}: set ${r.env})`);
  console.log(`!! Run every suite on real servers with:  bash .ci/run\n${bar}`);
}

if (summary) console.log(`\ntests: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`);
process.exit(failed ? 1 : 0);
