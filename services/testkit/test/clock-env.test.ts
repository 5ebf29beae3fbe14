import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockEnv, recordSkippedSuite, toolPath } from '../src/index.js';

const faketime = toolPath('faketime');
if (!faketime) recordSkippedSuite('services/testkit/test/clock-env.test.ts (a moved clock in child processes)', 'faketime');

/**
 * What the moved-clock rounds of CI rely on: a child started with a clean environment plus clockEnv()
 * sees the moved date, and a shell among them can run `$(…)` and then start more programs. The second
 * failed once in CI (libfaketime exited 1 in a README block's curl) when each child made its own
 * semaphore and a forked subshell removed it on exit.
 */
describe.skipIf(!faketime)('clockEnv under libfaketime', () => {
  // A process under `faketime +45d`, as the test runner is in CI's later rounds; its environment is
  // the one clockEnv() reads there. The wrapper keeps the run's semaphore until it exits.
  let wrapper: ChildProcess;
  let sleeper = '';
  let fakedEnv: NodeJS.ProcessEnv;
  beforeAll(async () => {
    wrapper = spawn(faketime!, ['-f', '+45d', 'sleep', '60'], {
      env: { PATH: process.env.PATH ?? '', FAKETIME_DONT_FAKE_MONOTONIC: '1' },
      stdio: 'ignore',
    });
    for (let i = 0; i < 100 && !/^\d+$/.test(sleeper); i += 1) {
      await new Promise((r) => setTimeout(r, 50));
      sleeper = spawnSync('pgrep', ['-P', String(wrapper.pid)], { encoding: 'utf8' }).stdout.trim();
    }
    fakedEnv = Object.fromEntries(
      readFileSync(`/proc/${sleeper}/environ`, 'utf8')
        .split('\0')
        .filter(Boolean)
        .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
    );
  });
  afterAll(async () => {
    // Ends the wrapper's program, not the wrapper: a wrapper killed by a signal leaves its semaphore behind.
    const exited = new Promise((done) => wrapper.once('exit', done));
    if (/^\d+$/.test(sleeper)) process.kill(Number(sleeper), 'SIGTERM');
    else wrapper.kill('SIGTERM');
    await exited;
  });

  const shell = (script: string) => {
    // stdin not a socket: bash would read ~/.bashrc as if started by sshd.
    const env = { PATH: process.env.PATH ?? '', ...clockEnv(fakedEnv) };
    const r = spawnSync('bash', ['-c', script], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return `${r.stdout}${r.stderr}exit ${r.status}`;
  };

  it('gives a shell and what it starts the moved date', () => {
    // The date the wrapper's own process sees (this test may itself run under a moved clock).
    const expected = spawnSync(faketime!, ['-f', '+45d', 'date', '-u', '+%F'], { env: { PATH: process.env.PATH ?? '' }, encoding: 'utf8' }).stdout.trim();
    expect(expected).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(shell('date -u +%F')).toBe(`${expected}\nexit 0`);
  });

  it("keeps the run's clock semaphore through a command substitution, so the next program can start", () => {
    const script = 'x=$(true); s=${FAKETIME_SHARED%% *}; test -e "/dev/shm/sem.${s#/}" && echo kept || echo lost';
    expect(shell(script)).toBe('kept\nexit 0');
  });
});
