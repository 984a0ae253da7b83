/**
 * OAuth 2.0 credentials through the unmodified `@turnkey/http` client: create, update, get, list and
 * delete (the client secret encrypted with @turnkey/crypto `encryptOauth2ClientSecret`, never in any
 * response in the clear), field errors; then the code flow against the dev identity provider (standing
 * for X and Discord offline): authorize → code → oauth2_authenticate → the service's own OIDC token
 * (issuer, audience, subject, nonce, email), which oauth_login accepts for the nonce's key; a wrong
 * code, verifier, redirect URI, client secret and a deleted credential refused at their fields; and
 * the relay's `/v1/oauth2_authenticate` end to end into `/v1/oauth_login`.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { encryptOauth2ClientSecret } from '@turnkey/crypto'
import { TurnkeyClient } from '@turnkey/http'
import { createLocalJWKSet, jwtVerify } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_OAUTH2_CLIENT_ID, DEV_OAUTH2_CLIENT_SECRET, devSubject } from '../../src/devchain/oidcProvider.js'
import { base64UrlEncode, bytesToHex, utf8Encode } from '../../src/crypto/encoding.js'
import { verifySessionJwt } from '../../src/crypto/jwt.js'
import { oidcNonce } from '../../src/crypto/oidcNonce.js'
import { generateP256KeyPair } from '../../src/crypto/p256.js'
import { adminTurnkeyClient, startTestService, submitBody, type TestService } from './helpers/service.js'

const CREATE = '/public/v1/submit/create_oauth2_credential'
const UPDATE = '/public/v1/submit/update_oauth2_credential'
const DELETE = '/public/v1/submit/delete_oauth2_credential'
const AUTH = '/public/v1/submit/oauth2_authenticate'
const GET = '/public/v1/query/get_oauth2_credential'
const REDIRECT = 'https://app.example.com/oauth/callback'

let svc: TestService
let admin: TurnkeyClient
let org: string
/** The service's provider-secrets key (uncompressed hex), which client secrets are encrypted to. */
let serviceKey: string

beforeAll(async () => {
  svc = await startTestService()
  admin = adminTurnkeyClient(svc)
  org = svc.admin.organizationId
  serviceKey = (await (await fetch(`${svc.url}/healthz`)).json()).onRampEncryptionPublicKey
})
afterAll(() => svc?.stop())

const fieldsOf = (json: any): string[] =>
  (json?.details ?? []).flatMap((d: any) => (d.fieldViolations ?? []).map((v: any) => v.field as string))
const codeOf = (json: any): string | undefined => json?.details?.find((d: any) => typeof d.reason === 'string')?.reason
const now = () => String(Date.now())

function pkce() {
  const verifier = base64UrlEncode(crypto.getRandomValues(new Uint8Array(32)))
  return { verifier, challenge: base64UrlEncode(sha256(utf8Encode(verifier))) }
}

/** The dev provider's authorize page as a person uses it (an X or Discord consent screen offline): the code it redirects with. */
async function authorize(email: string, challenge: string, clientId = DEV_OAUTH2_CLIENT_ID): Promise<string> {
  const form = new URLSearchParams({
    client_id: clientId,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'users.read tweet.read',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st',
    email,
  })
  const res = await fetch(`${svc.url}/dev/oidc/authorize`, { method: 'POST', body: form, redirect: 'manual' })
  expect(res.status).toBe(302)
  const code = new URL(res.headers.get('location') as string).searchParams.get('code')
  expect(code).toBeTruthy()
  return code as string
}

async function createCredential(provider: 'OAUTH2_PROVIDER_X' | 'OAUTH2_PROVIDER_DISCORD', secret = DEV_OAUTH2_CLIENT_SECRET) {
  const r = await admin.createOauth2Credential({
    type: 'ACTIVITY_TYPE_CREATE_OAUTH2_CREDENTIAL',
    timestampMs: now(),
    organizationId: org,
    parameters: { provider, clientId: DEV_OAUTH2_CLIENT_ID, encryptedClientSecret: await encryptOauth2ClientSecret(secret, serviceKey) },
  })
  expect(r.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
  return r.activity.result.createOauth2CredentialResult?.oauth2CredentialId as string
}

const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1] as string, 'base64url').toString())

