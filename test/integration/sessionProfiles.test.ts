/**
 * Session profiles through the official client: the parent organization creates immutable profiles
 * (create_session_profile, get_session_profile(s)); a sub-organization's login naming one
 * (stamp_login `sessionProfileId`) gets a session whose JWT `session_type` is the profile's name,
 * whose lifetime is the shorter of the intent's and the profile's, and whose every activity must
 * satisfy the profile's scope — false or an evaluation error refuses it.
 */
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex } from '../../src/crypto/encoding.js'
import { decodeJwtPayload } from '../../src/crypto/jwt.js'
import { generateP256KeyPair } from '../../src/crypto/p256.js'
import { newApiKey } from './helpers/keys.js'
import { adminTurnkeyClient, startTestService, type TestService } from './helpers/service.js'

let svc: TestService
let admin: TurnkeyClient
let root: string
let sub: { id: string; client: TurnkeyClient; walletAddress: string }

const ts = () => String(Date.now())

async function createProfile(by: TurnkeyClient, organizationId: string, parameters: Record<string, string>) {
  const r = await by.createSessionProfile({
    type: 'ACTIVITY_TYPE_CREATE_SESSION_PROFILE',
    timestampMs: ts(),
    organizationId,
    parameters: parameters as never,
  })
  return r.activity.result.createSessionProfileResult?.sessionProfileId as string
}

/** stamp_login in the sub-organization under `sessionProfileId`: the session JWT and a client on the session key. */
async function login(sessionProfileId: string | undefined, expirationSeconds?: string) {
  const kp = generateP256KeyPair()
  const publicKey = bytesToHex(kp.publicKey)
  const r = await sub.client.stampLogin({
    type: 'ACTIVITY_TYPE_STAMP_LOGIN',
    timestampMs: ts(),
    organizationId: sub.id,
    parameters: { publicKey, ...(sessionProfileId ? { sessionProfileId } : {}), ...(expirationSeconds ? { expirationSeconds } : {}) },
  })
  const session = r.activity.result.stampLoginResult?.session as string
  const client = new TurnkeyClient(
    { baseUrl: svc.url },
    new ApiKeyStamper({ apiPublicKey: publicKey, apiPrivateKey: bytesToHex(kp.privateKey) }),
  )
  return { session, client, publicKey }
}

const signRaw = (client: TurnkeyClient) =>
  client.signRawPayload({
    type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
    timestampMs: ts(),
    organizationId: sub.id,
    parameters: {
      signWith: sub.walletAddress,
      payload: 'ab'.repeat(32),
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    },
  })

const createWallet = (client: TurnkeyClient, name: string) =>
  client.createWallet({
    type: 'ACTIVITY_TYPE_CREATE_WALLET',
    timestampMs: ts(),
    organizationId: sub.id,
    parameters: { walletName: name, accounts: [] },
  })

beforeAll(async () => {
  svc = await startTestService()
  admin = adminTurnkeyClient(svc)
  root = svc.admin.organizationId
  const key = newApiKey('sub admin')
  const r = await admin.createSubOrganization({
    type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
    timestampMs: ts(),
    organizationId: root,
    parameters: {
      subOrganizationName: 'profiled',
      rootUsers: [{ userName: 'profiled-user', apiKeys: [key.param], authenticators: [], oauthProviders: [] }],
      rootQuorumThreshold: 1,
      wallet: {
        walletName: 'w',
        accounts: [
          { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
        ],
      },
    },
  })
  const result = r.activity.result.createSubOrganizationResultV8
  sub = {
    id: result?.subOrganizationId as string,
    client: new TurnkeyClient({ baseUrl: svc.url }, new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKeyHex })),
    walletAddress: result?.wallet?.addresses[0] as string,
  }
  expect(sub.walletAddress).toMatch(/^0x/)
}, 60_000)

afterAll(async () => {
  await svc?.close()
})

