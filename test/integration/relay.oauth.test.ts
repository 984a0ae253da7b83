/**
 * The relay's OAuth paths as the hosted auth proxy has them, mounted at /auth on
 * the real service, with ID tokens of the service's dev identity provider: wallet_kit_config
 * announces the provider; /v1/account by OIDC_TOKEN finds nothing, /v1/signup_v2 with the token
 * creates the account (once: a second sign-up of the same identity is refused), /v1/account then
 * finds it, /v1/oauth_login gives a session bound to the key the nonce names. Forged tokens refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_OIDC_CLIENT_ID } from '../../src/devchain/oidcProvider.js'
import { bytesToHex } from '../../src/crypto/encoding.js'
import { verifySessionJwt } from '../../src/crypto/jwt.js'
import { oidcNonce } from '../../src/crypto/oidcNonce.js'
import { generateP256KeyPair } from '../../src/crypto/p256.js'
import { startTestService, type TestService } from './helpers/service.js'

let svc: TestService

async function relay(path: string, body: unknown) {
  const res = await fetch(`${svc.url}/auth${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: 'http://localhost:5173', 'X-Auth-Proxy-Config-ID': 'local' },
    body: JSON.stringify(body),
  })
  return { status: res.status, json: (await res.json()) as any }
}

beforeAll(async () => {
  svc = await startTestService()
})
afterAll(() => svc?.stop())

describe('relay OAuth', () => {
  it('wallet_kit_config announces the dev provider with its client id and endpoints', async () => {
    const r = await relay('/v1/wallet_kit_config', {})
    expect(r.json.enabledProviders).toContain('oauth')
    expect(r.json.oauthClientIds).toEqual({ 'Sigil dev': DEV_OIDC_CLIENT_ID })
    expect(r.json.oauthProviders[0]).toMatchObject({
      issuer: `${svc.url}/dev/oidc`,
      clientId: DEV_OIDC_CLIENT_ID,
      authorizationEndpoint: `${svc.url}/dev/oidc/authorize`,
      tokenEndpoint: `${svc.url}/dev/oidc/token`,
    })
  })

  it('account lookup → sign-up with the token → lookup finds it → oauth_login for the nonce key', async () => {
    const idp = svc.rt.devIdp!
    const email = 'lin@example.com'
    const none = await relay('/v1/account', { filterType: 'OIDC_TOKEN', filterValue: await idp.issueIdToken({ email }) })
    expect(none).toEqual({ status: 200, json: {} })

    const signup = await relay('/v1/signup_v2', {
      userName: email,
      apiKeys: [],
      authenticators: [],
      oauthProviders: [{ providerName: 'Sigil dev', oidcToken: await idp.issueIdToken({ email }) }],
    })
    expect(signup.status, JSON.stringify(signup.json)).toBe(200)
    const { organizationId, userId } = signup.json

    const again = await relay('/v1/signup_v2', {
      userName: email,
      apiKeys: [],
      authenticators: [],
      oauthProviders: [{ providerName: 'Sigil dev', oidcToken: await idp.issueIdToken({ email }) }],
    })
    expect(again.status).toBe(409)

    const found = await relay('/v1/account', { filterType: 'OIDC_TOKEN', filterValue: await idp.issueIdToken({ email }) })
    expect(found.json).toEqual({ organizationId })

    const kp = generateP256KeyPair()
    const publicKey = bytesToHex(kp.publicKey)
    const login = await relay('/v1/oauth_login', { oidcToken: await idp.issueIdToken({ email, nonce: oidcNonce(publicKey) }), publicKey })
    expect(login.status, JSON.stringify(login.json)).toBe(200)
    const v = verifySessionJwt(login.json.session, svc.rt.keys.session.publicKeyHex)
    expect(v.ok && [v.claims.user_id, v.claims.organization_id]).toEqual([userId, organizationId])

    // A token for another key, and a token of an identity without an account.
    const wrongNonce = await relay('/v1/oauth_login', { oidcToken: await idp.issueIdToken({ email, nonce: oidcNonce('02ab') }), publicKey })
    expect(wrongNonce.status).toBe(401)
    const stranger = await relay('/v1/oauth_login', {
      oidcToken: await idp.issueIdToken({ email: 'nobody@example.com', nonce: oidcNonce(publicKey) }),
      publicKey,
    })
    expect(stranger.status).toBe(404)
  })

  it('refuses forged tokens and claims-only sign-ups, creating nothing', async () => {
    const payload = Buffer.from(
      JSON.stringify({ iss: `${svc.url}/dev/oidc`, sub: 'x', aud: DEV_OIDC_CLIENT_ID, exp: 9e9, iat: 1 }),
    ).toString('base64url')
    const forged = `eyJhbGciOiJub25lIn0.${payload}.`
    const lookup = await relay('/v1/account', { filterType: 'OIDC_TOKEN', filterValue: forged })
    expect(lookup.status).toBe(401)
    const signup = await relay('/v1/signup_v2', {
      apiKeys: [],
      authenticators: [],
      oauthProviders: [{ providerName: 'x', oidcToken: forged }],
    })
    expect(signup.status).toBe(401)
    const claimsOnly = await relay('/v1/signup_v2', {
      apiKeys: [],
      authenticators: [],
      oauthProviders: [{ providerName: 'x', oidcClaims: { iss: 'a', sub: 'b', aud: 'c' } }],
    })
    expect(claimsOnly.status).toBe(400)
    expect(claimsOnly.json.message).toContain('oauthProviders[0].oidcToken')
  })
})