describe('OAuth 2.0 credentials: create, update, get, list, delete', () => {
  it('stores the credential; the secret comes back only as the ciphertext sent, never in the clear', async () => {
    const secret = 'discord-client-secret-ABC123'
    const encrypted = await encryptOauth2ClientSecret(secret, serviceKey)
    const created = await admin.createOauth2Credential({
      type: 'ACTIVITY_TYPE_CREATE_OAUTH2_CREDENTIAL',
      timestampMs: now(),
      organizationId: org,
      parameters: { provider: 'OAUTH2_PROVIDER_DISCORD', clientId: 'discord-app-1', encryptedClientSecret: encrypted },
    })
    const id = created.activity.result.createOauth2CredentialResult?.oauth2CredentialId as string
    expect(id).toMatch(/^[0-9a-f-]{36}$/)

    const got = await admin.getOauth2Credential({ organizationId: org, oauth2CredentialId: id })
    expect(got.oauth2Credential).toMatchObject({
      oauth2CredentialId: id,
      organizationId: org,
      provider: 'OAUTH2_PROVIDER_DISCORD',
      clientId: 'discord-app-1',
      encryptedClientSecret: encrypted,
    })
    expect(got.oauth2Credential.createdAt.seconds).toMatch(/^\d+$/)

    const newer = await encryptOauth2ClientSecret('x-client-secret-XYZ789', serviceKey)
    const updated = await admin.updateOauth2Credential({
      type: 'ACTIVITY_TYPE_UPDATE_OAUTH2_CREDENTIAL',
      timestampMs: now(),
      organizationId: org,
      parameters: { oauth2CredentialId: id, provider: 'OAUTH2_PROVIDER_X', clientId: 'x-app-1', encryptedClientSecret: newer },
    })
    expect(updated.activity.result.updateOauth2CredentialResult?.oauth2CredentialId).toBe(id)

    const listed = await admin.listOauth2Credentials({ organizationId: org })
    const mine = listed.oauth2Credentials.find((c) => c.oauth2CredentialId === id)
    expect(mine).toMatchObject({ provider: 'OAUTH2_PROVIDER_X', clientId: 'x-app-1', encryptedClientSecret: newer })

    // No response — results, reads, the activity record — holds either secret in the clear.
    const activity = await admin.getActivity({ organizationId: org, activityId: updated.activity.id })
    const everything = JSON.stringify([created, got, updated, listed, activity])
    expect(everything).not.toContain(secret)
    expect(everything).not.toContain('x-client-secret-XYZ789')
    expect(everything).not.toContain(Buffer.from('x-client-secret-XYZ789').toString('hex'))

    const deleted = await admin.deleteOauth2Credential({
      type: 'ACTIVITY_TYPE_DELETE_OAUTH2_CREDENTIAL',
      timestampMs: now(),
      organizationId: org,
      parameters: { oauth2CredentialId: id },
    })
    expect(deleted.activity.result.deleteOauth2CredentialResult?.oauth2CredentialId).toBe(id)
    const gone = await svc.post(GET, { organizationId: org, oauth2CredentialId: id })
    expect([gone.status, codeOf(gone.json), fieldsOf(gone.json)]).toEqual([404, 'NOT_FOUND', ['oauth2CredentialId']])
    const again = await svc.post(DELETE, submitBody('ACTIVITY_TYPE_DELETE_OAUTH2_CREDENTIAL', org, { oauth2CredentialId: id }))
    expect([again.status, fieldsOf(again.json)]).toEqual([404, ['parameters.oauth2CredentialId']])
  })

  it('refuses bad input naming the field', async () => {
    const good = await encryptOauth2ClientSecret('s3cret', serviceKey)
    const create = (parameters: Record<string, unknown>) =>
      svc.post(CREATE, submitBody('ACTIVITY_TYPE_CREATE_OAUTH2_CREDENTIAL', org, parameters))

    const provider = await create({ provider: 'OAUTH2_PROVIDER_GITHUB', clientId: 'a', encryptedClientSecret: good })
    expect([provider.status, fieldsOf(provider.json)]).toEqual([400, ['parameters.provider']])
    const clientId = await create({ provider: 'OAUTH2_PROVIDER_X', clientId: '', encryptedClientSecret: good })
    expect([clientId.status, fieldsOf(clientId.json)]).toEqual([400, ['parameters.clientId']])
    const missing = await create({ provider: 'OAUTH2_PROVIDER_X', clientId: 'a' })
    expect([missing.status, fieldsOf(missing.json)]).toEqual([400, ['parameters.encryptedClientSecret']])

    // Encrypted to another key, or not encrypted at all: refused, and the value is not echoed.
    const otherKey = bytesToHex(generateP256KeyPair().publicKeyUncompressed)
    for (const encryptedClientSecret of [await encryptOauth2ClientSecret('s3cret', otherKey), 'plain-secret-value']) {
      const r = await create({ provider: 'OAUTH2_PROVIDER_X', clientId: 'a', encryptedClientSecret })
      expect([r.status, codeOf(r.json), fieldsOf(r.json)]).toEqual([400, 'BUNDLE_INVALID', ['parameters.encryptedClientSecret']])
      expect(JSON.stringify(r.json)).not.toContain('plain-secret-value')
    }

    const update = await svc.post(
      UPDATE,
      submitBody('ACTIVITY_TYPE_UPDATE_OAUTH2_CREDENTIAL', org, {
        oauth2CredentialId: crypto.randomUUID(),
        provider: 'OAUTH2_PROVIDER_X',
        clientId: 'a',
        encryptedClientSecret: good,
      }),
    )
    expect([update.status, codeOf(update.json), fieldsOf(update.json)]).toEqual([404, 'NOT_FOUND', ['parameters.oauth2CredentialId']])
  })
})

