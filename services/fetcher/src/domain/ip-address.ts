import { isIPv4, isIPv6 } from 'node:net';

/**
 * SSRF guard: the fetcher connects only to global unicast addresses (an allow list). Pure (node:net only
 * for syntax checks).
 *
 * IPv4: 1.0.0.0–223.255.255.255, less the IANA special-purpose blocks that are not globally reachable
 * (private, loopback, link-local, CGNAT, benchmarking, documentation, protocol assignments, the 6to4
 * relay anycast). IPv6: only 2000::/3, less its special-purpose blocks (2001::/23 with Teredo,
 * documentation, 6to4), plus the two forms that reach an IPv4 address: IPv4-mapped (::ffff:0:0/96) and
 * well-known NAT64 (64:ff9b::/96), allowed when the IPv4 address inside is. Everything else (loopback,
 * unique-local, link-local, multicast, IPv4-translated ::ffff:0:0:0/96, local-use NAT64 64:ff9b:1::/48,
 * discard-only, unassigned space) is refused: new special-purpose space is refused until listed here.
 */

type Block = readonly [network: number, prefix: number, why: string];

const v4 = (text: string): number => text.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);

/** IPv4 blocks refused inside 1.0.0.0–223.255.255.255 (IANA IPv4 special-purpose registry, non-global). */
const V4_REFUSED: readonly Block[] = [
  [v4('10.0.0.0'), 8, 'private'],
  [v4('100.64.0.0'), 10, 'CGNAT'],
  [v4('127.0.0.0'), 8, 'loopback'],
  [v4('169.254.0.0'), 16, 'link-local'],
  [v4('172.16.0.0'), 12, 'private'],
  [v4('192.0.0.0'), 24, 'protocol assignment'],
  [v4('192.0.2.0'), 24, 'documentation'],
  [v4('192.88.99.0'), 24, '6to4 relay anycast'],
  [v4('192.168.0.0'), 16, 'private'],
  [v4('198.18.0.0'), 15, 'benchmarking'],
  [v4('198.51.100.0'), 24, 'documentation'],
  [v4('203.0.113.0'), 24, 'documentation'],
];

const inV4Block = (address: number, [network, prefix]: Block) =>
  Math.floor(address / 2 ** (32 - prefix)) === Math.floor(network / 2 ** (32 - prefix));

function v4Refused(address: string): string | null {
  const n = v4(address);
  if (n < v4('1.0.0.0')) return 'unspecified';
  if (n >= v4('224.0.0.0') && n < v4('240.0.0.0')) return 'multicast';
  if (n >= v4('240.0.0.0')) return 'reserved';
  return V4_REFUSED.find((block) => inV4Block(n, block))?.[2] ?? null;
}

/** Eight 16-bit groups of an IPv6 address (zone id dropped, embedded dotted IPv4 expanded). */
export function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0]!.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = v4(dotted[1]!);
    text = text.slice(0, dotted.index) + `${Math.floor(n / 65536).toString(16)}:${(n % 65536).toString(16)}`;
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
  // The two forms whose connection goes to an IPv4 address: judged by that address.
  if (zeroTo(5) && g5 === 0xffff) {
    const inner = v4Refused(embeddedV4(g6, g7));
    return inner && `IPv4-mapped ${inner}`;
  }
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    const inner = v4Refused(embeddedV4(g6, g7));
    return inner && `NAT64 ${inner}`;
  }
  // Named for the log; all of these are outside 2000::/3 and refused by the allow list anyway.
  if (zeroTo(8)) return 'unspecified';
  if (zeroTo(7) && g7 === 1) return 'loopback';
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return 'IPv4-translated';
  if (zeroTo(6)) return 'IPv4-compatible';
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return 'local-use NAT64';
  if ((g0 & 0xfe00) === 0xfc00) return 'unique-local';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xffc0) === 0xfec0) return 'site-local';
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  if ((g0 & 0xe000) !== 0x2000) return 'not global unicast';
  // Special-purpose blocks inside 2000::/3.
  if (g0 === 0x2001 && g1 === 0) return 'Teredo';
  if (g0 === 0x2001 && g1 < 0x200) return 'protocol assignment';
  if (g0 === 0x2001 && g1 === 0xdb8) return 'documentation';
  if (g0 === 0x2002) return '6to4';
  if (g0 === 0x3fff && g1 < 0x1000) return 'documentation';
  return null;
}

/** Why an address may not be fetched (e.g. "loopback"), or null when it is a global unicast address. */
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
