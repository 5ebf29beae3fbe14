import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { KeyDoc, KeyStore } from '@leadfinder/platform';

/**
 * API keys: `lf_live_` + 40 base62 characters. Only the SHA-256 of the whole key is stored; the first 12
 * characters (`lf_live_` + 4) are kept in clear for display and lookup.
 */
export const API_KEY_PREFIX = 'lf_live_';
const BODY_LENGTH = 40;
const PREFIX_LENGTH = API_KEY_PREFIX.length + 4;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${BODY_LENGTH}}$`);

export function generateApiKey(): string {
  let body = '';
  // randomInt is uniform (no modulo bias), unlike reducing random bytes mod 62.
  for (let i = 0; i < BODY_LENGTH; i++) body += BASE62[randomInt(BASE62.length)];
  return API_KEY_PREFIX + body;
}

export function isApiKeyShaped(value: string): boolean {
  return KEY_PATTERN.test(value);
}

export function keyPrefix(key: string): string {
  return key.slice(0, PREFIX_LENGTH);
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** A new key document plus the key itself (shown once, never stored). */
export function newKeyDoc(input: { id: string; accountId: string; name: string; now: string }): { doc: KeyDoc; key: string } {
  const key = generateApiKey();
  return {
    key,
    doc: {
      id: input.id,
      accountId: input.accountId,
      name: input.name,
      prefix: keyPrefix(key),
      hash: hashKey(key),
      createdAt: input.now,
      lastUsedAt: null,
      revokedAt: null,
    },
  };
}

/** The live key matching `key`, by prefix lookup then a constant-time comparison of the hashes. */
export async function findKey(keys: KeyStore, key: string): Promise<KeyDoc | null> {
  if (!isApiKeyShaped(key)) return null;
  const wanted = Buffer.from(hashKey(key), 'hex');
  for (const doc of await keys.findByPrefix(keyPrefix(key))) {
    const stored = Buffer.from(doc.hash, 'hex');
    if (stored.length === wanted.length && timingSafeEqual(stored, wanted) && doc.revokedAt === null) return doc;
  }
  return null;
}
