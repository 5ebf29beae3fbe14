import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '@leadfinder/platform';
import { connectNats, createNatsStopFlags, type NatsHandle } from '@leadfinder/platform/nats';
import { recordSkippedSuite, serversRequired } from '@leadfinder/testkit';
import { sleep, startNatsServer, type Proc } from './distributed-harness.js';

/**
 * Stop-flag waits use a plain subscription on the key's subject (a KV watch left an ordered consumer on
 * the server per run). A plain subscription misses what is published while it is disconnected, so the
 * flag is read again after every reconnect: a stop raised while the coordinator's connection was down
 * still ends its wait. A nats-server of this test's own is restarted under it.
 */
const SUITE = 'test/e2e/stop-flags-reconnect.test.ts';
const natsBin = process.env.LEADFINDER_TEST_NATS_BIN ?? join(process.env.HOME ?? '/root', 'go', 'bin', 'nats-server');
const natsAvailable = existsSync(natsBin);
if (!natsAvailable) {
  if (serversRequired()) throw new Error(`nats-server not found at ${natsBin} (set LEADFINDER_TEST_NATS_BIN), but LEADFINDER_TEST_REQUIRE_SERVERS=1`);
  recordSkippedSuite(SUITE, 'nats');
}

describe.skipIf(!natsAvailable)('stop flags across a NATS restart', () => {
  const tmpRoot = mkdtempSync(join(tmpdir(), 'lf-stops-reconnect-'));
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    rmSync(tmpRoot, { recursive: true, force: true });
  });

  it('a stop raised while the waiter was disconnected ends its wait once it reconnects', async () => {
    const store = join(tmpRoot, 'jetstream');
    let server: Proc & { url: string } = await startNatsServer(natsBin, store);
    cleanups.push(() => server.stop(5000));
    const waiterConnection: NatsHandle = await connectNats({ url: server.url, name: 'waiter', logger: silentLogger });
    cleanups.push(() => waiterConnection.close());
    const stops = await createNatsStopFlags({ nats: waiterConnection, logger: silentLogger });
    cleanups.push(() => stops.close());

    const run = new AbortController();
    cleanups.push(async () => run.abort());
    let ended = false;
    const waiting = stops.wait('run_reconnect', run.signal).then((raised) => (ended = raised));
    await sleep(200);

    // The server goes away and comes back on the same port and store; the waiter's client retries every
    // 2 s (its default), so the raise below lands before the waiter has subscribed again.
    await server.stop(5000);
    const port = new URL(server.url).port;
    server = await restartOnPort(store, Number(port));
    const raiser = await connectNats({ url: server.url, name: 'raiser', logger: silentLogger });
    cleanups.push(() => raiser.close());
    await (await createNatsStopFlags({ nats: raiser, logger: silentLogger })).raise('run_reconnect');
    expect(ended).toBe(false);

    await Promise.race([waiting, sleep(15_000)]);
    expect(ended).toBe(true);
  }, 40_000);
});

/** startNatsServer picks a free port; a restart must reuse the old one, so the waiter's client finds it. */
async function restartOnPort(store: string, port: number): Promise<Proc & { url: string }> {
  const { spawn } = await import('node:child_process');
  const { connect } = await import('node:net');
  const child = spawn(natsBin, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', store], { stdio: 'ignore' });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => { socket.destroy(); resolve(true); });
      socket.once('error', () => resolve(false));
    });
    if (up) break;
    await sleep(100);
  }
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    name: 'nats-server (restarted)', child, url: `nats://127.0.0.1:${port}`,
    output: () => '',
    get exited() { return gone(); },
    async stop(graceMs = 5000) {
      if (gone()) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    async kill() {
      if (!gone()) child.kill('SIGKILL');
      await exited;
    },
  };
}
