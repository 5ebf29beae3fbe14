import { Kvm, type KV } from '@nats-io/kv';
import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import { sleep } from '../../context.js';
import { InvalidArgumentError } from '../../errors.js';
import type { StopFlags } from '../../ports/work-queue.js';
import type { NatsWorkOptions } from './work-options.js';

/** Flags outlive any run (deadlines are far shorter) and then expire with the bucket's TTL. */
const STOP_FLAG_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Stop flags in a JetStream KV bucket keyed by run id.
 *
 * `wait` does not use a KV watch: each watch is an ordered consumer on the server, which outlives the
 * watch by its inactivity threshold (minutes), so a busy coordinator left hundreds behind (issue 22).
 * A put to a key is also published on the key's subject (`$KV.<bucket>.<key>`), so a plain subscription
 * sees every raise without creating anything on the server; the current value is read once the
 * subscription is registered (a flag raised before the wait began), and again after every reconnect (a
 * raise published while disconnected is not redelivered to a plain subscription).
 */
export async function createNatsStopFlags(options: NatsWorkOptions): Promise<StopFlags> {
  const bucket = options.stopBucket ?? 'leadfinder_stops';
  const kv = await new Kvm(options.nats.js).create(bucket, { ttl: STOP_FLAG_TTL_MS, history: 1 });
  return new NatsStopFlags(kv, options.nats.nc, bucket);
}

class NatsStopFlags implements StopFlags {
  private readonly closing = new AbortController();
  /** Waits in progress, each told to read its flag again after a reconnect. */
  private readonly waiters = new Set<() => Promise<void>>();

  constructor(private readonly kv: KV, private readonly nc: NatsConnection, private readonly bucket: string) {
    void this.recheckOnReconnect();
  }

  async raise(runId: string): Promise<void> {
    await this.kv.put(key(runId), 'stop');
  }

  async isRaised(runId: string): Promise<boolean> {
    const entry = await this.kv.get(key(runId));
    return entry !== null && entry.operation === 'PUT';
  }

  async wait(runId: string, signal: AbortSignal): Promise<boolean> {
    const stop = AbortSignal.any([signal, this.closing.signal]);
    if (stop.aborted) return false;
    const sub: Subscription = this.nc.subscribe(`$KV.${this.bucket}.${key(runId)}`);
    let settled = false;
    const raised = new Promise<boolean>((resolve) => {
      // The current value, read until a read succeeds or the wait ends: a failed read could be the raise.
      const check = async () => {
        for (let pauseMs = 50; !stop.aborted && !settled; pauseMs = Math.min(2 * pauseMs, 1000)) {
          try {
            if (await this.isRaised(runId)) resolve(true);
            return;
          } catch {
            await sleep(pauseMs, stop).catch(() => undefined);
          }
        }
      };
      this.waiters.add(check);
      void sub.closed.finally(() => this.waiters.delete(check));
      // The message is the proof: core delivery can run ahead of the stream's write, so a read made on
      // receiving it may not find the flag yet.
      void (async () => {
        for await (const msg of sub) if (isPut(msg)) return resolve(true);
      })().catch(() => undefined);
      // Registered with the server before the value is read, so no raise falls between the two.
      this.nc.flush().then(check, () => undefined);
    });
    const aborted = new Promise<boolean>((resolve) => stop.addEventListener('abort', () => resolve(false), { once: true }));
    try {
      return await Promise.race([raised, aborted]);
    } finally {
      settled = true;
      sub.unsubscribe();
    }
  }

  async close(): Promise<void> {
    this.closing.abort();
  }

  private async recheckOnReconnect(): Promise<void> {
    const statuses = this.nc.status();
    this.closing.signal.addEventListener('abort', () => (statuses as { stop?: () => void }).stop?.(), { once: true });
    for await (const status of statuses) {
      if (this.closing.signal.aborted) return;
      if (status.type === 'reconnect') for (const check of this.waiters) void check();
    }
  }
}

/** A put carries no operation header (or `PUT`); deletes and purges say `DEL` / `PURGE`. */
function isPut(msg: Msg): boolean {
  const op = msg.headers?.get('KV-Operation') ?? '';
  return op === '' || op === 'PUT';
}

function key(runId: string): string {
  if (!/^[-_=a-zA-Z0-9]+$/.test(runId)) throw new InvalidArgumentError(`invalid run id ${JSON.stringify(runId)}`, 'runId');
  return runId;
}
