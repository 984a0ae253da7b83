/**
 * MFA policies through the official client: a sub-organization's user gets a policy (create, read
 * one and all, on the user object, update, delete, field errors); an activity its condition covers
 * waits in ACTIVITY_STATUS_AUTHENTICATORS_NEEDED after the API-key stamp, another API key's approval
 * does not complete it, the user's passkey (approve_activity stamped with WebAuthn) does, and
 * get_mfa_status tells what is still needed. Uncovered activities, and all after the delete, run at once.
 */
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXTENSION_ORIGIN } from '../../src/api/identity.js'
import { bytesToHex } from '../../src/crypto/encoding.js'
import { generateP256KeyPair } from '../../src/crypto/p256.js'
import { createSoftAuthenticator, authenticatorParam, randomChallenge, type SoftAuthenticator } from '../helpers/softAuthenticator.js'
import { newApiKey } from './helpers/keys.js'
import { adminTurnkeyClient, startTestService, type TestService } from './helpers/service.js'

let svc: TestService
let sub: { id: string; userId: string; walletAddress: string; passkeyId: string }
let keyA: TurnkeyClient
let keyB: TurnkeyClient
let passkey: TurnkeyClient
let soft: SoftAuthenticator

const ts = () => String(Date.now())
const apiClient = (k: ReturnType<typeof newApiKey>) =>
  new TurnkeyClient({ baseUrl: svc.url }, new ApiKeyStamper({ apiPublicKey: k.publicKey, apiPrivateKey: k.privateKeyHex }))

const API_KEY_THEN_PASSKEY = [
  { any: [{ type: 'AUTHENTICATION_TYPE_API_KEY' as const, invitationIds: [] }] },
  { any: [{ type: 'AUTHENTICATION_TYPE_PASSKEY' as const, invitationIds: [] }] },
]

async function createPolicy(parameters: Record<string, unknown>) {
  const r = await keyA.createMfaPolicy({
    type: 'ACTIVITY_TYPE_CREATE_MFA_POLICY',
    timestampMs: ts(),
    organizationId: sub.id,
    parameters: { userId: sub.userId, ...parameters } as never,
  })
  return r.activity.result.createMfaPolicyResult?.mfaPolicyId as string
}

/** The error message of a call expected to fail. */
async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p
  } catch (e) {
    return (e as Error).message
  }
  throw new Error('expected the call to fail')
}

