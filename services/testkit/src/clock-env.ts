/**
 * The environment that carries the test runner's clock into a child process. CI runs the suites again
 * with the wall clock moved ahead by libfaketime (LD_PRELOAD + FAKETIME); a server a test starts must see
 * the same date as the test that reads its answers, so every spawn with a clean environment adds these.
 *
 * FAKETIME_SHARED names the semaphore the `faketime` wrapper made for the whole run. Without it, each
 * child makes its own, and a forked copy of that child (a shell's `$(…)`) removes it on exit; the next
 * program the shell starts then fails to open it and libfaketime exits 1 when it cannot make another.
 *
 * @example
 * spawn(process.execPath, [bin], { env: { PATH: process.env.PATH ?? '', ...clockEnv() } });
 */
const CLOCK_VARIABLES = [
  'LD_PRELOAD',
  'FAKETIME',
  'FAKETIME_DONT_FAKE_MONOTONIC',
  'FAKETIME_NO_CACHE',
  'FAKETIME_SHARED',
] as const;

export function clockEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of CLOCK_VARIABLES) {
    const value = env[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/**
 * `env` without the clock variables, for a program that cannot run under libfaketime: Chromium's zygote
 * dies under it. Such a program keeps the real clock; tests that drive it must not depend on its date.
 */
export function withoutClockEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !(CLOCK_VARIABLES as readonly string[]).includes(name)) out[name] = value;
  }
  return out;
}
