import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { refusedAddressReason } from '../../services/fetcher/src/domain/ip-address.js';
import { CHART_DIR, findHelm, recordSkippedHelmSuite, renderChart } from './helm-harness.js';

/**
 * The fetcher's NetworkPolicy and its SSRF guard must refuse the same addresses. The chart renders its
 * internet peers from charts/leadfinder/files/global-unicast.json; this test holds that list to
 * services/fetcher/src/domain/ip-address.ts address by address: every block edge, the addresses just
 * outside each edge, and many seeded random addresses must get the same verdict from both.
 */
interface Block { cidr: string; why: string }
interface Family { cidr: string; except: Block[] }
const LIST = JSON.parse(readFileSync(join(CHART_DIR, 'files', 'global-unicast.json'), 'utf8')) as { ipv4: Family; ipv6: Family };

const V4_BITS = 32n;
const V6_BITS = 128n;
const parseV4 = (text: string): bigint => text.split('.').reduce((n, o) => n * 256n + BigInt(o), 0n);
const parseV6 = (text: string): bigint => {
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const groups = (s: string | undefined) => (s ? s.split(':').map((g) => BigInt(parseInt(g, 16))) : []);
  const h = groups(head);
  const t = groups(tail);
  const all = tail === undefined ? h : [...h, ...new Array<bigint>(8 - h.length - t.length).fill(0n), ...t];
  return all.reduce((n, g) => (n << 16n) | g, 0n);
};
const formatV4 = (n: bigint) => [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 255n)).join('.');
const formatV6 = (n: bigint) => [...Array(8).keys()].map((i) => ((n >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(':');

interface Range { first: bigint; last: bigint }
function range(cidr: string, v6: boolean): Range {
  const [address, prefix] = cidr.split('/') as [string, string];
  const bits = v6 ? V6_BITS : V4_BITS;
  const size = 1n << (bits - BigInt(prefix));
  const first = v6 ? parseV6(address) : parseV4(address);
  expect(first % size, `${cidr} is not aligned to its prefix`).toBe(0n);
  return { first, last: first + size - 1n };
}
const within = (n: bigint, r: Range) => n >= r.first && n <= r.last;

function policy(family: Family, v6: boolean, drop?: string) {
  const allowed = range(family.cidr, v6);
  const excepted = family.except.filter((b) => b.cidr !== drop).map((b) => range(b.cidr, v6));
  return (n: bigint) => within(n, allowed) && !excepted.some((r) => within(n, r));
}

/** A seeded generator (mulberry32), so a failure names an address that fails again on the next run. */
function randomBits(seed: number, bits: bigint): () => bigint {
  let a = seed;
  const next32 = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return BigInt(((t ^ (t >>> 14)) >>> 0));
  };
  return () => {
    let n = 0n;
    for (let i = 0n; i < bits; i += 32n) n = (n << 32n) | next32();
    return n & ((1n << bits) - 1n);
  };
}

/** Block edges and the addresses just outside them, for every block of a family and its whole range. */
function edges(family: Family, v6: boolean, extra: string[]): bigint[] {
  const max = (1n << (v6 ? V6_BITS : V4_BITS)) - 1n;
  return [family.cidr, ...family.except.map((b) => b.cidr), ...extra]
    .map((c) => range(c, v6))
    .flatMap((r) => [r.first - 1n, r.first, r.first + 1n, (r.first + r.last) / 2n, r.last - 1n, r.last, r.last + 1n])
    .filter((n) => n >= 0n && n <= max);
}

const V4_PROBES = [
  ...edges(LIST.ipv4, false, ['1.0.0.0/8', '223.0.0.0/8', '192.0.0.0/8', '198.0.0.0/8']),
  ...[...Array(256).keys()].flatMap((o) => [BigInt(o) << 24n, (BigInt(o) << 24n) | 0xffffffn]),
  ...Array.from({ length: 50_000 }, randomBits(19, V4_BITS)),
];
const V6_PROBES = [
  ...edges(LIST.ipv6, true, ['::/8', 'fc00::/7', 'fe80::/10', 'ff00::/8', '4000::/3', '2001:db8::/32']),
  // Random addresses inside 2000::/3 (where the two must agree) and anywhere.
  ...Array.from({ length: 20_000 }, randomBits(23, 125n)).map((n) => (1n << 125n) | n),
  ...Array.from({ length: 5_000 }, randomBits(29, V6_BITS)),
];
/** Outside 2000::/3 the guard still allows IPv4-mapped and well-known NAT64 forms of a global IPv4 address. */
const EMBEDDED = [range('::ffff:0:0/96', true), range('64:ff9b::/96', true)];

const guardAllows = (text: string) => refusedAddressReason(text) === null;

describe('fetcher egress (files/global-unicast.json) and the fetcher SSRF guard', () => {
  it('agree on every IPv4 probe: block edges, both sides of every /8, 50,000 seeded random addresses', () => {
    const allows = policy(LIST.ipv4, false);
    const disagree = V4_PROBES.filter((n) => allows(n) !== guardAllows(formatV4(n))).map(formatV4);
    expect(disagree.slice(0, 10)).toEqual([]);
  });

  it('agree on every IPv6 probe; where they differ the policy is the stricter (IPv4-mapped and NAT64 forms only)', () => {
    const allows = policy(LIST.ipv6, true);
    const disagree = V6_PROBES.filter((n) => allows(n) !== guardAllows(formatV6(n)));
    const unexplained = disagree.filter((n) => allows(n) || !EMBEDDED.some((r) => within(n, r))).map(formatV6);
    expect(unexplained.slice(0, 10)).toEqual([]);
    // The embedded forms: the guard allows a global IPv4 address inside them, the policy refuses them all.
    for (const [dotted, hex] of [['::ffff:8.8.8.8', '::ffff:808:808'], ['64:ff9b::8.8.8.8', '64:ff9b::808:808']] as const) {
      expect(guardAllows(dotted)).toBe(true);
      expect(allows(parseV6(hex))).toBe(false);
    }
  });

  it('would notice any one block missing from the list (the probes are sharp enough)', () => {
    for (const [family, v6, probes, format] of [
      [LIST.ipv4, false, V4_PROBES, formatV4], [LIST.ipv6, true, V6_PROBES, formatV6],
    ] as const) {
      for (const block of family.except) {
        const allows = policy(family, v6, block.cidr);
        const noticed = probes.some((n) => allows(n) !== guardAllows(format(n)));
        expect(noticed, `${block.cidr} (${block.why}) removed unnoticed`).toBe(true);
      }
    }
  });

  it('lists each block once, each inside its family range and none inside another', () => {
    for (const [family, v6] of [[LIST.ipv4, false], [LIST.ipv6, true]] as const) {
      const all = range(family.cidr, v6);
      const blocks = family.except.map((b) => range(b.cidr, v6));
      for (const [i, b] of blocks.entries()) {
        expect(within(b.first, all) && within(b.last, all), family.except[i]!.cidr).toBe(true);
        const overlapping = blocks.filter((o, j) => j !== i && within(b.first, o));
        expect(overlapping, family.except[i]!.cidr).toEqual([]);
      }
    }
  });
});

const HELM = findHelm();
if (!HELM) recordSkippedHelmSuite('test/helm/egress-guard.test.ts');

describe.skipIf(!HELM)('fetcher NetworkPolicy as rendered', () => {
  it('excepts exactly the listed blocks, plus networkPolicy.extraExceptCIDRs sorted into their family', async () => {
    const objs = await renderChart(HELM!, ['--set', 'networkPolicy.extraExceptCIDRs={11.0.0.0/16,2600:1f00::/24}']);
    const np = objs.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'lf-leadfinder-fetcher')!;
    const blocks = np.spec.egress[1].to.map((p: { ipBlock: { cidr: string; except: string[] } }) => p.ipBlock);
    expect(blocks).toEqual([
      { cidr: LIST.ipv4.cidr, except: [...LIST.ipv4.except.map((b) => b.cidr), '11.0.0.0/16'] },
      { cidr: LIST.ipv6.cidr, except: [...LIST.ipv6.except.map((b) => b.cidr), '2600:1f00::/24'] },
    ]);
  });
});
