import { describe, expect, it } from 'vitest'
import type { SignInView } from '../../../../../src/extension/protocol/approvalView'
import { signInExpiredAtApproval, signInMismatches } from '../../../../../src/extension/background/dapp/signInOrigin'

describe('signInMismatches: a sign-in message must name the site asking for it', () => {
  it('accepts the site’s own host and URI, whatever the case and default port', () => {
    expect(signInMismatches('https://app.example.com', { domain: 'app.example.com', uri: 'https://app.example.com/login' })).toEqual([])
    expect(signInMismatches('https://app.example.com', { domain: 'APP.example.com:443' })).toEqual([])
    expect(signInMismatches('http://127.0.0.1:5173', { domain: '127.0.0.1:5173', uri: 'http://127.0.0.1:5173' })).toEqual([])
    expect(signInMismatches('https://app.example.com', { domain: 'app.example.com', scheme: 'https' })).toEqual([])
  })

  it('flags another domain, another port, a parent domain and a userinfo trick', () => {
    const site = 'https://app.example.com'
    for (const domain of ['evil.com', 'example.com', 'app.example.com:8443', 'app.example.com@evil.com', 'evil.com/app.example.com', '']) {
      expect(signInMismatches(site, { domain })).toEqual([{ field: 'domain', stated: domain, site }])
    }
  })

  it('flags a port the site does not use, on a local page', () => {
    expect(signInMismatches('http://127.0.0.1:5173', { domain: '127.0.0.1' })).toHaveLength(1)
  })

  it('flags a stated scheme that is not the site’s', () => {
    expect(signInMismatches('https://app.example.com', { domain: 'app.example.com', scheme: 'http' })).toEqual([
      { field: 'domain', stated: 'http://app.example.com', site: 'https://app.example.com' },
    ])
  })

  it('flags a URI on another origin or not a URL, alone or with the domain', () => {
    const site = 'https://app.example.com'
    expect(signInMismatches(site, { domain: 'app.example.com', uri: 'https://evil.com/login' })).toEqual([
      { field: 'uri', stated: 'https://evil.com/login', site },
    ])
    expect(signInMismatches(site, { domain: 'app.example.com', uri: 'http://app.example.com/' })).toHaveLength(1)
    expect(signInMismatches(site, { domain: 'app.example.com', uri: 'not a uri' })).toHaveLength(1)
    expect(signInMismatches(site, { domain: 'evil.com', uri: 'https://evil.com' }).map((m) => m.field)).toEqual(['domain', 'uri'])
  })
})

describe('signInExpiredAtApproval: a sign-in is not signed after the expiration time its window showed', () => {
  const view = (rows: [string, string][]): SignInView => ({
    kind: 'signIn',
    chain: 'solana',
    address: 'a',
    domain: 'd',
    statement: null,
    rows,
    resources: [],
    mismatches: [],
    text: '',
  })
  it('is null without an expiration time, before it, and for other kinds of request', () => {
    expect(signInExpiredAtApproval(view([['Nonce', 'x']]), 0)).toBeNull()
    expect(signInExpiredAtApproval(view([['Expiration Time', '2026-01-01T00:00:00Z']]), Date.parse('2025-12-31T23:59:59Z'))).toBeNull()
    expect(
      signInExpiredAtApproval({ kind: 'switchChain', from: { chainId: '0x1', name: 'a' }, to: { chainId: '0x2', name: 'b' } }, 0),
    ).toBeNull()
  })
  it('names the field and the time once it has passed', () => {
    expect(signInExpiredAtApproval(view([['Expiration Time', '2026-01-01T00:00:00Z']]), Date.parse('2026-01-01T00:00:00Z'))).toBe(
      'Sign-in message: expirationTime 2026-01-01T00:00:00Z passed before it was approved',
    )
  })
})