describe('session profiles (official client)', () => {
  it('creates immutable profiles the parent reads back one by one and all together', async () => {
    const id = await createProfile(admin, root, {
      sessionProfileName: 'read-and-sign',
      scope: "activity.action == 'SIGN'",
      expirationSeconds: '120',
      notes: 'signing only',
    })
    const one = (await admin.getSessionProfile({ organizationId: root, sessionProfileId: id })).sessionProfile
    expect(one).toMatchObject({
      sessionProfileId: id,
      sessionProfileName: 'read-and-sign',
      scope: "activity.action == 'SIGN'",
      expirationSeconds: '120',
      notes: 'signing only',
    })
    expect(Number(one.createdAt.seconds)).toBeGreaterThan(0)
    const all = (await admin.getSessionProfiles({ organizationId: root })).sessionProfiles
    expect(all.map((p) => p.sessionProfileId)).toContain(id)
    // Another organization does not see it.
    await expect(sub.client.getSessionProfile({ organizationId: sub.id, sessionProfileId: id })).rejects.toThrow(/sessionProfileId/)
    expect((await sub.client.getSessionProfiles({ organizationId: sub.id })).sessionProfiles).toEqual([])
  })

  it('refuses a scope that is not policy language, a repeated name and a name the session token cannot carry, naming the field', async () => {
    await expect(createProfile(admin, root, { sessionProfileName: 'bad', scope: "activity.action == 'SIGN" })).rejects.toThrow(
      /parameters\.scope/,
    )
    await createProfile(admin, root, { sessionProfileName: 'twice', scope: 'true' })
    await expect(createProfile(admin, root, { sessionProfileName: 'twice', scope: 'true' })).rejects.toThrow(
      /parameters\.sessionProfileName/,
    )
    await expect(createProfile(admin, root, { sessionProfileName: 'a > b', scope: 'true' })).rejects.toThrow(
      /parameters\.sessionProfileName/,
    )
    await expect(createProfile(admin, root, { sessionProfileName: 'x', scope: 'true', expirationSeconds: '0' })).rejects.toThrow(
      /parameters\.expirationSeconds/,
    )
    const names = (await admin.getSessionProfiles({ organizationId: root })).sessionProfiles.map((p) => p.sessionProfileName)
    expect(names.filter((n) => n === 'twice')).toHaveLength(1)
    expect(names).not.toContain('bad')
  })

  it("a sub-organization's login under the parent's profile: its name is the session type, the shorter lifetime wins, and the scope decides each activity", async () => {
    const id = await createProfile(admin, root, {
      sessionProfileName: 'signer',
      scope: "activity.action == 'SIGN'",
      expirationSeconds: '300',
    })
    const before = Math.floor(Date.now() / 1000)
    const s = await login(id, '3600')
    const claims = decodeJwtPayload(s.session)
    expect(claims?.session_type).toBe('signer')
    expect(Number(claims?.exp) - before).toBeGreaterThanOrEqual(299)
    expect(Number(claims?.exp) - before).toBeLessThanOrEqual(302)
    // The session key carries the profile.
    const keys = (await sub.client.getApiKeys({ organizationId: sub.id })).apiKeys
    const sessionKey = keys.find((k) => k.credential.publicKey === s.publicKey)
    expect(sessionKey?.credential).toMatchObject({ type: 'CREDENTIAL_TYPE_LOGIN', sessionProfileId: id })
    expect(sessionKey?.expirationSeconds).toBe('300')
    // Signing is in scope…
    const signed = await signRaw(s.client)
    expect(signed.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(signed.activity.result.signRawPayloadResult?.r).toMatch(/^[0-9a-f]{64}$/i)
    // …creating a wallet is not, and nothing is created.
    await expect(createWallet(s.client, 'out of scope')).rejects.toThrow(/SESSION_SCOPE_DENIED|session profile 'signer'/)
    const wallets = (await sub.client.getWallets({ organizationId: sub.id })).wallets
    expect(wallets.map((w) => w.walletName)).not.toContain('out of scope')
    // The scoped session cannot log itself into a wider session: a login it stamps keeps its profile.
    await expect(
      s.client.stampLogin({
        type: 'ACTIVITY_TYPE_STAMP_LOGIN',
        timestampMs: ts(),
        organizationId: sub.id,
        parameters: { publicKey: bytesToHex(generateP256KeyPair().publicKey) },
      }),
    ).rejects.toThrow(/session profile 'signer'/)
    // A login without a profile is unrestricted, as before.
    const plain = await login(undefined)
    expect(decodeJwtPayload(plain.session)?.session_type).toBe('SESSION_TYPE_READ_WRITE')
    expect((await createWallet(plain.client, 'in a plain session')).activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
  })

  it("an intent shorter than the profile's lifetime wins; the profile's alone applies when the intent gives none", async () => {
    const id = await createProfile(admin, root, { sessionProfileName: 'short', scope: 'true', expirationSeconds: '600' })
    const now = Math.floor(Date.now() / 1000)
    const shorter = decodeJwtPayload((await login(id, '60')).session)
    expect(Number(shorter?.exp) - now).toBeLessThanOrEqual(62)
    const profileOnly = decodeJwtPayload((await login(id)).session)
    expect(Number(profileOnly?.exp) - now).toBeGreaterThanOrEqual(599)
    expect(Number(profileOnly?.exp) - now).toBeLessThanOrEqual(602)
    // A login stamped by a session under the profile stays under it, and cannot name another.
    const scoped = await login(id)
    const again = await scoped.client.stampLogin({
      type: 'ACTIVITY_TYPE_STAMP_LOGIN',
      timestampMs: ts(),
      organizationId: sub.id,
      parameters: { publicKey: bytesToHex(generateP256KeyPair().publicKey) },
    })
    expect(decodeJwtPayload(again.activity.result.stampLoginResult?.session as string)?.session_type).toBe('short')
    const other = await createProfile(admin, root, { sessionProfileName: 'other', scope: 'true' })
    await expect(
      scoped.client.stampLogin({
        type: 'ACTIVITY_TYPE_STAMP_LOGIN',
        timestampMs: ts(),
        organizationId: sub.id,
        parameters: { publicKey: bytesToHex(generateP256KeyPair().publicKey), sessionProfileId: other },
      }),
    ).rejects.toThrow(/parameters\.sessionProfileId/)
  })

  it('a scope that cannot be evaluated on an activity denies it', async () => {
    // eth.tx exists only on Ethereum transactions: on a raw payload the field is missing.
    const id = await createProfile(admin, root, {
      sessionProfileName: 'eth-only',
      scope: "eth.tx.to == '0x0000000000000000000000000000000000000001'",
    })
    const s = await login(id)
    await expect(signRaw(s.client)).rejects.toThrow(/could not be evaluated/)
  })

  it("refuses a profile that is not the user's organization's or an ancestor's, naming the field", async () => {
    const own = await createProfile(sub.client, sub.id, { sessionProfileName: 'sub-own', scope: 'true' })
    // The sub-organization's own profile works for its own users…
    expect(decodeJwtPayload((await login(own)).session)?.session_type).toBe('sub-own')
    // …a sibling organization's profile does not work for them…
    const siblingKey = newApiKey('sibling admin')
    const sibling = await admin.createSubOrganization({
      type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
      timestampMs: ts(),
      organizationId: root,
      parameters: {
        subOrganizationName: 'sibling',
        rootUsers: [{ userName: 'sibling-user', apiKeys: [siblingKey.param], authenticators: [], oauthProviders: [] }],
        rootQuorumThreshold: 1,
      },
    })
    const siblingId = sibling.activity.result.createSubOrganizationResultV8?.subOrganizationId as string
    const siblingClient = new TurnkeyClient(
      { baseUrl: svc.url },
      new ApiKeyStamper({ apiPublicKey: siblingKey.publicKey, apiPrivateKey: siblingKey.privateKeyHex }),
    )
    const siblings = await createProfile(siblingClient, siblingId, { sessionProfileName: 'sibling-own', scope: 'true' })
    await expect(login(siblings)).rejects.toThrow(/parameters\.sessionProfileId/)
    // …an unknown id does not either, and no session key is registered for it.
    const keysBefore = (await sub.client.getApiKeys({ organizationId: sub.id })).apiKeys.length
    await expect(login('00000000-0000-4000-8000-000000000000')).rejects.toThrow(/parameters\.sessionProfileId/)
    expect((await sub.client.getApiKeys({ organizationId: sub.id })).apiKeys.length).toBe(keysBefore)
  })
})
