/**
 * OAuth identity squatting and token replay (defects 2 and 10 as a live attack's report numbers them,
 * as the describe blocks name them), through the unmodified `@turnkey/http` client against the real service
 * and a real OIDC issuer on 127.0.0.1:
 * - an OAuth identity is attached to an existing user only with a verified ID token of it: an
 *   attacker's older account stating the victim's identity by `oidcClaims` alone is refused;
 * - a link made from claims alone (create_sub_organization / create_users keep the hosted shape, and
 *   rows stored before migration 018) is a record, never a login: oauth_login, oauth, stamp_login
 *   (OIDC attestation) and get_sub_org_ids by OIDC_TOKEN consider verified links only;
 * - stamp_login with an OIDC X-Stamp-Attested is single use per token, not per identity: a user logs
 *   in again with a fresh token and key; the same token a second time is refused.
 */
import { rmSync } from 'node:fs'
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { TurnkeyClient } from '@turnkey/http'
import { p256 } from '@noble/curves/nist.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { base64UrlEncode, bytesToHex, utf8Encode } from '../../src/crypto/encoding.js'
import { oidcNonce } from '../../src/crypto/oidcNonce.js'
import { generateP256KeyPair } from '../../src/crypto/p256.js'
import { parseOidcIssuers } from '../../src/service/oidc/issuers.js'
import { startTestIssuer, type TestIssuer } from '../helpers/oidcIssuer.js'
import { newApiKey } from './helpers/keys.js'
import { adminTurnkeyClient, startTestService, type TestService } from './helpers/service.js'

let svc: TestService
let idp: TestIssuer
let admin: TurnkeyClient
let root: string
/** The data dir of the first service, removed at the end when a restart kept it. */
let firstDataDir: string | undefined

const ts = () => String(Date.now())

/** The error a refused @turnkey/http call carries: its gRPC code, Sigil's stable code and the message. */
async function refusal(p: Promise<unknown>): Promise<{ grpc: number; message: string; code: string }> {
  try {
    await p
  } catch (e: any) {
    const info = (e.details ?? []).find((d: any) => d?.['@type']?.endsWith('ErrorInfo'))
    return { grpc: e.code, message: String(e.message), code: info?.reason ?? '' }
  }
  throw new Error('expected a refusal')
}

function clientFor(svc: TestService, key: ReturnType<typeof newApiKey>): TurnkeyClient {
  return new TurnkeyClient({ baseUrl: svc.url }, new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKeyHex }))
}

/** The claims `{iss, sub, aud}` of `sub` at the test issuer (what anyone can know of a person's identity). */
const claimsOf = (sub: string) => ({ iss: idp.issuer, sub, aud: 'app-1' })

/** A sub-organization of `root` with one root user (an API key, and `oauthProviders`); its ids and the user's client. */
async function account(
  client: TurnkeyClient,
  name: string,
  oauthProviders: Array<{ providerName: string; oidcToken?: string; oidcClaims?: { iss: string; sub: string; aud: string } }>,
) {
  const key = newApiKey(name)
  const r = await client.createSubOrganization({
    type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
    timestampMs: ts(),
    organizationId: root,
    parameters: {
      subOrganizationName: name,
      rootUsers: [{ userName: name, apiKeys: [key.param], authenticators: [], oauthProviders }],
      rootQuorumThreshold: 1,
    },
  })
  const res = r.activity.result.createSubOrganizationResultV8!
  return { orgId: res.subOrganizationId, userId: res.rootUserIds![0] as string, client: clientFor(svc, key) }
}

function sessionKey() {
  const kp = generateP256KeyPair()
  return { publicKey: bytesToHex(kp.publicKey), privateKey: kp.privateKey }
}

/** The claims of a session JWT. */
const jwtClaims = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1] as string, 'base64url').toString())

/** oauth_login at the root organization with a fresh token of `sub` bound to a fresh key → the session's user and organization. */
async function oauthLogin(sub: string): Promise<{ user_id: string; organization_id: string }> {
  const k = sessionKey()
  const r = await admin.oauthLogin({
    type: 'ACTIVITY_TYPE_OAUTH_LOGIN',
    timestampMs: ts(),
    organizationId: root,
    parameters: { oidcToken: await idp.sign({ sub, nonce: oidcNonce(k.publicKey) }), publicKey: k.publicKey },
  })
  return jwtClaims(r.activity.result.oauthLoginResult!.session)
}

/** A stamper of `X-Stamp-Attested` with scheme P256_OIDC: the ID token attests the key that signs the body. */
function oidcAttested(token: string, privateKey: Uint8Array) {
  const publicKey = bytesToHex(p256.getPublicKey(privateKey, true))
  return {
    async stamp(body: string) {
      const signature = bytesToHex(p256.sign(utf8Encode(body), privateKey, { prehash: true, lowS: false, format: 'der' }))
      const json = JSON.stringify({ publicKeyAttestation: token, scheme: 'STAMP_ATTESTED_SCHEME_P256_OIDC', publicKey, signature })
      return { stampHeaderName: 'X-Stamp-Attested', stampHeaderValue: base64UrlEncode(utf8Encode(json)) }
    },
  }
}

