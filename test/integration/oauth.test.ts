/**
 * OIDC ID tokens verified with `jose` against trusted issuers (a real issuer on
 * 127.0.0.1 configured by SIGIL_OIDC_ISSUERS), through the unmodified `@turnkey/http` client:
 * sign-up with an OAuth provider, oauth_login (session) and oauth (credential bundle) with the
 * hosted nonce rule, create_oauth_providers V1/V2, get_sub_org_ids by OIDC_TOKEN, every refusal
 * naming the field and committing nothing, and the JWKS cache (one fetch, rotation, timeout).
 */
import { decryptCredentialBundle } from '@turnkey/crypto'
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { TurnkeyClient } from '@turnkey/http'
import { SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { p256 } from '@noble/curves/nist.js'
import { base64UrlEncode, bytesToHex, utf8Encode } from '../../src/crypto/encoding.js'
import { oidcNonce } from '../../src/crypto/oidcNonce.js'
import { generateP256KeyPair, p256PublicKeyFromPrivate } from '../../src/crypto/p256.js'
import { startTestIssuer, type TestIssuer } from '../helpers/oidcIssuer.js'
import { newApiKey } from './helpers/keys.js'
import { adminTurnkeyClient, startTestService, submitBody, type TestService } from './helpers/service.js'

let svc: TestService
let idp: TestIssuer
/** A trusted issuer whose keys endpoint answers slower than the service waits. */
let slowIdp: TestIssuer
let client: TurnkeyClient
/** ada's own API key (her organization is acted in by its own users only: custody) and a client stamping with it. */
const adaKey = newApiKey('ada')
let adaClient: TurnkeyClient
let root: string
let subOrg: string
let userId: string

const ts = () => String(Date.now())

/** The error a refused @turnkey/http call carries: its gRPC code, Sigil's stable code and the message. */
async function refusal(p: Promise<unknown>): Promise<{ grpc: number; message: string; code: string }> {
  try {
    await p
  } catch (e: any) {
    const details = e.details ?? []
    const info = details.find((d: any) => d?.['@type']?.endsWith('ErrorInfo'))
    return { grpc: e.code, message: String(e.message), code: info?.reason ?? '' }
  }
  throw new Error('expected a refusal')
}

function sessionKey() {
  const kp = generateP256KeyPair()
  return { publicKey: bytesToHex(kp.publicKey), privateKey: bytesToHex(kp.privateKey) }
}

/** oauth_login for `k` in `organizationId` with ada's token (nonce = sha256 of k's public key) → the session JWT's claims. */
async function oauthLoginAs(organizationId: string, k: { publicKey: string }) {
  const token = await idp.sign({ sub: 'ada-1', nonce: oidcNonce(k.publicKey) })
  const r = await client.oauthLogin({
    type: 'ACTIVITY_TYPE_OAUTH_LOGIN',
    timestampMs: ts(),
    organizationId,
    parameters: { oidcToken: token, publicKey: k.publicKey },
  })
  const session = r.activity.result.oauthLoginResult!.session
  return JSON.parse(Buffer.from(session.split('.')[1] as string, 'base64url').toString())
}

async function apiKeyCount(orgId: string, uid: string): Promise<number> {
  const r = await client.getApiKeys({ organizationId: orgId, userId: uid })
  return r.apiKeys.length
}

beforeAll(async () => {
  idp = await startTestIssuer({ audience: 'app-1' })
  slowIdp = await startTestIssuer({ audience: 'app-1' })
  slowIdp.delayMs = 3000
  const issuers = JSON.stringify([
    { issuer: idp.issuer, audiences: ['app-1', 'app-2'], jwksUri: idp.jwksUri, name: 'Test IdP' },
    { issuer: slowIdp.issuer, audiences: ['app-1'], jwksUri: slowIdp.jwksUri, name: 'Slow IdP' },
  ])
  svc = await startTestService({
    oidcIssuers: (await import('../../src/service/oidc/issuers.js')).parseOidcIssuers(issuers),
    oidcFetchTimeoutMs: 400,
  })
  root = svc.admin.organizationId
  client = adminTurnkeyClient(svc)
  adaClient = new TurnkeyClient(
    { baseUrl: svc.url },
    new ApiKeyStamper({ apiPublicKey: adaKey.publicKey, apiPrivateKey: adaKey.privateKeyHex }),
  )
  const signup = await client.createSubOrganization({
    type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
    timestampMs: ts(),
    organizationId: root,
    parameters: {
      subOrganizationName: 'oauth user',
      rootUsers: [
        {
          userName: 'ada',
          userEmail: 'ada@example.com',
          apiKeys: [adaKey.param],
          authenticators: [],
          oauthProviders: [{ providerName: 'Test IdP', oidcToken: await idp.sign({ sub: 'ada-1', email: 'ada@example.com' }) }],
        },
      ],
      rootQuorumThreshold: 1,
    },
  })
  subOrg = signup.activity.result.createSubOrganizationResultV8!.subOrganizationId
  userId = signup.activity.result.createSubOrganizationResultV8!.rootUserIds![0] as string
})

afterAll(async () => {
  await svc?.stop()
  await idp?.stop()
  await slowIdp?.stop()
})

describe('sign-up with an OIDC token', () => {
  it('stores the verified identity (iss, aud, sub) on the root user', async () => {
    const r = await client.getOauthProviders({ organizationId: subOrg, userId })
    expect(r.oauthProviders.map((p) => [p.providerName, p.issuer, p.audience, p.subject])).toEqual([
      ['Test IdP', idp.issuer, 'app-1', 'ada-1'],
    ])
  })

  it('refuses an unsigned (alg none) token naming the field, and creates nothing', async () => {
    const payload = Buffer.from(JSON.stringify({ iss: idp.issuer, sub: 'x', aud: 'app-1', exp: 9e9, iat: 1 })).toString('base64url')
    const before = (await client.getSubOrgIds({ organizationId: root })).organizationIds.length
    const e = await refusal(
      client.createSubOrganization({
        type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
        timestampMs: ts(),
        organizationId: root,
        parameters: {
          subOrganizationName: 'forged',
          rootUsers: [
            {
              userName: 'eve',
              apiKeys: [],
              authenticators: [],
              oauthProviders: [{ providerName: 'x', oidcToken: `eyJhbGciOiJub25lIn0.${payload}.` }],
            },
          ],
          rootQuorumThreshold: 1,
        },
      }),
    )
    expect(e.message).toContain('parameters.rootUsers[0].oauthProviders[0].oidcToken')
    expect((await client.getSubOrgIds({ organizationId: root })).organizationIds.length).toBe(before)
  })
})

describe('oauth_login and oauth', () => {
  it('oauth_login: a token whose nonce is sha256(publicKey) gives a session for that key, which then works', async () => {
    const k = sessionKey()
    const claims = await oauthLoginAs(subOrg, k)
    expect(claims).toMatchObject({ user_id: userId, organization_id: subOrg, session_type: 'SESSION_TYPE_READ_WRITE' })
    const asUser = new TurnkeyClient({ baseUrl: svc.url }, new ApiKeyStamper({ apiPublicKey: k.publicKey, apiPrivateKey: k.privateKey }))
    expect((await asUser.getWhoami({ organizationId: subOrg })).userId).toBe(userId)
  })

  it('oauth_login from the parent organization finds the sub-organization user', async () => {
    const claims = await oauthLoginAs(root, sessionKey())
    expect(claims.organization_id).toBe(subOrg)
  })

  it('oauth: the credential bundle decrypts (with @turnkey/crypto) to a key registered for the user', async () => {
    const target = sessionKey()
    const token = await idp.sign({ sub: 'ada-1', nonce: oidcNonce(target.publicKey) })
    const r = await client.oauth({
      type: 'ACTIVITY_TYPE_OAUTH',
      timestampMs: ts(),
      organizationId: subOrg,
      parameters: { oidcToken: token, targetPublicKey: target.publicKey },
    })
    const out = r.activity.result.oauthResult!
    expect(out.userId).toBe(userId)
    const privateKey = decryptCredentialBundle(out.credentialBundle, target.privateKey)
    const publicKey = bytesToHex(p256PublicKeyFromPrivate(Buffer.from(privateKey, 'hex'), true))
    const key = await client.getApiKey({ organizationId: subOrg, apiKeyId: out.apiKeyId })
    expect(key.apiKey.credential.publicKey).toBe(publicKey)
    expect(key.apiKey.credential.type).toBe('CREDENTIAL_TYPE_OAUTH_KEY_P256')
    const asUser = new TurnkeyClient({ baseUrl: svc.url }, new ApiKeyStamper({ apiPublicKey: publicKey, apiPrivateKey: privateKey }))
    expect((await asUser.getWhoami({ organizationId: subOrg })).userId).toBe(userId)
  })

  it('refuses, naming parameters.oidcToken and adding no key: nonce of another key, expired, wrong audience, foreign signature, untrusted issuer, HS256, garbage', async () => {
    const k = sessionKey()
    const nonce = oidcNonce(k.publicKey)
    const now = Math.floor(Date.now() / 1000)
    const other = await new SignJWT({ sub: 'ada-1', aud: 'app-1', nonce })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(idp.issuer)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('a shared secret of 32 bytes!!!!!'))
    const cases: Array<[string, string, string]> = [
      ['nonce of another key', await idp.sign({ sub: 'ada-1', nonce: oidcNonce(sessionKey().publicKey) }), 'nonce'],
      ['no nonce', await idp.sign({ sub: 'ada-1' }), 'nonce'],
      ['expired', await idp.sign({ sub: 'ada-1', nonce, iat: now - 7200, exp: now - 3600 }), 'expired'],
      ['wrong audience', await idp.sign({ sub: 'ada-1', nonce, aud: 'someone-else' }), 'audience'],
      ['foreign signature', await idp.sign({ sub: 'ada-1', nonce }, { key: 'foreign' }), 'signature'],
      ['untrusted issuer', await idp.sign({ sub: 'ada-1', nonce, iss: 'https://evil.example' }), 'not trusted'],
      ['HS256', other, 'HS256'],
      ['garbage', 'not-a-jwt', 'JWT'],
    ]
    const before = await apiKeyCount(subOrg, userId)
    for (const [name, oidcToken, words] of cases) {
      const e = await refusal(
        client.oauthLogin({
          type: 'ACTIVITY_TYPE_OAUTH_LOGIN',
          timestampMs: ts(),
          organizationId: subOrg,
          parameters: { oidcToken, publicKey: k.publicKey },
        }),
      )
      expect(e.message, name).toContain('parameters.oidcToken')
      expect(e.message, name).toContain(words)
      expect([e.grpc, e.code], name).toEqual([16, 'TOKEN_INVALID'])
    }
    expect(await apiKeyCount(subOrg, userId)).toBe(before)
  })

  it('a valid token of an identity nobody holds: 404', async () => {
    const k = sessionKey()
    const token = await idp.sign({ sub: 'nobody', nonce: oidcNonce(k.publicKey) })
    const e = await refusal(
      client.oauthLogin({
        type: 'ACTIVITY_TYPE_OAUTH_LOGIN',
        timestampMs: ts(),
        organizationId: root,
        parameters: { oidcToken: token, publicKey: k.publicKey },
      }),
    )
    expect([e.grpc, e.code]).toEqual([5, 'NOT_FOUND'])
    expect(e.message).toContain('OAuth identity')
  })
})

