/**
 * The README's commands, run as written. Every ```sh block in README.md is preceded by a marker
 * `<!-- readme-test: … -->` that says who runs it:
 * - `run`: executed here, in README order, in one bash session (variables carry over), against the real
 *   `npm start` the first block starts. The one change made to the text: `127.0.0.1:8080` becomes a free
 *   loopback port (and the data dir and HOME are temporary). Lines `# …` are the output the block shows:
 *   they must appear, in order, in what the block printed (`…` stands for anything, and so does the number
 *   after `id:`, since ids are the event log's sequence).
 * - `ci`: commands `.ci/run` runs itself (`npm ci`, `npm test`); `npm start` is what the `run` blocks start.
 * - `covered-by <path>`: run by that test file.
 * The README's links must resolve inside the repository, and its configuration table must name every
 * variable the configuration schema reads.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clockEnv } from '@leadfinder/testkit';
import { freePort } from '../support/server-process.js';

const ROOT = process.cwd();
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

interface Block {
  marker: string;
  code: string;
}

function shellBlocks(markdown: string): { blocks: Block[]; unmarked: string[] } {
  const blocks: Block[] = [];
  const unmarked: string[] = [];
  for (const m of markdown.matchAll(/(?:<!-- readme-test: ([^>]*?) -->\n)?```(?:sh|bash|shell)\n([\s\S]*?)\n```/g)) {
    if (m[1] === undefined) unmarked.push(m[2]!.split('\n')[0]!);
    else blocks.push({ marker: m[1].trim(), code: m[2]! });
  }
  return { blocks, unmarked };
}

/** `# …` output lines of a block, as patterns. */
function expectedOutput(code: string): RegExp[] {
  return code
    .split('\n')
    .filter((line) => /^# \S/.test(line))
    .map((line) => line.slice(2))
    .map((line) => {
      const escaped = line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/…/g, '.*');
      return new RegExp(`^${escaped.replace(/^id: \d+$/, 'id: \\d+')}$`);
    });
}

/** True when every pattern matches a line of `output`, in order. */
function inOrder(patterns: RegExp[], output: string): { ok: boolean; missing?: string } {
  const lines = output.split('\n');
  let at = 0;
  for (const p of patterns) {
    while (at < lines.length && !p.test(lines[at]!)) at += 1;
    if (at >= lines.length) return { ok: false, missing: p.source };
    at += 1;
  }
  return { ok: true };
}

const { blocks, unmarked } = shellBlocks(README);
const runBlocks = blocks.filter((b) => b.marker === 'run');