/** A fresh stamp key and an ID token of `sub` whose nonce names it (what @turnkey/core makes for an OAuth login). */
async function freshOidcLogin(sub: string) {
  const stampKey = generateP256KeyPair()
  const token = await idp.sign({ sub, nonce: oidcNonce(bytesToHex(p256.getPublicKey(stampKey.privateKey, true))) })
  return { token, stampKey }
}

/** stamp_login at the root organization stamped by an OIDC attestation → the session's claims. */
async function stampLogin(token: string, stampPrivateKey: Uint8Array) {
  const client = new TurnkeyClient({ baseUrl: svc.url }, oidcAttested(token, stampPrivateKey))
  const r = await client.stampLogin({
    type: 'ACTIVITY_TYPE_STAMP_LOGIN',
    timestampMs: ts(),
    organizationId: root,
    parameters: { publicKey: sessionKey().publicKey, expirationSeconds: '900' },
  })
  return jwtClaims(r.activity.result.stampLoginResult!.session)
}

beforeAll(async () => {
  idp = await startTestIssuer({ audience: 'app-1' })
  svc = await startTestService({
    oidcIssuers: parseOidcIssuers(JSON.stringify([{ issuer: idp.issuer, audiences: ['app-1'], jwksUri: idp.jwksUri, name: 'Test IdP' }])),
  })
  root = svc.admin.organizationId
  admin = adminTurnkeyClient(svc)
})

afterAll(async () => {
  await svc?.stop()
  await idp?.stop()
  if (firstDataDir) rmSync(firstDataDir, { recursive: true, force: true })
})