describe('stamp_login with X-Stamp-Attested (OIDC), as @turnkey/core logs in with OAuth', () => {
  function attested(token: string, privateKey: Uint8Array) {
    const publicKey = bytesToHex(p256.getPublicKey(privateKey, true))
    return {
      async stamp(body: string) {
        const signature = bytesToHex(p256.sign(utf8Encode(body), privateKey, { prehash: true, lowS: false, format: 'der' }))
        const json = JSON.stringify({ publicKeyAttestation: token, scheme: 'STAMP_ATTESTED_SCHEME_P256_OIDC', publicKey, signature })
        return { stampHeaderName: 'X-Stamp-Attested', stampHeaderValue: base64UrlEncode(utf8Encode(json)) }
      },
    }
  }

  it('a token whose nonce is sha256 of the stamp key logs in the user holding its identity; another key is refused', async () => {
    const kp = generateP256KeyPair()
    const stampKey = bytesToHex(p256.getPublicKey(kp.privateKey, true))
    const token = await idp.sign({ sub: 'ada-1', nonce: oidcNonce(stampKey) })
    const session = generateP256KeyPair()
    const body = (org: string) =>
      submitBody('ACTIVITY_TYPE_STAMP_LOGIN', org, { publicKey: bytesToHex(session.publicKey), expirationSeconds: '900' })
    const ok = await svc.post('/public/v1/submit/stamp_login', body(root), attested(token, kp.privateKey))
    expect(ok.status, JSON.stringify(ok.json)).toBe(200)
    const claims = JSON.parse(Buffer.from(ok.json.activity.result.stampLoginResult.session.split('.')[1], 'base64url').toString())
    expect([claims.user_id, claims.organization_id]).toEqual([userId, subOrg])

    const other = await svc.post('/public/v1/submit/stamp_login', body(root), attested(token, generateP256KeyPair().privateKey))
    expect(other.status).toBe(401)
    expect(other.json.message).toContain('nonce')
    // Elsewhere than stamp_login an attested stamp is no credential.
    const who = await svc.post('/public/v1/query/whoami', { organizationId: subOrg }, attested(token, kp.privateKey))
    expect(who.status).toBe(401)
  })
})

