/**
 * The extension's activity module against the real service: the background's
 * listActivities / vote (src/extension/background/activity/activities.ts) with Sigil's typed client, for
 * users outside the root quorum. The user a waiting policy's consensus names sees the activity
 * as theirs to approve, with who must approve in words, and their vote completes it; a user it
 * does not name is not asked; a denial reads "Denied by policy 'name'"; and a denied submit is the
 * popup failure POLICY_DENIED with the policy's name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient, type SigilClient } from '../../src/api/client.js'
import { listActivities, vote } from '../../src/extension/background/activity/activities.js'
import type { ActiveSession } from '../../src/extension/background/core.js'
import { toPopupFailure } from '../../src/extension/background/failures.js'
import { newApiKey } from './helpers/keys.js'
import { startTestService, submitBody, type TestService } from './helpers/service.js'

let svc: TestService
let root: string
let address: string
const people = ['bob', 'carol', 'dave'] as const
type Person = (typeof people)[number]
const keys = Object.fromEntries(people.map((p) => [p, newApiKey(p)])) as Record<Person, ReturnType<typeof newApiKey>>
const ids = {} as Record<Person, string>
const clients = {} as Record<Person, SigilClient>
const session = (p: Person) => ({ record: { organizationId: root, userId: ids[p] }, stamper: keys[p].stamper }) as unknown as ActiveSession

beforeAll(async () => {
  svc = await startTestService()
  root = svc.admin.organizationId
  const r = await svc.post(
    '/public/v1/submit/create_users',
    submitBody('ACTIVITY_TYPE_CREATE_USERS_V3', root, {
      users: people.map((p) => ({ userName: p, apiKeys: [keys[p].param], authenticators: [], oauthProviders: [], userTags: [] })),
    }),
  )
  r.json.activity.result.createUsersResult.userIds.forEach((id: string, i: number) => {
    ids[people[i] as Person] = id
  })
  for (const p of people) clients[p] = createClient({ baseUrl: svc.url, stamper: keys[p].stamper })
  const w = await svc.post(
    '/public/v1/submit/create_wallet',
    submitBody('ACTIVITY_TYPE_CREATE_WALLET', root, {
      walletName: 'ext',
      accounts: [
        { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
      ],
    }),
  )
  address = w.json.activity.result.createWalletResult.addresses[0]
})
afterAll(async () => {
  await svc?.stop()
})

async function createPolicy(policyName: string, effect: string, condition: string, consensus = '') {
  const r = await svc.post(
    '/public/v1/submit/create_policy',
    submitBody('ACTIVITY_TYPE_CREATE_POLICY_V3', root, { policyName, effect, condition, consensus, notes: '' }),
  )
  expect(r.status).toBe(200)
  return r.json.activity.result.createPolicyResult.policyId as string
}
const bobSigns = (payload: string, text = false) =>
  clients.bob.signRawPayload({
    organizationId: root,
    signWith: address,
    payload,
    encoding: text ? 'PAYLOAD_ENCODING_TEXT_UTF8' : 'PAYLOAD_ENCODING_HEXADECIMAL',
    hashFunction: text ? 'HASH_FUNCTION_SHA256' : 'HASH_FUNCTION_NO_OP',
  })

describe("the extension's activities with policies", () => {
  it('the named approver sees it waiting on them, with who must approve, and completes it by their vote', async () => {
    const policy = await createPolicy(
      'carol co-signs',
      'EFFECT_ALLOW',
      "activity.resource == 'PRIVATE_KEY' && activity.action == 'SIGN'",
      `approvers.any(u, u.id == '${ids.carol}')`,
    )
    const submitted = await bobSigns('ab'.repeat(32))
    expect(submitted.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')

    const forCarol = (await listActivities(clients.carol, session('carol'))).activities.find((a) => a.id === submitted.activity.id)
    expect(forCarol).toMatchObject({ canApprove: true, waitingFor: "Waiting for approval by you (policy 'carol co-signs')." })
    const forDave = (await listActivities(clients.dave, session('dave'))).activities.find((a) => a.id === submitted.activity.id)
    expect(forDave).toMatchObject({ canApprove: false, waitingFor: "Waiting for approval by carol (policy 'carol co-signs')." })

    const after = await vote(clients.carol, session('carol'), { fingerprint: submitted.activity.fingerprint, approve: true })
    expect(after.status).toBe('ACTIVITY_STATUS_COMPLETED')
    await svc.post('/public/v1/submit/delete_policy', submitBody('ACTIVITY_TYPE_DELETE_POLICY', root, { policyId: policy }))
  })

  it('a denial by policy reads "Denied by policy" with its name, in the history and as the failure of the call', async () => {
    const allow = await createPolicy('bob signs', 'EFFECT_ALLOW', "activity.resource == 'PRIVATE_KEY' && activity.action == 'SIGN'")
    const deny = await createPolicy('no text payloads', 'EFFECT_DENY', "activity.params.encoding == 'PAYLOAD_ENCODING_TEXT_UTF8'")
    const err = await bobSigns('hello', true).catch((e) => e)
    expect(toPopupFailure(err)).toEqual({ code: 'POLICY_DENIED', message: "Denied by policy 'no text payloads'." })
    const denied = (await listActivities(clients.bob, session('bob'))).activities.find((a) => a.status === 'ACTIVITY_STATUS_FAILED')
    expect(denied?.failure).toBe("Denied by policy 'no text payloads'.")
    for (const policyId of [deny, allow])
      await svc.post('/public/v1/submit/delete_policy', submitBody('ACTIVITY_TYPE_DELETE_POLICY', root, { policyId }))
  })
})