describe('defect 2: an OAuth identity is attached only with a verified ID token', () => {
  it("an attacker's older account cannot attach the victim's identity by claims only; the victim's login lands in the victim's account", async () => {
    const attacker = await account(admin, 'mallory', [])
    const victim = await account(admin, 'victor', [{ providerName: 'Test IdP', oidcToken: await idp.sign({ sub: 'victor-1' }) }])

    for (const type of ['ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2'] as const) {
      const e = await refusal(
        attacker.client.createOauthProviders({
          type,
          timestampMs: ts(),
          organizationId: attacker.orgId,
          parameters: { userId: attacker.userId, oauthProviders: [{ providerName: 'Test IdP', oidcClaims: claimsOf('victor-1') }] },
        }),
      )
      expect([e.grpc, e.code], e.message).toEqual([3, 'INVALID_ARGUMENT'])
      expect(e.message).toContain('parameters.oauthProviders[0].oidcToken')
    }
    const mine = await attacker.client.getOauthProviders({ organizationId: attacker.orgId, userId: attacker.userId })
    expect(mine.oauthProviders).toEqual([])

    expect(await oauthLogin('victor-1')).toMatchObject({ user_id: victim.userId, organization_id: victim.orgId })
  })

  it('a provider with a token of its identity is attached, and logs its user in', async () => {
    const late = await account(admin, 'lena', [])
    const r = await late.client.createOauthProviders({
      type: 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2',
      timestampMs: ts(),
      organizationId: late.orgId,
      parameters: {
        userId: late.userId,
        oauthProviders: [{ providerName: 'Test IdP', oidcToken: await idp.sign({ sub: 'lena-1' }), oidcClaims: claimsOf('lena-1') }],
      },
    })
    expect(r.activity.result.createOauthProvidersResultV2!.providerIds).toHaveLength(1)
    expect(await oauthLogin('lena-1')).toMatchObject({ user_id: late.userId, organization_id: late.orgId })
  })

  it('a link made from claims alone (create_sub_organization) never answers a login or an OIDC_TOKEN lookup', async () => {
    // The older account states the victim's identity by claims: kept as a record (hosted shape) …
    const attacker = await account(admin, 'mallet', [{ providerName: 'Test IdP', oidcClaims: claimsOf('vera-1') }])
    const stated = await admin.getOauthProviders({ organizationId: attacker.orgId, userId: attacker.userId })
    expect(stated.oauthProviders.map((p) => p.subject)).toEqual(['vera-1'])
    // … and below it, a sub-organization the attacker makes himself, stating it too.
    const nested = await attacker.client.createSubOrganization({
      type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
      timestampMs: ts(),
      organizationId: attacker.orgId,
      parameters: {
        subOrganizationName: 'nested',
        rootUsers: [
          {
            userName: 'nested',
            apiKeys: [newApiKey('nested').param],
            authenticators: [],
            oauthProviders: [{ providerName: 'Test IdP', oidcClaims: claimsOf('vera-1') }],
          },
        ],
        rootQuorumThreshold: 1,
      },
    })
    expect(nested.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')

    // Before the victim has an account, her identity finds none (the relay then signs her up).
    const k = sessionKey()
    const none = await refusal(
      admin.oauthLogin({
        type: 'ACTIVITY_TYPE_OAUTH_LOGIN',
        timestampMs: ts(),
        organizationId: root,
        parameters: { oidcToken: await idp.sign({ sub: 'vera-1', nonce: oidcNonce(k.publicKey) }), publicKey: k.publicKey },
      }),
    )
    expect([none.grpc, none.code]).toEqual([5, 'NOT_FOUND'])
    const byToken = async () =>
      (await admin.getSubOrgIds({ organizationId: root, filterType: 'OIDC_TOKEN', filterValue: await idp.sign({ sub: 'vera-1' }) }))
        .organizationIds
    expect(await byToken()).toEqual([])
    const first = await freshOidcLogin('vera-1')
    const unknown = await refusal(stampLogin(first.token, first.stampKey.privateKey))
    expect(unknown.code, unknown.message).toBe('STAMP_KEY_UNKNOWN')

    // The victim signs up with her token: every login by her identity lands in her account.
    const victim = await account(admin, 'vera', [{ providerName: 'Test IdP', oidcToken: await idp.sign({ sub: 'vera-1' }) }])
    expect(await oauthLogin('vera-1')).toMatchObject({ user_id: victim.userId, organization_id: victim.orgId })
    expect(await byToken()).toEqual([victim.orgId])
    const k2 = sessionKey()
    const bundle = await admin.oauth({
      type: 'ACTIVITY_TYPE_OAUTH',
      timestampMs: ts(),
      organizationId: root,
      parameters: { oidcToken: await idp.sign({ sub: 'vera-1', nonce: oidcNonce(k2.publicKey) }), targetPublicKey: k2.publicKey },
    })
    expect(bundle.activity.result.oauthResult!.userId).toBe(victim.userId)
    const second = await freshOidcLogin('vera-1')
    expect(await stampLogin(second.token, second.stampKey.privateKey)).toMatchObject({
      user_id: victim.userId,
      organization_id: victim.orgId,
    })
  })

  it('links stored before migration 018 from claims alone stop counting; those stored from a token keep working', async () => {
    const attacker = await account(admin, 'mort', [{ providerName: 'Test IdP', oidcClaims: claimsOf('wynn-1') }])
    const victim = await account(admin, 'wynn', [{ providerName: 'Test IdP', oidcToken: await idp.sign({ sub: 'wynn-1' }) }])
    const users = await attacker.client.createUsers({
      type: 'ACTIVITY_TYPE_CREATE_USERS_V4',
      timestampMs: ts(),
      organizationId: attacker.orgId,
      parameters: {
        users: [
          {
            userName: 'mort 2',
            apiKeys: [],
            authenticators: [],
            oauthProviders: [{ providerName: 'Test IdP', oidcClaims: claimsOf('wynn-1') }],
            userTags: [],
          },
        ],
      },
    })
    expect(users.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    // The database as it was before the migration that added `verified`: every link counted.
    await svc.rt.db.query('ALTER TABLE oauth_providers DROP COLUMN IF EXISTS verified')
    await svc.rt.db.query('CREATE INDEX IF NOT EXISTS oauth_providers_identity ON oauth_providers (issuer, subject)')
    await svc.rt.db.query("DELETE FROM schema_migrations WHERE name LIKE '%oauth_verified%'")
    await restart()

    expect(await oauthLogin('wynn-1')).toMatchObject({ user_id: victim.userId, organization_id: victim.orgId })
    expect(
      (await admin.getSubOrgIds({ organizationId: root, filterType: 'OIDC_TOKEN', filterValue: await idp.sign({ sub: 'wynn-1' }) }))
        .organizationIds,
    ).toEqual([victim.orgId])
    // The earlier tests' token-made links still log in after the migration.
    expect((await oauthLogin('victor-1')).user_id).toBeTruthy()
  })
})

/** Restarts the service on the same data dir and database (the migrations run again on start). */
async function restart() {
  const { dataDir, databaseUrl } = svc
  const oidcIssuers = svc.rt.config.oidcIssuers
  await svc.close()
  svc = await startTestService({ dataDir, databaseUrl, oidcIssuers })
  firstDataDir ??= dataDir
  root = svc.admin.organizationId
  admin = adminTurnkeyClient(svc)
}

describe('defect 10: stamp_login with an OIDC attestation is single use per token, not per identity', () => {
  it('the same user logs in twice with fresh tokens and keys; replaying a token is refused', async () => {
    const user = await account(admin, 'olive', [{ providerName: 'Test IdP', oidcToken: await idp.sign({ sub: 'olive-1' }) }])
    const first = await freshOidcLogin('olive-1')
    expect(await stampLogin(first.token, first.stampKey.privateKey)).toMatchObject({ user_id: user.userId, organization_id: user.orgId })
    const second = await freshOidcLogin('olive-1')
    expect(await stampLogin(second.token, second.stampKey.privateKey)).toMatchObject({ user_id: user.userId, organization_id: user.orgId })

    // The first token again, with its key, over a new body: refused as used.
    const replay = await refusal(stampLogin(first.token, first.stampKey.privateKey))
    expect([replay.grpc, replay.code]).toEqual([16, 'TOKEN_INVALID'])
    expect(replay.message).toContain('already been used')
  })
})