describe('oauth2_authenticate: the code flow against the dev identity provider', () => {
  it('code → the service’s OIDC token (issuer, audience, subject, nonce, email) → oauth_login for the nonce’s key', async () => {
    const credentialId = await createCredential('OAUTH2_PROVIDER_DISCORD')
    const email = 'ada@example.com'
    const kp = generateP256KeyPair()
    const publicKey = bytesToHex(kp.publicKey)
    const { verifier, challenge } = pkce()
    const code = await authorize(email, challenge)

    const r = await admin.oauth2Authenticate({
      type: 'ACTIVITY_TYPE_OAUTH2_AUTHENTICATE',
      timestampMs: now(),
      organizationId: org,
      parameters: {
        oauth2CredentialId: credentialId,
        authCode: code,
        redirectUri: REDIRECT,
        codeVerifier: verifier,
        nonce: oidcNonce(publicKey),
      },
    })
    const oidcToken = r.activity.result.oauth2AuthenticateResult?.oidcToken as string
    const claims = claimsOf(oidcToken)
    expect(claims).toMatchObject({
      iss: `${svc.url}/oauth2`,
      aud: DEV_OAUTH2_CLIENT_ID,
      sub: `discord:${devSubject(email)}`,
      nonce: oidcNonce(publicKey),
      email,
      email_verified: true,
      preferred_username: 'ada',
    })
    expect(claims.exp - claims.iat).toBeLessThanOrEqual(600)
    expect(JSON.stringify(r)).not.toContain(DEV_OAUTH2_CLIENT_SECRET)

    // A sub-organization whose user holds that identity, then oauth_login with the same token for the nonce's key.
    const sub = await admin.createSubOrganization({
      type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
      timestampMs: now(),
      organizationId: org,
      parameters: {
        subOrganizationName: email,
        rootUsers: [{ userName: email, apiKeys: [], authenticators: [], oauthProviders: [{ providerName: 'Discord', oidcToken }] }],
        rootQuorumThreshold: 1,
      },
    })
    const subOrg = sub.activity.result.createSubOrganizationResultV8?.subOrganizationId as string
    const login = await admin.oauthLogin({
      type: 'ACTIVITY_TYPE_OAUTH_LOGIN',
      timestampMs: now(),
      organizationId: org,
      parameters: { oidcToken, publicKey },
    })
    expect(login.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    const asUser = new TurnkeyClient(
      { baseUrl: svc.url },
      new ApiKeyStamper({ apiPublicKey: publicKey, apiPrivateKey: bytesToHex(kp.privateKey) }),
    )
    expect((await asUser.getWhoami({ organizationId: subOrg })).organizationId).toBe(subOrg)

    // The token is signed by the service; a copy with another subject does not verify.
    const forged = [
      oidcToken.split('.')[0],
      Buffer.from(JSON.stringify({ ...claims, sub: 'discord:someone' })).toString('base64url'),
      oidcToken.split('.')[2],
    ].join('.')
    const refused = await svc.post(
      '/public/v1/submit/oauth_login',
      submitBody('ACTIVITY_TYPE_OAUTH_LOGIN', org, { oidcToken: forged, publicKey }),
    )
    expect([refused.status, codeOf(refused.json), fieldsOf(refused.json)]).toEqual([401, 'TOKEN_INVALID', ['parameters.oidcToken']])
  })

  it('X: the subject is x:<id>; with bearerTokenTargetPublicKey the access token rides along encrypted', async () => {
    const credentialId = await createCredential('OAUTH2_PROVIDER_X')
    const { verifier, challenge } = pkce()
    const code = await authorize('lin@example.com', challenge)
    const target = generateP256KeyPair()
    const r = await svc.post(
      AUTH,
      submitBody('ACTIVITY_TYPE_OAUTH2_AUTHENTICATE', org, {
        oauth2CredentialId: credentialId,
        authCode: code,
        redirectUri: REDIRECT,
        codeVerifier: verifier,
        nonce: 'n-1',
        bearerTokenTargetPublicKey: bytesToHex(target.publicKey),
      }),
    )
    expect(r.status, JSON.stringify(r.json)).toBe(200)
    const token = r.json.activity.result.oauth2AuthenticateResult.oidcToken as string
    const claims = claimsOf(token)
    expect(claims.sub).toBe(`x:${devSubject('lin@example.com')}`)
    expect(typeof claims.encrypted_bearer_token).toBe('string')
    // The bearer token opens with the target key and is one the provider honours.
    const { decryptCredentialBundle } = await import('../../src/crypto/credentialBundle.js')
    const opened = await decryptCredentialBundle({ bundle: claims.encrypted_bearer_token, privateKey: target.privateKey })
    expect(opened.ok).toBe(true)
    const bearer = Buffer.from((opened as { plaintext: Uint8Array }).plaintext).toString()
    const me = await fetch(`${svc.url}/dev/oidc/userinfo`, { headers: { authorization: `Bearer ${bearer}` } })
    expect((await me.json()).data.id).toBe(devSubject('lin@example.com'))
    // The issuer's key set verifies it, as any relying party would.
    const jwks = svc.rt.oidc.issuers().find((t) => t.issuer === `${svc.url}/oauth2`)?.keys
    expect(jwks?.kind).toBe('local')
    const v = await jwtVerify(token, createLocalJWKSet((jwks as any).jwks), { issuer: `${svc.url}/oauth2`, audience: DEV_OAUTH2_CLIENT_ID })
    expect(v.payload.sub).toBe(claims.sub)
  })

  it('refuses a wrong code, verifier or redirect URI, a wrong client secret and a deleted credential, at their fields', async () => {
    const credentialId = await createCredential('OAUTH2_PROVIDER_DISCORD')
    const run = (p: Record<string, unknown>) => svc.post(AUTH, submitBody('ACTIVITY_TYPE_OAUTH2_AUTHENTICATE', org, { nonce: 'n', ...p }))

    const a = pkce()
    const wrongCode = await run({
      oauth2CredentialId: credentialId,
      authCode: 'not-a-code',
      redirectUri: REDIRECT,
      codeVerifier: a.verifier,
    })
    expect([wrongCode.status, fieldsOf(wrongCode.json)]).toEqual([400, ['parameters.authCode']])

    const code1 = await authorize('bo@example.com', a.challenge)
    const wrongVerifier = await run({
      oauth2CredentialId: credentialId,
      authCode: code1,
      redirectUri: REDIRECT,
      codeVerifier: pkce().verifier,
    })
    expect([wrongVerifier.status, fieldsOf(wrongVerifier.json)]).toEqual([400, ['parameters.codeVerifier']])
    expect(wrongVerifier.json.message).toMatch(/code_verifier/)

    const code2 = await authorize('bo@example.com', a.challenge)
    const wrongRedirect = await run({
      oauth2CredentialId: credentialId,
      authCode: code2,
      redirectUri: 'https://elsewhere.example.com/cb',
      codeVerifier: a.verifier,
    })
    expect([wrongRedirect.status, fieldsOf(wrongRedirect.json)]).toEqual([400, ['parameters.redirectUri']])

    const badSecret = await createCredential('OAUTH2_PROVIDER_DISCORD', 'not-the-secret')
    const code3 = await authorize('bo@example.com', a.challenge)
    const refusedClient = await run({ oauth2CredentialId: badSecret, authCode: code3, redirectUri: REDIRECT, codeVerifier: a.verifier })
    expect([refusedClient.status, codeOf(refusedClient.json), fieldsOf(refusedClient.json)]).toEqual([
      412,
      'FAILED_PRECONDITION',
      ['parameters.oauth2CredentialId'],
    ])
    expect(JSON.stringify(refusedClient.json)).not.toContain('not-the-secret')

    const shortVerifier = await run({ oauth2CredentialId: credentialId, authCode: 'c', redirectUri: REDIRECT, codeVerifier: 'short' })
    expect([shortVerifier.status, fieldsOf(shortVerifier.json)]).toEqual([400, ['parameters.codeVerifier']])

    await admin.deleteOauth2Credential({
      type: 'ACTIVITY_TYPE_DELETE_OAUTH2_CREDENTIAL',
      timestampMs: now(),
      organizationId: org,
      parameters: { oauth2CredentialId: credentialId },
    })
    const code4 = await authorize('bo@example.com', a.challenge)
    const deleted = await run({ oauth2CredentialId: credentialId, authCode: code4, redirectUri: REDIRECT, codeVerifier: a.verifier })
    expect([deleted.status, codeOf(deleted.json), fieldsOf(deleted.json)]).toEqual([404, 'NOT_FOUND', ['parameters.oauth2CredentialId']])
  })
})

describe('relay /v1/oauth2_authenticate', () => {
  async function relay(path: string, body: unknown) {
    const res = await fetch(`${svc.url}/auth${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'http://localhost:5173', 'X-Auth-Proxy-Config-ID': 'local' },
      body: JSON.stringify(body),
    })
    return { status: res.status, json: (await res.json()) as any }
  }

  it('exchanges the code with the app’s credential; the token signs up and logs in through the relay', async () => {
    await createCredential('OAUTH2_PROVIDER_X')
    const email = 'mo@example.com'
    const kp = generateP256KeyPair()
    const publicKey = bytesToHex(kp.publicKey)
    const { verifier, challenge } = pkce()
    const body = {
      provider: 'OAUTH2_PROVIDER_X',
      clientId: DEV_OAUTH2_CLIENT_ID,
      redirectUri: REDIRECT,
      codeVerifier: verifier,
      nonce: oidcNonce(publicKey),
    }

    const r = await relay('/v1/oauth2_authenticate', { ...body, authCode: await authorize(email, challenge) })
    expect(r.status, JSON.stringify(r.json)).toBe(200)
    expect(Object.keys(r.json)).toEqual(['oidcToken'])
    expect(claimsOf(r.json.oidcToken)).toMatchObject({ iss: `${svc.url}/oauth2`, aud: DEV_OAUTH2_CLIENT_ID, sub: `x:${devSubject(email)}` })

    const signup = await relay('/v1/signup_v2', {
      userName: email,
      apiKeys: [],
      authenticators: [],
      oauthProviders: [{ providerName: 'X', oidcToken: r.json.oidcToken }],
    })
    expect(signup.status, JSON.stringify(signup.json)).toBe(200)
    const login = await relay('/v1/oauth_login', { oidcToken: r.json.oidcToken, publicKey })
    expect(login.status, JSON.stringify(login.json)).toBe(200)
    const session = verifySessionJwt(login.json.session, svc.rt.keys.session.publicKeyHex, { nowMs: Date.now() })
    expect(session.ok && session.claims.organization_id).toBe(signup.json.organizationId)

    // wallet_kit_config announces the app's X client id; the service's own issuer is no "Continue with …" provider.
    const kit = await relay('/v1/wallet_kit_config', {})
    expect(kit.json.enabledProviders).toContain('x')
    expect(kit.json.oauthClientIds.x).toBe(DEV_OAUTH2_CLIENT_ID)
    expect(kit.json.oauthProviders.map((p: { issuer: string }) => p.issuer)).toEqual([`${svc.url}/dev/oidc`])

    // Bad input and an unknown app are refused at their fields.
    const badProvider = await relay('/v1/oauth2_authenticate', { ...body, provider: 'OAUTH2_PROVIDER_GITHUB', authCode: 'c' })
    expect([badProvider.status, fieldsOf(badProvider.json)]).toEqual([400, ['provider']])
    const unknownApp = await relay('/v1/oauth2_authenticate', { ...body, clientId: 'another-app', authCode: 'c' })
    expect([unknownApp.status, codeOf(unknownApp.json)]).toEqual([404, 'NOT_FOUND'])
    expect(unknownApp.json.message).toMatch(/clientId/)
    const wrongCode = await relay('/v1/oauth2_authenticate', { ...body, authCode: 'spent-or-wrong' })
    expect([wrongCode.status, fieldsOf(wrongCode.json)]).toEqual([400, ['parameters.authCode']])
  })
})

describe('SIGIL_OAUTH2_ENDPOINTS', () => {
  it('a service without the dev identity provider exchanges codes at the endpoints it names', async () => {
    const other = await startTestService({
      devOidc: false,
      oauth2Endpoints: { OAUTH2_PROVIDER_DISCORD: { token: `${svc.url}/dev/oidc/token`, userinfo: `${svc.url}/dev/oidc/userinfo` } },
    })
    try {
      const client = adminTurnkeyClient(other)
      const key = (await (await fetch(`${other.url}/healthz`)).json()).onRampEncryptionPublicKey
      const created = await client.createOauth2Credential({
        type: 'ACTIVITY_TYPE_CREATE_OAUTH2_CREDENTIAL',
        timestampMs: now(),
        organizationId: other.admin.organizationId,
        parameters: {
          provider: 'OAUTH2_PROVIDER_DISCORD',
          clientId: DEV_OAUTH2_CLIENT_ID,
          encryptedClientSecret: await encryptOauth2ClientSecret(DEV_OAUTH2_CLIENT_SECRET, key),
        },
      })
      const { verifier, challenge } = pkce()
      const r = await client.oauth2Authenticate({
        type: 'ACTIVITY_TYPE_OAUTH2_AUTHENTICATE',
        timestampMs: now(),
        organizationId: other.admin.organizationId,
        parameters: {
          oauth2CredentialId: created.activity.result.createOauth2CredentialResult?.oauth2CredentialId as string,
          authCode: await authorize('kai@example.com', challenge),
          redirectUri: REDIRECT,
          codeVerifier: verifier,
          nonce: 'n',
        },
      })
      const claims = claimsOf(r.activity.result.oauth2AuthenticateResult?.oidcToken as string)
      expect(claims).toMatchObject({
        iss: `${other.url}/oauth2`,
        sub: `discord:${devSubject('kai@example.com')}`,
        aud: DEV_OAUTH2_CLIENT_ID,
      })
    } finally {
      await other.stop()
    }
  })
})
