import { describe, expect, it } from 'vitest';
import { refusedAddressReason } from './ip-address.js';

describe('address guard', () => {
  it.each([
    ['127.0.0.1', 'loopback'], ['10.1.2.3', 'private'], ['172.16.0.1', 'private'], ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'], ['169.254.169.254', 'link-local'], ['100.64.0.1', 'CGNAT'], ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'], ['255.255.255.255', 'reserved'], ['::1', 'loopback'], ['::', 'unspecified'],
    ['fe80::1%eth0', 'link-local'], ['fd12:3456::1', 'unique-local'], ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'], ['::ffff:7f00:1', 'IPv4-mapped loopback'],
    ['::ffff:192.168.0.10', 'IPv4-mapped private'], ['64:ff9b::a00:1', 'NAT64 private'], ['2002:c0a8:0101::1', '6to4 private'],
  ])('refuses %s (%s)', (address, why) => {
    expect(refusedAddressReason(address)).toBe(why);
  });

  it.each(['8.8.8.8', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'allows the public address %s',
    (address) => {
      expect(refusedAddressReason(address)).toBeNull();
    },
  );
});
