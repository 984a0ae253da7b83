import { describe, expect, it } from 'vitest'
import { classifyAddress, isLoopbackAddress, isNonPublicAddress } from '../../../src/service/net/address.js'
import { isNonPublicAddress as webhookNonPublic } from '../../../src/service/webhooks/urls.js'

// One classifier, every IPv4-in-IPv6 spelling normalised before deciding, so no
// rule lets through an address another one refuses.
const NON_PUBLIC: Array<[string, string | undefined]> = [
  // [address, the IPv4 address it carries]
  ['127.0.0.1', undefined],
  ['10.0.0.1', undefined],
  ['100.64.0.1', undefined],
  ['169.254.169.254', undefined],
  ['192.0.2.1', undefined],
  ['255.255.255.255', undefined],
  ['::1', undefined],
  ['::', undefined],
  ['::7f00:1', '127.0.0.1'], // IPv4-compatible
  ['::127.0.0.1', '127.0.0.1'],
  ['::a9fe:a9fe', '169.254.169.254'],
  ['::808:808', '8.8.8.8'], // IPv4-compatible is deprecated: refused even for a public IPv4
  ['::ffff:7f00:1', '127.0.0.1'], // IPv4-mapped
  ['::ffff:127.0.0.1', '127.0.0.1'],
  ['0:0:0:0:0:ffff:a00:1', '10.0.0.1'],
  ['::ffff:0:7f00:1', '127.0.0.1'], // SIIT
  ['::ffff:0:127.0.0.1', '127.0.0.1'],
  ['::ffff:0:808:808', '8.8.8.8'],
  ['64:ff9b::7f00:1', '127.0.0.1'], // NAT64
  ['64:ff9b::8.8.8.8', '8.8.8.8'],
  ['64:ff9b:1::a00:1', '10.0.0.1'], // local-use NAT64
  ['2002:7f00:1::1', '127.0.0.1'], // 6to4
  ['2002:a00:1::', '10.0.0.1'],
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', '127.0.0.1'], // Teredo (client inverted)
  ['2001:db8::1', undefined],
  ['3fff::1', undefined],
  ['fe80::1', undefined],
  ['fe80::1%eth0', undefined],
  ['fec0::1', undefined],
  ['fd12:3456::1', undefined],
  ['ff02::1', undefined],
  ['100::1', undefined],
  ['5f00::1', undefined],
  ['4000::1', undefined], // outside 2000::/3: not allocated as global unicast
]

describe('the address classifier', () => {
  it.each(NON_PUBLIC)('%s is not public (embeds %s)', (ip, v4) => {
    const c = classifyAddress(ip)
    expect(c).toBeDefined()
    expect(c?.public).toBe(false)
    expect(c?.embedded?.address).toBe(v4)
    expect(isNonPublicAddress(ip)).toBe(true)
    // The webhook rule is the same classifier.
    expect(webhookNonPublic(ip)).toBe(true)
  })

  it.each(['8.8.8.8', '93.184.215.14', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '2a00:1450:4001::200e', '::ffff:8.8.8.8'])(
    '%s is public',
    (ip) => {
      expect(classifyAddress(ip)?.public).toBe(true)
      expect(isNonPublicAddress(ip)).toBe(false)
      expect(webhookNonPublic(ip)).toBe(false)
    },
  )

  it('is not fooled by lenient IPv4 forms and names', () => {
    for (const s of ['127.1', '0x7f.0.0.1', '0177.0.0.1', '2130706433', 'localhost', '', 'not an ip', '[::1]']) {
      expect(classifyAddress(s), s).toBeUndefined()
      expect(isNonPublicAddress(s), s).toBe(true)
      expect(isLoopbackAddress(s), s).toBe(false)
    }
  })

  it('tells loopback peers, as a socket reports them', () => {
    for (const ip of ['127.0.0.1', '127.9.8.7', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1']) expect(isLoopbackAddress(ip), ip).toBe(true)
    // Only what this host's stack delivers to itself; the other spellings are refused as non-public instead.
    for (const ip of ['::7f00:1', '::ffff:0:7f00:1', '64:ff9b::7f00:1', '10.0.0.1', '::2', undefined])
      expect(isLoopbackAddress(ip), String(ip)).toBe(false)
  })

  it('keys per-address limits by the IPv4 address or the IPv6 /64', () => {
    expect(classifyAddress('::ffff:127.0.0.1')?.key).toBe('127.0.0.1')
    expect(classifyAddress('127.0.0.1')?.key).toBe('127.0.0.1')
    expect(classifyAddress('2001:db8:1:2:3:4:5:6')?.key).toBe('2001:db8:1:2::/64')
    expect(classifyAddress('2001:db8:1:2::9')?.key).toBe(classifyAddress('2001:db8:1:2:ffff::1')?.key)
  })
})