describe('README', () => {
  it('marks every shell block with who runs it', () => {
    expect(unmarked).toEqual([]);
    for (const b of blocks) expect(b.marker).toMatch(/^(run|ci|covered-by \S+)$/);
    expect(runBlocks.length).toBeGreaterThanOrEqual(5);
  });

  it('points only at files inside the repository (a plain clone has no ../shared)', () => {
    expect(README).not.toContain('../shared');
    const links = [...README.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/.test(l));
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      const target = resolve(ROOT, link);
      expect({ link, inside: target.startsWith(`${ROOT}/`), exists: existsSync(target) }).toEqual({ link, inside: true, exists: true });
    }
    for (const doc of ['docs/api.md', 'docs/operator.md', 'docs/architecture.md']) {
      const text = readFileSync(join(ROOT, doc), 'utf8');
      expect(text).not.toContain('../shared');
      for (const m of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(m[1]!)) continue;
        expect(existsSync(resolve(ROOT, dirname(doc), m[1]!))).toBe(true);
      }
    }
  });

  it('names every configuration variable in its configuration table', () => {
    const schema = readFileSync(join(ROOT, 'services/platform/src/config.ts'), 'utf8');
    const variables = [...schema.matchAll(/^ {4}((?:LEADFINDER|OTEL)_[A-Z_]+|HOST|PORT):/gm)].map((m) => m[1]!);
    expect(variables.length).toBeGreaterThan(30);
    const table = README.slice(README.indexOf('## Configuration'), README.indexOf('## Running it distributed'));
    expect(variables.filter((v) => !table.includes(`\`${v}\``))).toEqual([]);
  });

  it('has CI run the commands it marks as run by CI, and the covering tests exist', () => {
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8');
    for (const b of blocks.filter((x) => x.marker === 'ci')) {
      for (const line of b.code.split('\n').map((l) => l.replace(/#.*$/, '').trim()).filter(Boolean)) {
        for (const command of line.split('&&').map((c) => c.trim())) {
          const runHere = command === 'npm start' && runBlocks.some((r) => /^npm start &$/m.test(r.code));
          expect({ command, run: runHere || ci.includes(command) }).toEqual({ command, run: true });
        }
      }
    }
    for (const b of blocks.filter((x) => x.marker.startsWith('covered-by '))) {
      const file = b.marker.slice('covered-by '.length);
      expect(existsSync(join(ROOT, file))).toBe(true);
      // The distributed block starts the roles through the npm scripts that `serve --role` them.
      const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
      for (const m of b.code.matchAll(/npm run (start:(\w+))/g)) expect(pkg.scripts[m[1]!]).toMatch(new RegExp(`serve --role ${m[2]}$`));
      if (/--role/.test(b.code) || /start:/.test(b.code)) expect(readFileSync(join(ROOT, file), 'utf8')).toMatch(/role/);
    }
  });

  it('names only npm scripts, files and bench figures that exist in the commands it mentions in prose', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const inline = [...README.matchAll(/`((?:npm|npx|node|bash) [^`]+)`/g)].map((m) => m[1]!);
    expect(inline.length).toBeGreaterThan(3);
    for (const command of inline) {
      const script = /^npm run ([\w:-]+)/.exec(command)?.[1];
      if (script) expect({ command, script: pkg.scripts[script] !== undefined }).toEqual({ command, script: true });
      const file = /^(?:node|bash) ([\w./-]+)/.exec(command)?.[1];
      if (file) expect({ command, exists: existsSync(join(ROOT, file)) }).toEqual({ command, exists: true });
      const only = /--only ([\w,]+)/.exec(command)?.[1];
      if (only) {
        const bench = readFileSync(join(ROOT, 'bench/run.ts'), 'utf8');
        const figures = new Set([...bench.matchAll(/^ {2}(\w+): \{ title:/gm)].map((m) => m[1]!));
        for (const figure of only.split(',')) expect({ figure, known: figures.has(figure) }).toEqual({ figure, known: true });
      }
    }
  });

  describe('walk-through and CLI, run as written against npm start', () => {
    const temp = mkdtempSync(join(tmpdir(), 'lf-readme-'));
    const stops: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const stop of stops) await stop();
      rmSync(temp, { recursive: true, force: true });
    });

    it('prints what the README says, block by block', async () => {
      const port = await freePort();
      const outputs = runBlocks.map((_, i) => join(temp, `block-${i}.out`));
      const script = [
        'set -eu',
        ...runBlocks.map((b, i) => `{\n${b.code.replaceAll('127.0.0.1:8080', `127.0.0.1:${port}`)}\n} > ${outputs[i]} 2>&1`),
      ].join('\n');
      const home = join(temp, 'home');
      const child = spawn('bash', ['-c', script], {
        cwd: ROOT,
        detached: true, // its own process group: npm start and everything under it stop with it
        env: {
          PATH: process.env.PATH ?? '', HOME: home, ...clockEnv(),
          PORT: String(port), LEADFINDER_DATA_DIR: join(temp, 'data'), LEADFINDER_LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
      stops.push(async () => {
        try {
          process.kill(-child.pid!, 'SIGTERM');
        } catch {
          // already gone
        }
        await exited;
        // Give npm start's node process its SIGTERM shutdown, then make sure nothing is left.
        for (let i = 0; i < 50; i += 1) {
          try {
            process.kill(-child.pid!, 0);
          } catch {
            return;
          }
          await new Promise((r) => setTimeout(r, 100));
        }
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // gone
        }
      });
      const code = await exited;
      const printed = outputs.map((file) => (existsSync(file) ? readFileSync(file, 'utf8') : '(no output)'));
      expect({ code, stderr }, printed.join('\n----\n')).toEqual({ code: 0, stderr: '' });
      runBlocks.forEach((b, i) => {
        const check = inOrder(expectedOutput(b.code), printed[i]!);
        expect(check, `block ${i + 1}:\n${b.code}\n--- printed:\n${printed[i]}`).toEqual({ ok: true });
      });
      // The CLI printed the rows as CSV, and the stop of a finished run named its end state.
      expect(printed[runBlocks.findIndex((b) => b.code.includes('npx leadfinder stop'))]).toMatch(/had already ended: done/);
    }, 180_000);
  });
});
