/**
 * The OIDC verifier's key cache and fetch rules (src/service/oidc/verify.ts) against a real issuer
 * on 127.0.0.1, with the clock in the test's hands: one fetch for many tokens, a new `kid` fetched
 * again only after 30 s, everything again after 10 minutes, discovery when no JWKS URL is given,
 * one fetch for concurrent verifications, a slow issuer cut at the timeout (UNAVAILABLE), and keys
 * fetched before still used while the issuer is down.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SigilError } from '../../../src/api/errors.js'
import { type TrustedIssuer, parseOidcIssuers } from '../../../src/service/oidc/issuers.js'
import { createOidcVerifier } from '../../../src/service/oidc/verify.js'
import { startTestIssuer, type TestIssuer } from '../../helpers/oidcIssuer.js'

let idp: TestIssuer
let clock = Date.now()
const now = () => clock

beforeAll(async () => {
  idp = await startTestIssuer()
})
afterAll(() => idp.stop())

function verifier(discovery = false, timeoutMs = 300) {
  const issuers: TrustedIssuer[] = parseOidcIssuers(
    JSON.stringify([{ issuer: idp.issuer, audiences: ['app-1'], ...(discovery ? {} : { jwksUri: idp.jwksUri }) }]),
  )
  return createOidcVerifier({ issuers: () => issuers, now, timeoutMs })
}

async function failure(p: Promise<unknown>): Promise<SigilError> {
  try {
    await p
  } catch (e) {
    if (e instanceof SigilError) return e
    throw e
  }
  throw new Error('expected a refusal')
}

describe('OIDC key cache', () => {
  it('fetches once for many tokens; a new kid only after 30 s; everything again after 10 min', async () => {
    clock = Date.now()
    const v = verifier()
    const start = idp.fetches.jwks
    for (let i = 0; i < 4; i++) expect((await v.verify(await idp.sign({ sub: `u${i}` }), { field: 'f' })).sub).toBe(`u${i}`)
    expect(idp.fetches.jwks - start).toBe(1)

    await idp.rotate()
    const fresh = await idp.sign({ sub: 'after-rotation' })
    const tooSoon = await failure(v.verify(fresh, { field: 'f' }))
    expect(tooSoon.code).toBe('TOKEN_INVALID')
    expect(tooSoon.message).toContain('no key of')
    expect(idp.fetches.jwks - start).toBe(1)

    clock += 31_000
    expect((await v.verify(fresh, { field: 'f' })).sub).toBe('after-rotation')
    expect(idp.fetches.jwks - start).toBe(2)

    clock += 11 * 60_000
    // Tokens are checked against the verifier's clock: sign one valid then.
    const later = await idp.sign({ sub: 'later', iat: Math.floor(clock / 1000), exp: Math.floor(clock / 1000) + 600 })
    await v.verify(later, { field: 'f' })
    expect(idp.fetches.jwks - start).toBe(3)
  })

  it('concurrent verifications share one fetch; discovery finds the JWKS when no URL is configured', async () => {
    clock = Date.now()
    const v = verifier(true)
    const start = { jwks: idp.fetches.jwks, discovery: idp.fetches.discovery }
    const tokens = await Promise.all([1, 2, 3, 4, 5].map((i) => idp.sign({ sub: `c${i}` })))
    const out = await Promise.all(tokens.map((t) => v.verify(t, { field: 'f' })))
    expect(out.map((t) => t.sub)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5'])
    expect(idp.fetches.jwks - start.jwks).toBe(1)
    expect(idp.fetches.discovery - start.discovery).toBe(1)
  })

  it('a slow issuer is cut at the timeout with UNAVAILABLE naming the field; cached keys keep working while it is down', async () => {
    clock = Date.now()
    const slow = verifier(false, 200)
    idp.delayMs = 1500
    const started = Date.now()
    const e = await failure(slow.verify(await idp.sign({ sub: 'x' }), { field: 'parameters.oidcToken' }))
    expect(Date.now() - started).toBeLessThan(1000)
    expect(e.code).toBe('UNAVAILABLE')
    expect(e.message).toContain('parameters.oidcToken')
    // Remembered for a few seconds: the next check fails at once, without another fetch.
    const fetches = idp.fetches.jwks
    const again = Date.now()
    expect((await failure(slow.verify(await idp.sign({ sub: 'y' }), { field: 'f' }))).code).toBe('UNAVAILABLE')
    expect(Date.now() - again).toBeLessThan(100)
    idp.delayMs = 0
    clock += 6000
    expect((await slow.verify(await idp.sign({ sub: 'z' }), { field: 'f' })).sub).toBe('z')
    expect(idp.fetches.jwks).toBeGreaterThan(fetches)

    const v = verifier()
    const token = await idp.sign({ sub: 'cached' })
    await v.verify(token, { field: 'f' })
    idp.down = true
    clock += 11 * 60_000 // stale: a fetch is tried, fails, and the keys in hand still verify
    const later = await idp.sign({ sub: 'while-down', iat: Math.floor(clock / 1000), exp: Math.floor(clock / 1000) + 600 })
    expect((await v.verify(later, { field: 'f' })).sub).toBe('while-down')
    idp.down = false
  })

  it('the nonce rule: one of the accepted nonces, or TOKEN_INVALID naming the field', async () => {
    clock = Date.now()
    const v = verifier()
    const t = await idp.sign({ sub: 'n', nonce: 'abc' })
    expect((await v.verify(t, { field: 'f', nonce: ['zzz', 'abc'] })).nonce).toBe('abc')
    const e = await failure(v.verify(t, { field: 'parameters.oidcToken', nonce: 'zzz' }))
    expect(e.message).toMatch(/^parameters\.oidcToken: nonce/)
  })
})

describe('SIGIL_OIDC_ISSUERS', () => {
  it('parses entries and refuses bad ones naming the entry and field', () => {
    expect(parseOidcIssuers(undefined)).toEqual([])
    const [g] = parseOidcIssuers(JSON.stringify([{ issuer: 'https://accounts.google.com/', audiences: ['c1'], name: 'Google' }]))
    expect(g).toMatchObject({ issuer: 'https://accounts.google.com', clientId: 'c1', keys: { kind: 'discovery' }, name: 'Google' })
    expect(() => parseOidcIssuers('{')).toThrow(/JSON array/)
    expect(() => parseOidcIssuers(JSON.stringify([{ issuer: 'ftp://x', audiences: ['a'] }]))).toThrow(/\[0\.issuer\]/)
    expect(() => parseOidcIssuers(JSON.stringify([{ issuer: 'https://x', audiences: [] }]))).toThrow(/\[0\.audiences\]/)
    expect(() => parseOidcIssuers(JSON.stringify([{ issuer: 'https://x', audiences: ['a'], jwksFile: '/nonexistent/jwks.json' }]))).toThrow(
      /\[0\.jwksFile\]/,
    )
    expect(() =>
      parseOidcIssuers(
        JSON.stringify([
          { issuer: 'https://x', audiences: ['a'] },
          { issuer: 'https://x/', audiences: ['b'] },
        ]),
      ),
    ).toThrow(/listed twice/)
  })
})
