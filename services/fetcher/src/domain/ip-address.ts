import { isIPv4, isIPv6 } from 'node:net';

/**
 * SSRF guard: which addresses the fetcher must never connect to. Pure (node:net only for syntax checks).
 * Refused: loopback, RFC 1918 private, link-local, CGNAT, multicast, unspecified, reserved and
 * documentation ranges, unique-local and site-local IPv6, and any IPv6 form embedding a refused IPv4
 * (IPv4-mapped, IPv4-compatible, NAT64, 6to4).
 */

function v4Octets(address: string): number[] {
  return address.split('.').map(Number);
}

function v4Refused(address: string): string | null {
  const [a, b, c] = v4Octets(address) as [number, number, number, number];
  if (a === 0) return 'unspecified';
  if (a === 10) return 'private';
  if (a === 127) return 'loopback';
  if (a === 100 && b >= 64 && b <= 127) return 'CGNAT';
  if (a === 169 && b === 254) return 'link-local';
  if (a === 172 && b >= 16 && b <= 31) return 'private';
  if (a === 192 && b === 168) return 'private';
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return 'reserved';
  if (a === 198 && (b === 18 || b === 19)) return 'reserved';
  if (a === 198 && b === 51 && c === 100) return 'reserved';
  if (a === 203 && b === 0 && c === 113) return 'reserved';
  if (a >= 224 && a <= 239) return 'multicast';
  if (a >= 240) return 'reserved';
  return null;
}

/** Eight 16-bit groups of an IPv6 address (zone id dropped, embedded dotted IPv4 expanded). */
export function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0]!.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = v4Octets(dotted[1]!) as [number, number, number, number];
    text = text.slice(0, dotted.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const h = parse(head);
  const t = parse(tail);
  const fill = tail === undefined ? [] : new Array<number>(8 - h.length - t.length).fill(0);
  return [...h, ...fill, ...t];
}

function embeddedV4(hi: number, lo: number): string {
  return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
}

function v6Refused(address: string): string | null {
  const g = ipv6Groups(address);
  if (g.length !== 8) return 'unparseable';
  const [g0, g1, g2, g3, g4, g5, g6, g7] = g as [number, number, number, number, number, number, number, number];
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroTo(8)) return 'unspecified';
  if (zeroTo(7) && g7 === 1) return 'loopback';
  if (zeroTo(5) && g5 === 0xffff) return v4Refused(embeddedV4(g6, g7)) && 'IPv4-mapped ' + v4Refused(embeddedV4(g6, g7));
  if (zeroTo(6)) return v4Refused(embeddedV4(g6, g7)) && 'IPv4-compatible ' + v4Refused(embeddedV4(g6, g7));
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    const inner = v4Refused(embeddedV4(g6, g7));
    return inner && `NAT64 ${inner}`;
  }
  if (g0 === 0x2002) {
    const inner = v4Refused(embeddedV4(g1, g2));
    return inner && `6to4 ${inner}`;
  }
  if ((g0 & 0xfe00) === 0xfc00) return 'unique-local';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xffc0) === 0xfec0) return 'site-local';
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  if (g0 === 0x2001 && g1 === 0xdb8) return 'documentation';
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return 'discard-only';
  return null;
}

/** Why an address may not be fetched (e.g. "loopback"), or null when it is a public address. */
export function refusedAddressReason(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '');
  if (isIPv4(bare)) return v4Refused(bare);
  if (isIPv6(bare)) return v6Refused(bare);
  return 'not an IP address';
}

/** True when a URL hostname is an IP literal (v4, or v6 in brackets). */
export function isIpLiteral(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return isIPv4(bare) || isIPv6(bare);
}
