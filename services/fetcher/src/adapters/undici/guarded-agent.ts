import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { refusedAddressReason } from '../../domain/ip-address.js';

/** Refused before any byte is sent: the host resolves to an address the fetcher must not reach. */
export class PrivateAddressError extends Error {
  override readonly name = 'PrivateAddressError';
  constructor(readonly host: string, readonly address: string, readonly why: string) {
    super(`${host} resolves to ${address} (${why}); private addresses are not fetched`);
  }
}

export interface ResolveEntry {
  host: string;
  port: number;
  address: string;
}

export interface GuardedAgentOptions {
  /** Let loopback/private addresses through (tests only). @default false */
  allowPrivate: boolean;
  /** curl --resolve style pins: connect to `address` for `host:port`, keeping the URL and Host header. */
  resolve: readonly ResolveEntry[];
  /** Connect timeout in ms. @default 10000 */
  connectTimeoutMs?: number;
}

/**
 * The address a host:port connects to: a pinned entry's address, else every address the name resolves
 * to. Either way each address is checked (a pin is configuration, but a pin to a private address is
 * still a way in), so the socket goes to an address we validated (no DNS rebinding window between check
 * and connect).
 */
export async function resolveChecked(
  hostname: string,
  port: number,
  options: Pick<GuardedAgentOptions, 'allowPrivate' | 'resolve'>,
): Promise<string> {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const pinned = options.resolve.find((r) => r.host === host && r.port === port);
  const addresses = pinned ? [pinned.address] : isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  if (addresses.length === 0) throw new Error(`${host} did not resolve`);
  if (!options.allowPrivate) {
    // Refuse when any record is private: mixing a public and a private record is a known SSRF trick.
    for (const address of addresses) {
      const why = refusedAddressReason(address);
      if (why) throw new PrivateAddressError(host, address, why);
    }
  }
  return addresses[0]!;
}

/** An undici Agent whose every connection goes to a checked (or pinned) address. */
export function createGuardedAgent(options: GuardedAgentOptions): Agent {
  const connector = buildConnector({ timeout: options.connectTimeoutMs ?? 10_000 });
  return new Agent({
    connect(opts, callback) {
      const port = Number(opts.port) || (opts.protocol === 'https:' ? 443 : 80);
      resolveChecked(opts.hostname, port, options).then(
        (address) => {
          const servername = opts.servername ?? (isIP(opts.hostname) ? undefined : opts.hostname);
          connector({ ...opts, hostname: address, ...(servername ? { servername } : {}) }, callback);
        },
        (err: Error) => callback(err, null),
      );
    },
  });
}
