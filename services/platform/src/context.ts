import { randomBytes } from 'node:crypto';
import type { Logger } from './logger.js';

/** Time, injectable so lease, deadline and backoff logic can run on fake time in tests. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}
export const systemClock: Clock = { now: () => Date.now() };

/** Identifier generation, injectable for deterministic tests. */
export interface Ids {
  /** 32 lowercase hex characters (run ids). */
  runId(): string;
  /** A short opaque id for keys, accounts, ledger entries. */
  id(prefix: string): string;
}
export const randomIds: Ids = {
  runId: () => randomBytes(16).toString('hex'),
  id: (prefix) => `${prefix}_${randomBytes(12).toString('hex')}`,
};

/** Cross-cutting resources handed to every component together. */
export interface ServiceContext {
  logger: Logger;
  clock: Clock;
  ids: Ids;
}

/** Resolves after `ms`, or rejects early when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
