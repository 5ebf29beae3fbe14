import { createHash } from 'node:crypto';

/**
 * Idempotency keys of `POST /v1/searches` (Stripe's semantics): one record per (account, key) names the
 * run the key started and the body it was started with. The record is committed by a unique insert, the
 * only write that is atomic on MongoDB and FerretDB alike (FerretDB v1 loses concurrent conditional
 * updates), so of any number of concurrent requests with one key exactly one wins the claim.
 */
export interface IdempotencyRecord {
  accountId: string;
  /** The caller's `Idempotency-Key`, as sent. */
  key: string;
  /** SHA-256 hex of the request body in canonical JSON: the same key with another body is refused. */
  fingerprint: string;
  /** The run this key starts (or started). */
  runId: string;
  createdAt: string;
  /** Epoch ms (injected clock) from which the key may start a new run. */
  expiresAt: number;
}

export type IdempotencyClaim =
  /** This record was committed: the caller starts its run. */
  | { won: true; record: IdempotencyRecord }
  /** A live record for (account, key) exists already: the caller answers from it. */
  | { won: false; record: IdempotencyRecord };

export interface IdempotencyStore {
  /** Commit `record` unless a live one (expiresAt > now) holds its (account, key); returns the one that holds. */
  claim(record: IdempotencyRecord, now: number): Promise<IdempotencyClaim>;
  /** The live record of (account, key), or null. */
  find(accountId: string, key: string, now: number): Promise<IdempotencyRecord | null>;
  /** Drop the record (matched by its run id) so the key can start a run again: its request started nothing. */
  release(record: IdempotencyRecord): Promise<void>;
  close(): Promise<void>;
}

/** (account, key) as one id; hashed so that a long key makes no long id. */
export const idempotencyScope = (accountId: string, key: string): string =>
  createHash('sha256').update(accountId).update('\0').update(key).digest('hex');
