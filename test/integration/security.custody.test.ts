/**
 * The severe defects a live attack found (numbered as its report numbers them, as the describe blocks
 * name them), each tried as the attacker tried it:
 * - defect 4 (custody): the root admin key, which the relay holds, acting inside a user's
 *   sub-organization through the official client: signing, exporting the wallet, adding a key;
 *   then every submit type, of which only the parent-initiated auth flows pass;
 * - defect 12: a relay in the middle adding its own key to a first sign-up, or signing the address
 *   up itself without the client's signature;
 * - defect 1: an anonymous account setting a victim's email on itself so that the victim's correct
 *   email login, account lookup and recovery land in the attacker's account.
 */
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SUBMIT_OPERATIONS } from '../../src/api/registry.js'
import { bytesToHex } from '../../src/crypto/encoding.js'
import { signClientSignature } from '../../src/crypto/jwt.js'
import { generateP256KeyPair } from '../../src/crypto/p256.js'
import { DEFAULT_WALLET } from '../../src/relay/defaults.js'
import { operationOf, PARENT_INITIATED } from '../../src/service/auth/custody.js'
import { newApiKey } from './helpers/keys.js'
import { adminTurnkeyClient, startTestService, submitBody, type TestService } from './helpers/service.js'

let svc: TestService
let admin: TurnkeyClient
let rootOrgId: string

const clientOf = (key: ReturnType<typeof newApiKey>) =>
  new TurnkeyClient({ baseUrl: svc.url }, new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKeyHex }))

beforeAll(async () => {
  svc = await startTestService()
  admin = adminTurnkeyClient(svc)
  rootOrgId = svc.admin.organizationId
})
afterAll(async () => {
  await svc?.stop()
})

