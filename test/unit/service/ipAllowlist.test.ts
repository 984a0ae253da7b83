/**
 * The IP allow-list's pieces without a service: CIDR parsing and matching (IPv4, IPv6, IPv4-mapped),
 * the client address behind trusted proxies, the decision of the lists, and the wire schemas.
 */
import { describe, expect, it } from 'vitest'
import { getIpAllowlist } from '../../../src/api/operations/get_ip_allowlist.js'
import { removeIpAllowlist } from '../../../src/api/operations/remove_ip_allowlist.js'
import { setIpAllowlist } from '../../../src/api/operations/set_ip_allowlist.js'
import type { SigilError } from '../../../src/api/errors.js'
import { parseOrThrow } from '../../../src/api/validation.js'
import { resolveConfig } from '../../../src/service/config.js'
import { clientAddress } from '../../../src/service/http/clientAddress.js'
import { allowedBy } from '../../../src/service/http/ipAllowlist.js'
import { cidrContains, parseAddress, parseCidr, parseCidrList } from '../../../src/service/net/cidr.js'
import type { IpAllowlistRow } from '../../../src/service/store/ipAllowlists.js'

const block = (text: string) => {
  const r = parseCidr(text)
  if (!r.ok) throw new Error(r.reason)
  return r.cidr
}
const contains = (cidr: string, address: string) => cidrContains(block(cidr), parseAddress(address)!)

describe('CIDR blocks', () => {
  it('parses IPv4 and IPv6 blocks and bare addresses, normalised', () => {
    expect(block('10.0.0.0/8').text).toBe('10.0.0.0/8')
    expect(block('2001:DB8:0:0::/32').text).toBe('2001:db8::/32')
    expect(block('203.0.113.7').text).toBe('203.0.113.7/32')
    expect(block('::1').text).toBe('::1/128')
    expect(block('0.0.0.0/0').text).toBe('0.0.0.0/0')
  })

  it('refuses what is not a block, with a reason a person can act on', () => {
    for (const bad of [
      '',
      'localhost',
      '10.0.0.300/8',
      '127.1/8',
      '010.0.0.0/8',
      '10.0.0.0/',
      '10.0.0.0/08',
      '10.0.0.0/8/8',
      'fe80::1%eth0/64',
      '10.0.0.0/-1',
    ]) {
      expect(parseCidr(bad).ok, bad).toBe(false)
    }
    expect(parseCidr('10.0.0.0/33')).toEqual({ ok: false, reason: 'the prefix length after "/" must be a whole number from 0 to 32' })
    expect(parseCidr('::/129')).toMatchObject({ ok: false, reason: expect.stringMatching(/0 to 128/) })
    expect(parseCidr('10.0.0.5/8')).toMatchObject({ ok: false, reason: expect.stringMatching(/\(the block is 10\.0\.0\.0\/8\)/) })
  })

  it('matches IPv4, IPv6 and IPv4-mapped addresses', () => {
    expect(contains('127.0.0.0/8', '127.0.0.1')).toBe(true)
    expect(contains('127.0.0.0/8', '::ffff:127.0.0.1')).toBe(true)
    expect(contains('127.0.0.0/8', '128.0.0.1')).toBe(false)
    expect(contains('203.0.113.0/24', '203.0.114.0')).toBe(false)
    expect(contains('2001:db8::/32', '2001:db8:ffff::1')).toBe(true)
    expect(contains('2001:db8::/32', '2001:db9::1')).toBe(false)
    expect(contains('::ffff:0:0/96', '198.51.100.1')).toBe(true)
    expect(contains('::1/128', '127.0.0.1')).toBe(false)
    expect(contains('0.0.0.0/0', '::1')).toBe(false)
    expect(contains('0.0.0.0/0', '8.8.8.8')).toBe(true)
  })

  it('SIGIL_TRUSTED_PROXIES: a list of blocks, a bad one refused at start naming the setting', () => {
    expect(resolveConfig({ SIGIL_TRUSTED_PROXIES: '10.0.0.0/8, ::1' }).trustedProxies?.map((c) => c.text)).toEqual([
      '10.0.0.0/8',
      '::1/128',
    ])
    expect(resolveConfig({}).trustedProxies).toEqual([])
    expect(() => resolveConfig({ SIGIL_TRUSTED_PROXIES: '10.0.0.0/8,proxy.local' })).toThrow(/SIGIL_TRUSTED_PROXIES: "proxy\.local"/)
    expect(() => parseCidrList('10.1.0.0/8', 'X')).toThrow(/X: "10\.1\.0\.0\/8" has address bits set/)
  })
})