describe('create_oauth_providers and get_sub_org_ids by OIDC_TOKEN', () => {
  it('V2 adds providers by token (audience app-2; claims beside a token); V1 by token; claims alone or a mismatch of claims and token are refused', async () => {
    const v2 = await adaClient.createOauthProviders({
      type: 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2',
      timestampMs: ts(),
      organizationId: subOrg,
      parameters: {
        userId,
        oauthProviders: [
          { providerName: 'Second app', oidcToken: await idp.sign({ sub: 'ada-1', aud: 'app-2' }) },
          {
            providerName: 'Stated',
            oidcToken: await idp.sign({ sub: 'ada-2' }),
            oidcClaims: { iss: idp.issuer, aud: 'app-1', sub: 'ada-2' },
          },
        ],
      },
    })
    expect(v2.activity.result.createOauthProvidersResultV2!.providerIds).toHaveLength(2)
    const v1 = await adaClient.createOauthProviders({
      type: 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS',
      timestampMs: ts(),
      organizationId: subOrg,
      parameters: { userId, oauthProviders: [{ providerName: 'Third', oidcToken: await idp.sign({ sub: 'ada-3' }) }] },
    } as any)
    expect((v1.activity.result as any).createOauthProvidersResult.providerIds).toHaveLength(1)
    const all = await client.getOauthProviders({ organizationId: subOrg, userId })
    expect(all.oauthProviders.map((p) => `${p.audience}/${p.subject}`).sort()).toEqual([
      'app-1/ada-1',
      'app-1/ada-2',
      'app-1/ada-3',
      'app-2/ada-1',
    ])

    const e = await refusal(
      adaClient.createOauthProviders({
        type: 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2',
        timestampMs: ts(),
        organizationId: subOrg,
        parameters: {
          userId,
          oauthProviders: [
            { providerName: 'ok', oidcToken: await idp.sign({ sub: 'ada-9' }) },
            {
              providerName: 'liar',
              oidcToken: await idp.sign({ sub: 'ada-1' }),
              oidcClaims: { iss: idp.issuer, aud: 'app-1', sub: 'bob' },
            },
          ],
        },
      }),
    )
    expect([e.grpc, e.code]).toEqual([3, 'INVALID_ARGUMENT'])
    expect(e.message).toContain('parameters.oauthProviders[1].oidcClaims')
    // Claims alone prove nothing, or anyone could attach a victim's identity: the field to give is the token.
    const stated = await refusal(
      adaClient.createOauthProviders({
        type: 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2',
        timestampMs: ts(),
        organizationId: subOrg,
        parameters: {
          userId,
          oauthProviders: [{ providerName: 'Stated', oidcClaims: { iss: 'https://accounts.example', aud: 'c', sub: 's' } }],
        },
      }),
    )
    expect([stated.grpc, stated.code]).toEqual([3, 'INVALID_ARGUMENT'])
    expect(stated.message).toContain('parameters.oauthProviders[0].oidcToken')
    expect((await client.getOauthProviders({ organizationId: subOrg, userId })).oauthProviders).toHaveLength(4)
  })

  it('get_sub_org_ids with OIDC_TOKEN finds the sub-organization of the identity (and none for a stranger)', async () => {
    const mine = await client.getSubOrgIds({
      organizationId: root,
      filterType: 'OIDC_TOKEN',
      filterValue: await idp.sign({ sub: 'ada-1' }),
    })
    expect(mine.organizationIds).toEqual([subOrg])
    const none = await client.getSubOrgIds({
      organizationId: root,
      filterType: 'OIDC_TOKEN',
      filterValue: await idp.sign({ sub: 'stranger' }),
    })
    expect(none.organizationIds).toEqual([])
    const e = await refusal(
      client.getSubOrgIds({
        organizationId: root,
        filterType: 'OIDC_TOKEN',
        filterValue: await idp.sign({ sub: 'x' }, { key: 'foreign' }),
      }),
    )
    expect(e.message).toContain('filterValue')
  })
})