const signRaw = (client: TurnkeyClient, payload: string) =>
  client.signRawPayload({
    type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
    timestampMs: ts(),
    organizationId: sub.id,
    parameters: { signWith: sub.walletAddress, payload, encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_NO_OP' },
  })

const approve = (client: TurnkeyClient, fingerprint: string) =>
  client.approveActivity({ type: 'ACTIVITY_TYPE_APPROVE_ACTIVITY', timestampMs: ts(), organizationId: sub.id, parameters: { fingerprint } })

const activity = async (activityId: string) => (await keyA.getActivity({ organizationId: sub.id, activityId })).activity

beforeAll(async () => {
  svc = await startTestService()
  const admin = adminTurnkeyClient(svc)
  const a = newApiKey('key A')
  const b = newApiKey('key B')
  soft = createSoftAuthenticator({ rpId: EXTENSION_ORIGIN, origin: EXTENSION_ORIGIN })
  const r = await admin.createSubOrganization({
    type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
    timestampMs: ts(),
    organizationId: svc.admin.organizationId,
    parameters: {
      subOrganizationName: 'mfa',
      rootUsers: [
        {
          userName: 'mfa-user',
          apiKeys: [a.param, b.param],
          authenticators: [authenticatorParam(soft, randomChallenge(), 'mfa passkey') as never],
          oauthProviders: [],
        },
      ],
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
  keyA = apiClient(a)
  keyB = apiClient(b)
  passkey = new TurnkeyClient({ baseUrl: svc.url }, soft.stamper())
  const subId = result?.subOrganizationId as string
  const user = (await keyA.getUsers({ organizationId: subId })).users[0]
  sub = {
    id: subId,
    userId: result?.rootUserIds?.[0] as string,
    walletAddress: result?.wallet?.addresses[0] as string,
    passkeyId: user?.authenticators[0]?.authenticatorId as string,
  }
  expect(sub.walletAddress).toMatch(/^0x/)
  expect(sub.passkeyId).toBeTruthy()
}, 60_000)

afterAll(async () => {
  await svc?.close()
})

describe('MFA policies (official client)', () => {
  it('creates, reads, lists on the user, updates and deletes a policy; bad input names its field', async () => {
    const id = await createPolicy({
      mfaPolicyName: 'never',
      condition: "activity.type == 'ACTIVITY_TYPE_NOTHING'",
      requiredAuthenticationMethods: [{ any: [{ type: 'AUTHENTICATION_TYPE_PASSKEY', id: sub.passkeyId, invitationIds: [] }] }],
      order: 5,
      notes: 'for the test',
    })
    const one = (await keyA.getMfaPolicy({ organizationId: sub.id, userId: sub.userId, mfaPolicyId: id })).mfaPolicy
    expect(one).toMatchObject({
      mfaPolicyId: id,
      mfaPolicyName: 'never',
      order: 5,
      notes: 'for the test',
      requiredAuthenticationMethods: [{ any: [{ type: 'AUTHENTICATION_TYPE_PASSKEY', id: sub.passkeyId }] }],
    })
    expect(Number(one.createdAt.seconds)).toBeGreaterThan(0)
    const user = (await keyA.getUser({ organizationId: sub.id, userId: sub.userId })).user
    expect(user.mfaPolicies.map((p) => p.mfaPolicyId)).toEqual([id])

    await keyA.updateMfaPolicy({
      type: 'ACTIVITY_TYPE_UPDATE_MFA_POLICY',
      timestampMs: ts(),
      organizationId: sub.id,
      parameters: { userId: sub.userId, mfaPolicyId: id, mfaPolicyName: 'renamed', order: 7 },
    })
    const all = (await keyA.getMfaPolicies({ organizationId: sub.id, userId: sub.userId })).mfaPolicies
    expect(all).toHaveLength(1)
    expect(all[0]).toMatchObject({ mfaPolicyName: 'renamed', order: 7, condition: "activity.type == 'ACTIVITY_TYPE_NOTHING'" })

    expect(
      await failure(
        createPolicy({ mfaPolicyName: 'x', condition: 'activity.type ==', requiredAuthenticationMethods: API_KEY_THEN_PASSKEY, order: 0 }),
      ),
    ).toContain('parameters.condition')
    expect(
      await failure(
        createPolicy({
          mfaPolicyName: 'x',
          condition: 'true',
          requiredAuthenticationMethods: [{ any: [{ type: 'AUTHENTICATION_TYPE_FINGER' }] }],
          order: 0,
        }),
      ),
    ).toContain('parameters.requiredAuthenticationMethods[0].any[0].type')
    expect(await failure(createPolicy({ mfaPolicyName: 'x', condition: 'true', requiredAuthenticationMethods: [], order: 0 }))).toContain(
      'parameters.requiredAuthenticationMethods',
    )
    expect(
      await failure(
        keyA.createMfaPolicy({
          type: 'ACTIVITY_TYPE_CREATE_MFA_POLICY',
          timestampMs: ts(),
          organizationId: sub.id,
          parameters: {
            userId: 'no-such-user',
            mfaPolicyName: 'x',
            condition: 'true',
            requiredAuthenticationMethods: API_KEY_THEN_PASSKEY,
            order: 0,
          },
        }),
      ),
    ).toContain('parameters.userId')

    await keyA.deleteMfaPolicy({
      type: 'ACTIVITY_TYPE_DELETE_MFA_POLICY',
      timestampMs: ts(),
      organizationId: sub.id,
      parameters: { userId: sub.userId, mfaPolicyId: id },
    })
    expect((await keyA.getMfaPolicies({ organizationId: sub.id, userId: sub.userId })).mfaPolicies).toEqual([])
    expect(await failure(keyA.getMfaPolicy({ organizationId: sub.id, userId: sub.userId, mfaPolicyId: id }))).toContain('mfaPolicyId')
    expect(
      await failure(
        keyA.deleteMfaPolicy({
          type: 'ACTIVITY_TYPE_DELETE_MFA_POLICY',
          timestampMs: ts(),
          organizationId: sub.id,
          parameters: { userId: sub.userId, mfaPolicyId: id },
        }),
      ),
    ).toContain('parameters.mfaPolicyId')
  })

  it('a covered activity waits for the passkey: another API key does not complete it, the passkey does; uncovered ones run at once', async () => {
    const id = await createPolicy({
      mfaPolicyName: 'sign with a passkey',
      condition: "activity.action == 'SIGN'",
      requiredAuthenticationMethods: API_KEY_THEN_PASSKEY,
      order: 0,
    })
    const waiting = (await signRaw(keyA, 'ab'.repeat(32))).activity
    expect(waiting.status).toBe('ACTIVITY_STATUS_AUTHENTICATORS_NEEDED')
    expect(waiting.result.signRawPayloadResult).toBeUndefined()

    const before = (await keyA.getMfaStatus({ organizationId: sub.id, activityId: waiting.id })).mfaStatuses
    expect(before).toEqual([
      {
        mfaPolicyId: id,
        userId: sub.userId,
        satisfied: false,
        satisfiedMethods: [expect.objectContaining({ type: 'AUTHENTICATION_TYPE_API_KEY' })],
        requiredMethods: [{ any: [{ type: 'AUTHENTICATION_TYPE_API_KEY' }] }, { any: [{ type: 'AUTHENTICATION_TYPE_PASSKEY' }] }],
      },
    ])

    // A second API key is the same kind of credential: it proves nothing the policy still needs.
    expect(await failure(approve(keyB, waiting.fingerprint))).toMatch(/AUTHENTICATION_TYPE_API_KEY does not satisfy/)
    expect((await activity(waiting.id)).status).toBe('ACTIVITY_STATUS_AUTHENTICATORS_NEEDED')

    // An activity the condition does not cover completes at once.
    const wallet = await keyA.createWallet({
      type: 'ACTIVITY_TYPE_CREATE_WALLET',
      timestampMs: ts(),
      organizationId: sub.id,
      parameters: { walletName: 'not covered', accounts: [] },
    })
    expect(wallet.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')

    // The user's passkey proves the second step: the activity runs and its result is there.
    await approve(passkey, waiting.fingerprint)
    const done = await activity(waiting.id)
    expect(done.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(done.result.signRawPayloadResult?.r).toMatch(/^[0-9a-f]{64}$/i)
    const after = (await keyA.getMfaStatus({ organizationId: sub.id, activityId: waiting.id, userId: sub.userId })).mfaStatuses
    expect(after[0]?.satisfied).toBe(true)
    expect(after[0]?.satisfiedMethods.map((m) => m.type)).toEqual(['AUTHENTICATION_TYPE_API_KEY', 'AUTHENTICATION_TYPE_PASSKEY'])

    // Deleted: signing no longer waits.
    await keyA.deleteMfaPolicy({
      type: 'ACTIVITY_TYPE_DELETE_MFA_POLICY',
      timestampMs: ts(),
      organizationId: sub.id,
      parameters: { userId: sub.userId, mfaPolicyId: id },
    })
    const now = (await signRaw(keyA, 'cd'.repeat(32))).activity
    expect(now.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect((await keyA.getMfaStatus({ organizationId: sub.id, activityId: now.id })).mfaStatuses).toEqual([])
  })
  it("a login session (stamp_login's key) proves a SESSION step, which a second API key does not", async () => {
    const id = await createPolicy({
      mfaPolicyName: 'sign from a session too',
      condition: "activity.action == 'SIGN'",
      requiredAuthenticationMethods: [
        { any: [{ type: 'AUTHENTICATION_TYPE_API_KEY', invitationIds: [] }] },
        { any: [{ type: 'AUTHENTICATION_TYPE_SESSION', invitationIds: [] }] },
      ],
      order: 0,
    })
    const kp = generateP256KeyPair()
    await keyA.stampLogin({
      type: 'ACTIVITY_TYPE_STAMP_LOGIN',
      timestampMs: ts(),
      organizationId: sub.id,
      parameters: { publicKey: bytesToHex(kp.publicKey) },
    })
    const session = new TurnkeyClient(
      { baseUrl: svc.url },
      new ApiKeyStamper({ apiPublicKey: bytesToHex(kp.publicKey), apiPrivateKey: bytesToHex(kp.privateKey) }),
    )
    const waiting = (await signRaw(keyA, 'ef'.repeat(32))).activity
    expect(waiting.status).toBe('ACTIVITY_STATUS_AUTHENTICATORS_NEEDED')
    expect(await failure(approve(keyB, waiting.fingerprint))).toMatch(/AUTHENTICATION_TYPE_API_KEY does not satisfy/)
    await approve(session, waiting.fingerprint)
    const done = await activity(waiting.id)
    expect(done.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(done.result.signRawPayloadResult?.r).toMatch(/^[0-9a-f]{64}$/i)
    await keyA.deleteMfaPolicy({
      type: 'ACTIVITY_TYPE_DELETE_MFA_POLICY',
      timestampMs: ts(),
      organizationId: sub.id,
      parameters: { userId: sub.userId, mfaPolicyId: id },
    })
  })
})