async function relay(path: string, body: unknown) {
  const res = await fetch(`${svc.url}/auth${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: 'http://localhost:5173', 'X-Auth-Proxy-Config-ID': 'local' },
    body: JSON.stringify(body),
  })
  return { status: res.status, json: (await res.json()) as any }
}

async function codeFor(to: string): Promise<string> {
  const res = await fetch(`${svc.url}/dev/messages`)
  const { messages } = (await res.json()) as { messages: Array<{ to: string; text: string }> }
  const code = messages.find((m) => m.to === to)?.text.match(/code is:? ([0-9A-Z]+)/)?.[1]
  expect(code).toBeDefined()
  return code as string
}

/** What the extension does before sign-up: a code to `email`, verified for a key made on the client. */
async function verifiedToken(email: string) {
  const key = generateP256KeyPair()
  const init = await relay('/v1/otp_init', { otpType: 'OTP_TYPE_EMAIL', contact: email })
  expect(init.status).toBe(200)
  const verify = await relay('/v1/otp_verify', {
    otpId: init.json.otpId,
    otpCode: await codeFor(email),
    publicKey: bytesToHex(key.publicKey),
  })
  expect(verify.status, JSON.stringify(verify.json)).toBe(200)
  const token: string = verify.json.verificationToken
  const tokenId = JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()).id as string
  return { key, token, tokenId }
}

/** The sign-up message the extension signs (wire-formats B3), naming what it asks for. */
function signupSignature(
  t: { key: ReturnType<typeof generateP256KeyPair>; tokenId: string },
  signupV2: Record<string, unknown>,
): ReturnType<typeof signClientSignature> {
  return signClientSignature({
    privateKey: t.key.privateKey,
    message: JSON.stringify({ signupV2, tokenId: t.tokenId, type: 'USAGE_TYPE_SIGNUP' }),
  })
}

describe('custody: the parent organization cannot act inside a user organization (defect 4)', () => {
  const userKey = newApiKey('user key')
  let subOrgId: string
  let walletId: string
  let address: string

  beforeAll(async () => {
    const r = await admin.createSubOrganization({
      type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
      timestampMs: String(Date.now()),
      organizationId: rootOrgId,
      parameters: {
        subOrganizationName: 'custody user',
        rootUsers: [{ userName: 'owner', apiKeys: [userKey.param], authenticators: [], oauthProviders: [] }],
        rootQuorumThreshold: 1,
        wallet: { walletName: 'main', accounts: DEFAULT_WALLET.accounts as never },
      },
    })
    const result = r.activity.result.createSubOrganizationResultV8
    subOrgId = result?.subOrganizationId as string
    walletId = result?.wallet?.walletId as string
    address = result?.wallet?.addresses[0] as string
    expect(subOrgId).toBeTruthy()
  })

  const signBody = () => ({
    type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2' as const,
    timestampMs: String(Date.now()),
    organizationId: subOrgId,
    parameters: {
      signWith: address,
      payload: 'ab'.repeat(32),
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL' as const,
      hashFunction: 'HASH_FUNCTION_NO_OP' as const,
    },
  })

  it('the root admin key cannot sign with, export, or add a key to the user wallet (official client), the user can', async () => {
    const attacker = generateP256KeyPair()
    const sign = admin.signRawPayload(signBody())
    await expect(sign).rejects.toMatchObject({ name: 'TurnkeyRequestError', code: 7 })
    const exported = admin.exportWallet({
      type: 'ACTIVITY_TYPE_EXPORT_WALLET',
      timestampMs: String(Date.now()),
      organizationId: subOrgId,
      parameters: { walletId, targetPublicKey: bytesToHex(attacker.publicKeyUncompressed) },
    })
    await expect(exported).rejects.toMatchObject({ name: 'TurnkeyRequestError', code: 7 })
    const users = await admin.getUsers({ organizationId: subOrgId })
    const ownerId = users.users[0]?.userId as string
    const added = admin.createApiKeys({
      type: 'ACTIVITY_TYPE_CREATE_API_KEYS_V2',
      timestampMs: String(Date.now()),
      organizationId: subOrgId,
      parameters: {
        userId: ownerId,
        apiKeys: [{ apiKeyName: 'planted', publicKey: bytesToHex(attacker.publicKey), curveType: 'API_KEY_CURVE_P256' }],
      },
    })
    await expect(added).rejects.toThrow(/parent organization/)
    // Nothing of it happened: still the user's one key, and the parent reads as before.
    const keys = await admin.getApiKeys({ organizationId: subOrgId, userId: ownerId })
    expect(keys.apiKeys.map((k) => k.credential.publicKey)).toEqual([userKey.publicKey])

    const own = await clientOf(userKey).signRawPayload(signBody())
    expect(own.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
  })

  it('walks every submit type: a parent credential is refused (403) in the sub-organization except the parent-initiated flows', async () => {
    const passed: string[] = []
    for (const op of SUBMIT_OPERATIONS) {
      const r = await svc.post(op.path, submitBody(op.type, subOrgId, {}))
      const custodyRefusal = r.status === 403 && /parent organization/.test(String(r.json?.message))
      if (PARENT_INITIATED.has(operationOf(op))) {
        expect(custodyRefusal, `${op.type}: ${JSON.stringify(r.json)}`).toBe(false)
        passed.push(operationOf(op))
      } else {
        expect(custodyRefusal, `${op.type} answered ${r.status} ${JSON.stringify(r.json)}`).toBe(true)
      }
    }
    // The flows a parent starts for a user who cannot sign yet; nothing that signs, exports or adds credentials.
    expect(new Set(passed)).toEqual(PARENT_INITIATED)
    for (const name of ['sign_raw_payload', 'sign_transaction', 'export_wallet', 'create_api_keys', 'create_read_write_session']) {
      expect(PARENT_INITIATED.has(name)).toBe(false)
    }
  })
})

describe('a relay in the middle cannot plant a key in a first sign-up (defect 12)', () => {
  it('refuses a sign-up whose credentials differ from what the client signed, or that carries no signature', async () => {
    const email = `victim-signup-${Date.now()}@example.com`
    const t = await verifiedToken(email)
    const signed = { apiKeys: [], authenticators: [], email, wallet: DEFAULT_WALLET }
    const clientSignature = signupSignature(t, signed)
    const planted = newApiKey('relay in the middle')
    const base = {
      userEmail: email,
      userName: email,
      verificationToken: t.token,
      authenticators: [],
      oauthProviders: [],
      wallet: DEFAULT_WALLET,
    }

    const withKey = await relay('/v1/signup_v2', { ...base, apiKeys: [planted.param], clientSignature })
    expect(withKey.status).toBe(400)
    expect(withKey.json.message).toMatch(/clientSignature/)
    const unsigned = await relay('/v1/signup_v2', { ...base, apiKeys: [planted.param] })
    expect(unsigned.status).toBe(400)
    // The service itself refuses it too (a relay that skips its own check): the operator's key, no signature.
    const direct = admin.createSubOrganization({
      type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
      timestampMs: String(Date.now()),
      organizationId: rootOrgId,
      parameters: {
        subOrganizationName: 'squat',
        rootUsers: [{ userName: email, userEmail: email, apiKeys: [planted.param], authenticators: [], oauthProviders: [] }],
        rootQuorumThreshold: 1,
        verificationToken: t.token,
      },
    })
    await expect(direct).rejects.toThrow(/clientSignature/)
    const changedWallet = await relay('/v1/signup_v2', {
      ...base,
      apiKeys: [],
      clientSignature,
      wallet: { walletName: 'other', accounts: [] },
    })
    expect(changedWallet.status).toBe(400)
    // No account was made for the address by any of them.
    const lookup = await relay('/v1/account', { filterType: 'EMAIL', filterValue: email, verificationToken: t.token })
    expect(lookup.json.organizationId ?? null).toBeNull()

    // What the client signed goes through, and holds exactly that.
    const honest = await relay('/v1/signup_v2', { ...base, apiKeys: [], clientSignature })
    expect(honest.status, JSON.stringify(honest.json)).toBe(200)
    const users = await admin.getUsers({ organizationId: honest.json.organizationId })
    expect(users.users).toHaveLength(1)
    expect(users.users[0]?.apiKeys).toEqual([])
  })
})

describe('a contact counts only once verified (defect 1)', () => {
  it("an account that sets a victim's email on itself is found by no lookup, login or recovery", async () => {
    const victim = `victim-login-${Date.now()}@example.com`
    // The attacker: an anonymous sign-up (a key, no contact), then his own user takes the victim's email.
    const attackerKey = newApiKey('attacker')
    const anon = await relay('/v1/signup_v2', { userName: 'anon', apiKeys: [attackerKey.param], authenticators: [], oauthProviders: [] })
    expect(anon.status).toBe(200)
    const attackerOrg: string = anon.json.organizationId
    const attacker = clientOf(attackerKey)
    await attacker.updateUserEmail({
      type: 'ACTIVITY_TYPE_UPDATE_USER_EMAIL',
      timestampMs: String(Date.now()),
      organizationId: attackerOrg,
      parameters: { userId: anon.json.userId, userEmail: victim },
    })

    // The victim's first, correct email login: no account yet, so a sign-up of her own.
    let t = await verifiedToken(victim)
    const before = await relay('/v1/account', { filterType: 'EMAIL', filterValue: victim, verificationToken: t.token })
    expect(before.status).toBe(200)
    expect(before.json.organizationId ?? null).toBeNull()
    const signup = await relay('/v1/signup_v2', {
      userEmail: victim,
      userName: victim,
      verificationToken: t.token,
      clientSignature: signupSignature(t, { apiKeys: [], authenticators: [], email: victim, wallet: DEFAULT_WALLET }),
      apiKeys: [],
      authenticators: [],
      oauthProviders: [],
      wallet: DEFAULT_WALLET,
    })
    expect(signup.status, JSON.stringify(signup.json)).toBe(200)
    const victimOrg: string = signup.json.organizationId
    expect(victimOrg).not.toBe(attackerOrg)

    // Every later login, lookup and recovery lands in hers, never in the older attacker account.
    t = await verifiedToken(victim)
    const lookup = await relay('/v1/account', { filterType: 'EMAIL', filterValue: victim, verificationToken: t.token })
    expect(lookup.json.organizationId).toBe(victimOrg)
    const subs = await admin.getSubOrgIds({ organizationId: rootOrgId, filterType: 'EMAIL', filterValue: victim })
    expect(subs.organizationIds).toEqual([victimOrg])
    const loginKey = generateP256KeyPair()
    const intoAttacker = await relay('/v1/otp_login', {
      verificationToken: t.token,
      publicKey: bytesToHex(t.key.publicKey),
      organizationId: attackerOrg,
    })
    expect(intoAttacker.status, JSON.stringify(intoAttacker.json)).toBe(404)
    const login = await relay('/v1/otp_login', { verificationToken: t.token, publicKey: bytesToHex(t.key.publicKey) })
    expect(login.status, JSON.stringify(login.json)).toBe(200)
    const claims = JSON.parse(Buffer.from(String(login.json.session).split('.')[1] as string, 'base64url').toString())
    expect(claims.organization_id).toBe(victimOrg)
    const recovery = await relay('/v1/recovery_init', { email: victim, targetPublicKey: bytesToHex(loginKey.publicKeyUncompressed) })
    expect(recovery.status).toBe(200)
    expect(recovery.json.organizationId).toBe(victimOrg)
  })

  it('with a verification token for it, the change counts', async () => {
    const email = `proven-change-${Date.now()}@example.com`
    const key = newApiKey('changer')
    const anon = await relay('/v1/signup_v2', { userName: 'changer', apiKeys: [key.param], authenticators: [], oauthProviders: [] })
    const t = await verifiedToken(email)
    await clientOf(key).updateUserEmail({
      type: 'ACTIVITY_TYPE_UPDATE_USER_EMAIL',
      timestampMs: String(Date.now()),
      organizationId: anon.json.organizationId,
      parameters: { userId: anon.json.userId, userEmail: email, verificationToken: t.token },
    })
    const t2 = await verifiedToken(email)
    const lookup = await relay('/v1/account', { filterType: 'EMAIL', filterValue: email, verificationToken: t2.token })
    expect(lookup.json.organizationId).toBe(anon.json.organizationId)
  })

  it('two accounts claiming one verified contact: the relay refuses rather than guessing', async () => {
    const email = `twice-${Date.now()}@example.com`
    for (const name of ['first', 'second']) {
      await admin.createSubOrganization({
        type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
        timestampMs: String(Date.now()),
        organizationId: rootOrgId,
        parameters: {
          subOrganizationName: name,
          rootUsers: [{ userName: name, userEmail: email, apiKeys: [newApiKey().param], authenticators: [], oauthProviders: [] }],
          rootQuorumThreshold: 1,
        },
      })
    }
    const t = await verifiedToken(email)
    const lookup = await relay('/v1/account', { filterType: 'EMAIL', filterValue: email, verificationToken: t.token })
    expect(lookup.status).toBe(412)
    expect(lookup.json.message).toMatch(/more than one account/)
    const login = await relay('/v1/otp_login', { verificationToken: t.token, publicKey: bytesToHex(t.key.publicKey) })
    expect(login.status).toBe(412)
  })
})