describe('an issuer whose keys cannot be fetched', () => {
  it('answers UNAVAILABLE (503-class) within the fetch timeout, naming the field, and creates nothing', async () => {
    const before = (await client.getSubOrgIds({ organizationId: root })).organizationIds.length
    const started = Date.now()
    const e = await refusal(
      client.createSubOrganization({
        type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
        timestampMs: ts(),
        organizationId: root,
        parameters: {
          subOrganizationName: 'slow',
          rootUsers: [
            {
              userName: 'sam',
              apiKeys: [],
              authenticators: [],
              oauthProviders: [{ providerName: 'Slow', oidcToken: await slowIdp.sign({ sub: 'sam' }) }],
            },
          ],
          rootQuorumThreshold: 1,
        },
      }),
    )
    expect(Date.now() - started).toBeLessThan(2500)
    expect([e.grpc, e.code]).toEqual([14, 'UNAVAILABLE'])
    expect(e.message).toContain('parameters.rootUsers[0].oauthProviders[0].oidcToken')
    expect((await client.getSubOrgIds({ organizationId: root })).organizationIds.length).toBe(before)
  })
})

describe('the issuer keys cache', () => {
  it('is fetched once for many tokens (the cache rules are unit-tested in test/unit/service/oidcVerify.test.ts)', async () => {
    const before = idp.fetches.jwks
    expect(before).toBe(1)
    for (let i = 0; i < 3; i++) {
      const r = await client.getSubOrgIds({ organizationId: root, filterType: 'OIDC_TOKEN', filterValue: await idp.sign({ sub: 'ada-1' }) })
      expect(r.organizationIds).toEqual([subOrg])
    }
    expect(idp.fetches.jwks).toBe(before)
  })
})
