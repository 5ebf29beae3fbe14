import { Kvm, type KV } from '@nats-io/kv';
import { InvalidArgumentError } from '../../errors.js';
import type { StopFlags } from '../../ports/work-queue.js';
import type { NatsWorkOptions } from './work-options.js';

/** Flags outlive any run (deadlines are far shorter) and then expire with the bucket's TTL. */
const STOP_FLAG_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Stop flags in a JetStream KV bucket keyed by run id. `wait` watches the key; the watch first delivers
 * the current value, so a flag raised before the watch started is seen too.
 */
export async function createNatsStopFlags(options: NatsWorkOptions): Promise<StopFlags> {
  const kv = await new Kvm(options.nats.js).create(options.stopBucket ?? 'leadfinder_stops', {
    ttl: STOP_FLAG_TTL_MS,
    history: 1,
  });
  return new NatsStopFlags(kv);
}

class NatsStopFlags implements StopFlags {
  private readonly closing = new AbortController();

  constructor(private readonly kv: KV) {}

  async raise(runId: string): Promise<void> {
    await this.kv.put(key(runId), 'stop');
  }

  async isRaised(runId: string): Promise<boolean> {
    const entry = await this.kv.get(key(runId));
    return entry !== null && entry.operation === 'PUT';
  }

  async wait(runId: string, signal: AbortSignal): Promise<void> {
    const stop = AbortSignal.any([signal, this.closing.signal]);
    if (stop.aborted || (await this.isRaised(runId))) return;
    const watcher = await this.kv.watch({ key: key(runId) });
    const onAbort = () => watcher.stop();
    stop.addEventListener('abort', onAbort, { once: true });
    try {
      if (stop.aborted) return;
      for await (const entry of watcher) if (entry.operation === 'PUT') return;
    } finally {
      stop.removeEventListener('abort', onAbort);
      watcher.stop();
    }
  }

  async close(): Promise<void> {
    this.closing.abort();
  }
}

function key(runId: string): string {
  if (!/^[-_=a-zA-Z0-9]+$/.test(runId)) throw new InvalidArgumentError(`invalid run id ${JSON.stringify(runId)}`, 'runId');
  return runId;
}
