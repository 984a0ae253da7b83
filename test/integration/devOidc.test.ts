/**
 * The development identity provider under /dev/oidc, over HTTP as a browser and
 * the extension use it: discovery, JWKS, the authorize page (a person types an email), the code
 * redirect with state, the PKCE token exchange, and an ID token the service trusts (oauth_login
 * through @turnkey/http). Refusals: wrong verifier, reused code, unknown client, bad redirect.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_OIDC_CLIENT_ID, devSubject } from '../../src/devchain/oidcProvider.js'
import { base64UrlEncode, bytesToHex, utf8Encode } from '../../src/crypto/encoding.js'
import { oidcNonce } from '../../src/crypto/oidcNonce.js'
import { generateP256KeyPair } from '../../src/crypto/p256.js'
import { adminTurnkeyClient, startTestService, type TestService } from './helpers/service.js'

let svc: TestService
let issuer: string
const REDIRECT = 'https://abcdefghijklmnop.chromiumapp.org/oidc'

beforeAll(async () => {
  svc = await startTestService()
  issuer = `${svc.url}/dev/oidc`
})
afterAll(() => svc?.stop())

function pkce() {
  const verifier = base64UrlEncode(crypto.getRandomValues(new Uint8Array(32)))
  return { verifier, challenge: base64UrlEncode(sha256(utf8Encode(verifier))) }
}

/** Runs the authorize page as a person would: GET the page, POST its form with an email. */
async function authorize(email: string, o: { challenge: string; nonce: string; state: string; clientId?: string; redirect?: string }) {
  const q = new URLSearchParams({
    client_id: o.clientId ?? DEV_OIDC_CLIENT_ID,
    redirect_uri: o.redirect ?? REDIRECT,
    response_type: 'code',
    scope: 'openid email',
    code_challenge: o.challenge,
    code_challenge_method: 'S256',
    nonce: o.nonce,
    state: o.state,
  })
  const page = await fetch(`${issuer}/authorize?${q}`)
  const html = await page.text()
  if (page.status !== 200) return { status: page.status, html }
  expect(html).toContain('<form method="post"')
  expect(html).toContain('type="email"')
  const form = new URLSearchParams([...q.entries(), ['email', email]])
  const res = await fetch(`${issuer}/authorize`, { method: 'POST', body: form, redirect: 'manual' })
  return { status: res.status, location: res.headers.get('location') ?? '', html: await res.text() }
}

async function exchange(code: string, verifier: string, redirect = REDIRECT) {
  const res = await fetch(`${issuer}/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: DEV_OIDC_CLIENT_ID,
      redirect_uri: redirect,
    }),
  })
  return { status: res.status, json: (await res.json()) as any }
}

describe('dev identity provider', () => {
  it('publishes discovery and keys for its issuer', async () => {
    const d = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as any
    expect(d).toMatchObject({ issuer, jwks_uri: `${issuer}/jwks`, code_challenge_methods_supported: ['S256'] })
    const jwks = (await (await fetch(d.jwks_uri)).json()) as any
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256' })
  })

  it('authorization code + PKCE → an ID token the service accepts for oauth_login', async () => {
    const admin = adminTurnkeyClient(svc)
    const email = 'grace@example.com'
    const first = await admin.getSubOrgIds({ organizationId: svc.admin.organizationId })
    // A sign-up with the dev identity (sub derived from the email).
    const signupToken = await svc.rt.devIdp!.issueIdToken({ email })
    const created = await admin.createSubOrganization({
      type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
      timestampMs: String(Date.now()),
      organizationId: svc.admin.organizationId,
      parameters: {
        subOrganizationName: email,
        rootUsers: [
          {
            userName: email,
            userEmail: email,
            apiKeys: [],
            authenticators: [],
            oauthProviders: [{ providerName: 'Sigil dev', oidcToken: signupToken }],
          },
        ],
        rootQuorumThreshold: 1,
      },
    })
    const subOrg = created.activity.result.createSubOrganizationResultV8!.subOrganizationId
    expect((await admin.getSubOrgIds({ organizationId: svc.admin.organizationId })).organizationIds.length).toBe(
      first.organizationIds.length + 1,
    )

    const kp = generateP256KeyPair()
    const publicKey = bytesToHex(kp.publicKey)
    const { verifier, challenge } = pkce()
    const a = await authorize(email, { challenge, nonce: oidcNonce(publicKey), state: 's-123' })
    expect(a.status).toBe(302)
    const back = new URL(a.location as string)
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT)
    expect(back.searchParams.get('state')).toBe('s-123')
    const code = back.searchParams.get('code') as string
    const t = await exchange(code, verifier)
    expect(t.status).toBe(200)
    const claims = JSON.parse(Buffer.from(t.json.id_token.split('.')[1], 'base64url').toString())
    expect(claims).toMatchObject({ iss: issuer, aud: DEV_OIDC_CLIENT_ID, sub: devSubject(email), email, nonce: oidcNonce(publicKey) })

    const login = await admin.oauthLogin({
      type: 'ACTIVITY_TYPE_OAUTH_LOGIN',
      timestampMs: String(Date.now()),
      organizationId: svc.admin.organizationId,
      parameters: { oidcToken: t.json.id_token, publicKey },
    })
    expect(login.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    const asUser = new TurnkeyClient(
      { baseUrl: svc.url },
      new ApiKeyStamper({ apiPublicKey: publicKey, apiPrivateKey: bytesToHex(kp.privateKey) }),
    )
    expect((await asUser.getWhoami({ organizationId: subOrg })).organizationId).toBe(subOrg)

    // The code was spent.
    const again = await exchange(code, verifier)
    expect([again.status, again.json.error]).toEqual([400, 'invalid_grant'])
  })

  it('refuses a wrong code_verifier (and spends the code), an unknown client, a plain-http redirect, and a malformed email', async () => {
    const { challenge } = pkce()
    const a = await authorize('x@example.com', { challenge, nonce: 'n', state: 's' })
    const code = new URL(a.location as string).searchParams.get('code') as string
    const wrong = await exchange(code, pkce().verifier)
    expect([wrong.status, wrong.json.error]).toEqual([400, 'invalid_grant'])
    expect(wrong.json.error_description).toContain('code_verifier')

    const unknown = await authorize('x@example.com', { challenge, nonce: 'n', state: 's', clientId: 'someone' })
    expect(unknown.status).toBe(400)
    expect(unknown.html).toContain('client_id')
    const insecure = await authorize('x@example.com', { challenge, nonce: 'n', state: 's', redirect: 'http://evil.example/cb' })
    expect(insecure.status).toBe(400)
    expect(insecure.html).toContain('redirect_uri')
    const bad = await authorize('not an email', { challenge, nonce: 'n', state: 's' })
    expect(bad.status).toBe(400)
    expect(bad.html).toContain('role="alert"')
  })

  it('is not served in production', async () => {
    const prod = await startTestService({ production: true, devOidc: false })
    try {
      expect(prod.rt.devIdp).toBeUndefined()
      expect((await fetch(`${prod.url}/dev/oidc/.well-known/openid-configuration`)).status).toBe(404)
    } finally {
      await prod.stop()
    }
  })
})