describe('client address', () => {
  const proxies = parseCidrList('10.0.0.0/8,::1', 'test')
  const of = (peer: string | undefined, xff: string | undefined, trusted = proxies) => clientAddress(peer, xff, trusted)?.toString()

  it('is the socket peer when no proxy is trusted, whatever the header says', () => {
    expect(of('127.0.0.1', '203.0.113.7', [])).toBe('127.0.0.1')
    expect(of('::ffff:127.0.0.1', undefined, [])).toBe('::ffff:7f00:1')
    expect(of(undefined, '203.0.113.7', [])).toBeUndefined()
  })

  it('ignores the header from a peer that is not a trusted proxy', () => {
    expect(of('198.51.100.1', '203.0.113.7')).toBe('198.51.100.1')
  })

  it('reads the header from a trusted proxy, from its right end past trusted hops', () => {
    expect(of('10.1.2.3', '203.0.113.7')).toBe('203.0.113.7')
    expect(of('::1', '203.0.113.7, 10.9.9.9')).toBe('203.0.113.7')
    expect(of('10.1.2.3', '203.0.113.7, 198.51.100.1')).toBe('198.51.100.1') // a client cannot prepend an address
    expect(of('::ffff:10.0.0.1', '2001:db8::5')).toBe('2001:db8::5')
    expect(of('10.1.2.3', undefined)).toBe('10.1.2.3')
    expect(of('10.1.2.3', '10.0.0.9')).toBe('10.0.0.9') // every hop trusted: the leftmost
  })

  it('is unknown when a trusted proxy sends something unreadable', () => {
    expect(of('10.1.2.3', 'garbage')).toBeUndefined()
    expect(of('10.1.2.3', '203.0.113.7:443')).toBeUndefined()
    expect(of('10.1.2.3', Array.from({ length: 40 }, () => '10.0.0.1').join(','))).toBeUndefined()
  })
})

describe('the decision of the lists', () => {
  const row = (over: Partial<IpAllowlistRow>): IpAllowlistRow => ({
    organization_id: 'o',
    public_key: '',
    enabled: true,
    on_evaluation_error: 'DENY',
    rules: [{ cidr: '203.0.113.0/24', createdAt: 1 }],
    created_at: 1,
    updated_at: 1,
    ...over,
  })
  const at = (a: string | undefined) => (a === undefined ? undefined : parseAddress(a))

  it('nothing is enforced without an enabled organization list (API keys’ lists included)', () => {
    expect(allowedBy({ organization: undefined, key: undefined }, at('198.51.100.1'))).toBe(true)
    const key = row({ public_key: 'k', enabled: null })
    expect(allowedBy({ organization: row({ enabled: false }), key }, at('198.51.100.1'))).toBe(true)
    expect(allowedBy({ organization: undefined, key }, at('198.51.100.1'))).toBe(true)
  })

  it('an enabled list: its rules decide; an API key’s list replaces it; no rules refuse all', () => {
    expect(allowedBy({ organization: row({}), key: undefined }, at('203.0.113.9'))).toBe(true)
    expect(allowedBy({ organization: row({}), key: undefined }, at('198.51.100.1'))).toBe(false)
    const key = row({ public_key: 'k', enabled: null, rules: [{ cidr: '198.51.100.0/24', createdAt: 1 }] })
    expect(allowedBy({ organization: row({}), key }, at('198.51.100.1'))).toBe(true)
    expect(allowedBy({ organization: row({}), key }, at('203.0.113.9'))).toBe(false)
    expect(allowedBy({ organization: row({ rules: [] }), key: undefined }, at('203.0.113.9'))).toBe(false)
  })

  it('an unknown address: onEvaluationError decides', () => {
    expect(allowedBy({ organization: row({}), key: undefined }, undefined)).toBe(false)
    expect(allowedBy({ organization: row({ on_evaluation_error: 'ALLOW' }), key: undefined }, undefined)).toBe(true)
  })
})

describe('wire schemas', () => {
  const fail = (run: () => unknown): SigilError => {
    try {
      run()
    } catch (e) {
      return e as SigilError
    }
    throw new Error('expected a refusal')
  }

  it('accept what the official client sends', () => {
    expect(
      parseOrThrow(
        setIpAllowlist.parameters,
        { enabled: true, rules: [{ cidr: '10.0.0.0/8', label: 'vpn' }], onEvaluationError: 'ALLOW' },
        'parameters',
      ),
    ).toEqual({
      enabled: true,
      rules: [{ cidr: '10.0.0.0/8', label: 'vpn' }],
      onEvaluationError: 'ALLOW',
    })
    expect(parseOrThrow(removeIpAllowlist.parameters, {}, 'parameters')).toEqual({})
    expect(parseOrThrow(getIpAllowlist.request, { organizationId: 'o', publicKey: '02ab' }, '')).toEqual({
      organizationId: 'o',
      publicKey: '02ab',
    })
  })

  it('name each bad field', () => {
    const cases: Array<[unknown, string]> = [
      [{ rules: [{}] }, 'parameters.rules[0].cidr'],
      [{ rules: [{ cidr: '10.0.0.0/8', label: 'x'.repeat(257) }] }, 'parameters.rules[0].label'],
      [{ rules: Array.from({ length: 101 }, () => ({ cidr: '10.0.0.0/8' })) }, 'parameters.rules'],
      [{ enabled: 'yes' }, 'parameters.enabled'],
      [{ onEvaluationError: 'allow' }, 'parameters.onEvaluationError'],
      [{ publicKey: '' }, 'parameters.publicKey'],
    ]
    for (const [params, field] of cases) {
      const e = fail(() => parseOrThrow(setIpAllowlist.parameters, params, 'parameters'))
      expect(e.code).toBe('INVALID_ARGUMENT')
      expect(e.fieldViolations.map((v) => v.field)).toEqual([field])
    }
  })
})
