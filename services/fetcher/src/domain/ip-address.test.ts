import { describe, expect, it } from 'vitest';
import { refusedAddressReason } from './ip-address.js';

describe('address guard (allow list of global unicast)', () => {
  it.each([
    ['127.0.0.1', 'loopback'], ['10.1.2.3', 'private'], ['172.16.0.1', 'private'], ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'], ['169.254.169.254', 'link-local'], ['100.64.0.1', 'CGNAT'], ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'], ['224.0.0.1', 'multicast'], ['255.255.255.255', 'reserved'], ['240.0.0.1', 'reserved'],
    ['192.0.0.8', 'protocol assignment'], ['192.0.2.7', 'documentation'], ['198.18.0.1', 'benchmarking'],
    ['192.88.99.1', '6to4 relay anycast'],
    ['::1', 'loopback'], ['::', 'unspecified'],
    ['fe80::1%eth0', 'link-local'], ['fd12:3456::1', 'unique-local'], ['ff02::1', 'multicast'], ['fec0::1', 'site-local'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'], ['::ffff:7f00:1', 'IPv4-mapped loopback'],
    ['::ffff:192.168.0.10', 'IPv4-mapped private'], ['64:ff9b::a00:1', 'NAT64 private'],
    // Let through by the old deny list:
    ['64:ff9b:1::a00:1', 'local-use NAT64'], ['64:ff9b:1::808:808', 'local-use NAT64'],
    ['::ffff:0:7f00:1', 'IPv4-translated'], ['::ffff:0:a00:1', 'IPv4-translated'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'], ['2001::1', 'Teredo'],
    ['2002:c0a8:0101::1', '6to4'], ['2002:808:808::1', '6to4'],
    ['2001:db8::1', 'documentation'], ['3fff::1', 'documentation'], ['2001:10::1', 'protocol assignment'],
    ['100::1', 'not global unicast'], ['::7f00:1', 'IPv4-compatible'], ['4000::1', 'not global unicast'], ['1::1', 'not global unicast'],
    ['localhost', 'not an IP address'],
  ])('refuses %s (%s)', (address, why) => {
    expect(refusedAddressReason(address)).toBe(why);
  });

  it.each([
    '8.8.8.8', '93.184.216.34', '1.1.1.1', '172.32.0.1', '100.128.0.1', '192.88.100.1', '223.255.255.254', '[2606:4700:4700::1111]',
    '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '64:ff9b::808:808', '2001:4860:4860::8888',
  ])('allows the global unicast address %s', (address) => {
    expect(refusedAddressReason(address)).toBeNull();
  });
});
