// The address a client is counted under (issue 13): IPv4 as is, IPv6 by its /64.
import { describe, expect, it } from 'vitest'
import { addressKey } from '../src/limits.ts'

describe('addressKey', () => {
  it('an IPv4 address is its own key, also written as IPv4-mapped IPv6', () => {
    expect(addressKey('203.0.113.5')).toBe('203.0.113.5')
    expect(addressKey('::ffff:203.0.113.5')).toBe('203.0.113.5')
    expect(addressKey('::FFFF:203.0.113.5')).toBe('203.0.113.5')
    expect(addressKey('203.0.113.6')).not.toBe(addressKey('203.0.113.5'))
  })

  it('IPv6 addresses of one /64 share a key, however they are written', () => {
    const key = addressKey('2001:db8:1:2:3:4:5:6')
    expect(key).toBe('2001:db8:1:2::/64')
    for (const same of [
      '2001:db8:1:2::1',
      '2001:db8:1:2:ffff::9',
      '2001:0db8:0001:0002:0000:0000:0000:0001',
      '2001:DB8:1:2::ABCD',
      '2001:db8:1:2::1%eth0',
    ])
      expect(addressKey(same), same).toBe(key)
  })

  it('another /64 is another key; :: shorthand at either end expands', () => {
    expect(addressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64')
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(addressKey('::1')).toBe('0:0:0:0::/64')
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
    expect(addressKey('2001:db8:1:2::')).toBe('2001:db8:1:2::/64')
  })

  it('something that is no address is counted as it is', () => {
    expect(addressKey('unknown')).toBe('unknown')
  })
})
