/**
 * The engine's cache of parsed policies: every create, update and delete of a policy is
 * seen by the next activity, in the instance that made it and (on PostgreSQL) in another instance
 * on the same database that had the old set cached. A cached set without a new DENY is never used.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newApiKey } from './helpers/keys.js'
import { freshDatabaseUrl, startTestService, submitBody, type TestService } from './helpers/service.js'

type Key = { publicKey: string; privateKeyHex: string }
const now = () => String(Date.now())
const clientOf = (url: string, k: Key) =>
  new TurnkeyClient({ baseUrl: url }, new ApiKeyStamper({ apiPublicKey: k.publicKey, apiPrivateKey: k.privateKeyHex }))

/** An organization with a non-root user `bob` and a wallet, on the service `svc`. */
async function setUp(svc: TestService) {
  const root = svc.admin.organizationId
  const bobKey = newApiKey('bob')
  const r = await svc.post(
    '/public/v1/submit/create_users',
    submitBody('ACTIVITY_TYPE_CREATE_USERS_V3', root, {
      users: [{ userName: 'bob', apiKeys: [bobKey.param], authenticators: [], oauthProviders: [], userTags: [] }],
    }),
  )
  expect(r.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
  const bobId = r.json.activity.result.createUsersResult.userIds[0] as string
  const admin = clientOf(svc.url, { publicKey: svc.admin.publicKey, privateKeyHex: svc.admin.privateKey })
  const wallet = await admin.createWallet({
    type: 'ACTIVITY_TYPE_CREATE_WALLET',
    timestampMs: now(),
    organizationId: root,
    parameters: {
      walletName: 'cache',
      accounts: [
        { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
      ],
    },
  })
  const address = wallet.activity.result.createWalletResult?.addresses[0] as string
  return { root, bobKey, bobId, address }
}

/** The policy operations through `admin`, and bob's signing through `bob` (both official clients). */
function actions(root: string, admin: TurnkeyClient, bob: TurnkeyClient, address: string) {
  return {
    async create(policyName: string, effect: 'EFFECT_ALLOW' | 'EFFECT_DENY', condition: string) {
      const r = await admin.createPolicy({
        type: 'ACTIVITY_TYPE_CREATE_POLICY_V3',
        timestampMs: now(),
        organizationId: root,
        parameters: { policyName, effect, condition, consensus: '', notes: '' },
      })
      return r.activity.result.createPolicyResult?.policyId as string
    },
    async update(policyId: string, condition: string) {
      await admin.updatePolicy({
        type: 'ACTIVITY_TYPE_UPDATE_POLICY_V2',
        timestampMs: now(),
        organizationId: root,
        parameters: { policyId, policyCondition: condition },
      })
    },
    async remove(policyId: string) {
      await admin.deletePolicy({ type: 'ACTIVITY_TYPE_DELETE_POLICY', timestampMs: now(), organizationId: root, parameters: { policyId } })
    },
    /** Bob signs: 'COMPLETED', 'DENIED' (403 POLICY_DENIED, gRPC code 7) or the activity's other status. */
    async sign(): Promise<string> {
      try {
        const r = await bob.signRawPayload({
          type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
          timestampMs: now(),
          organizationId: root,
          parameters: {
            signWith: address,
            payload: crypto.getRandomValues(new Uint8Array(32)).reduce((s, b) => s + b.toString(16).padStart(2, '0'), ''),
            encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
            hashFunction: 'HASH_FUNCTION_NO_OP',
          },
        })
        return r.activity.status === 'ACTIVITY_STATUS_COMPLETED' ? 'COMPLETED' : r.activity.status
      } catch (e) {
        const err = e as { code?: number; message?: string }
        if (err.code === 7 && String(err.message).includes('OUTCOME_DENY_EXPLICIT')) return 'DENIED'
        throw e
      }
    },
  }
}

const SIGNING = "activity.resource == 'PRIVATE_KEY' && activity.action == 'SIGN'"

describe('the parsed policies cache, one instance', () => {
  let svc: TestService
  beforeAll(async () => {
    svc = await startTestService()
  })
  afterAll(async () => {
    await svc?.stop()
  })

  it('sees each create, update and delete at the next activity', async () => {
    const { root, bobKey, address } = await setUp(svc)
    const admin = clientOf(svc.url, { publicKey: svc.admin.publicKey, privateKeyHex: svc.admin.privateKey })
    const a = actions(root, admin, clientOf(svc.url, bobKey), address)
    const allow = await a.create('bob signs', 'EFFECT_ALLOW', SIGNING)
    expect(await a.sign()).toBe('COMPLETED')
    expect(await a.sign()).toBe('COMPLETED') // from the cache
    const deny = await a.create('no signing', 'EFFECT_DENY', SIGNING)
    expect(await a.sign()).toBe('DENIED')
    await a.update(deny, "activity.type == 'ACTIVITY_TYPE_DELETE_WALLETS'")
    expect(await a.sign()).toBe('COMPLETED')
    await a.update(deny, `activity.params.sign_with == '${address}'`)
    expect(await a.sign()).toBe('DENIED')
    await a.remove(deny)
    expect(await a.sign()).toBe('COMPLETED')
    await a.remove(allow)
    expect(await a.sign()).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
  })
})

describe.skipIf(!process.env.DATABASE_URL)('the parsed policies cache, two instances on one PostgreSQL', () => {
  let one: TestService
  let two: TestService
  const dataDir = mkdtempSync(join(tmpdir(), 'sigil-policy-cache-'))
  beforeAll(async () => {
    // One database and one data dir (its master key and admin key): two instances of one deployment.
    const databaseUrl = await freshDatabaseUrl()
    one = await startTestService({ databaseUrl, dataDir })
    two = await startTestService({ databaseUrl, dataDir })
  })
  afterAll(async () => {
    await one?.stop()
    await two?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('an instance with the old set cached sees a policy created, updated or deleted through another', async () => {
    const { root, bobKey, address } = await setUp(one)
    const adminKey = { publicKey: one.admin.publicKey, privateKeyHex: one.admin.privateKey }
    // Policies are managed through instance one; bob signs through instance two.
    const a = actions(root, clientOf(one.url, adminKey), clientOf(two.url, bobKey), address)
    await a.create('bob signs', 'EFFECT_ALLOW', SIGNING)
    expect(await a.sign()).toBe('COMPLETED')
    expect(await a.sign()).toBe('COMPLETED') // instance two has the set cached now
    const deny = await a.create('no signing', 'EFFECT_DENY', SIGNING)
    expect(await a.sign()).toBe('DENIED')
    await a.update(deny, "activity.type == 'ACTIVITY_TYPE_DELETE_WALLETS'")
    expect(await a.sign()).toBe('COMPLETED')
    await a.update(deny, SIGNING)
    expect(await a.sign()).toBe('DENIED')
    await a.remove(deny)
    expect(await a.sign()).toBe('COMPLETED')
  })
})
