/**
 * The organization the policy tests share: the test service, its admin's official client, users
 * outside the root quorum (each with an API key and its own client) and one Ethereum account.
 */
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { TurnkeyClient } from '@turnkey/http'
import { expect } from 'vitest'
import { newApiKey } from './keys.js'
import { startTestService, submitBody, type TestService } from './service.js'

export type PolicyOrg<P extends string> = {
  svc: TestService
  root: string
  admin: TurnkeyClient
  keys: Record<P, ReturnType<typeof newApiKey>>
  ids: Record<P, string>
  clients: Record<P, TurnkeyClient>
  /** The address of the wallet account the tests sign with (the first of `addresses`). */
  address: string
  /** The addresses of the wallet's accounts, in the order asked for. */
  addresses: string[]
}

/** One Ethereum account: what most policy tests sign with. */
const ETHEREUM_ACCOUNT = {
  curve: 'CURVE_SECP256K1',
  pathFormat: 'PATH_FORMAT_BIP32',
  path: "m/44'/60'/0'/0/0",
  addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
} as const
type WalletAccount = Parameters<TurnkeyClient['createWallet']>[0]['parameters']['accounts'][number]

/** The official client stamping with `k`. */
export function clientFor(svc: TestService, k: { publicKey: string; privateKeyHex: string }): TurnkeyClient {
  return new TurnkeyClient({ baseUrl: svc.url }, new ApiKeyStamper({ apiPublicKey: k.publicKey, apiPrivateKey: k.privateKeyHex }))
}

/**
 * Starts a service (with `overrides` of its configuration, e.g. `networks`) with `people` as
 * non-root users and a wallet named `walletName` with `accounts` (one Ethereum account by
 * default); stop it with `org.svc.stop()`.
 */
export async function startPolicyOrg<P extends string>(
  people: readonly P[],
  walletName: string,
  accounts: WalletAccount[] = [ETHEREUM_ACCOUNT],
  overrides: Parameters<typeof startTestService>[0] = {},
): Promise<PolicyOrg<P>> {
  const svc = await startTestService(overrides)
  const root = svc.admin.organizationId
  const admin = clientFor(svc, { publicKey: svc.admin.publicKey, privateKeyHex: svc.admin.privateKey })
  const keys = Object.fromEntries(people.map((p) => [p, newApiKey(p)])) as Record<P, ReturnType<typeof newApiKey>>
  // create_users V3 (still accepted): the policy tests predate V4 and only need API keys.
  const r = await svc.post(
    '/public/v1/submit/create_users',
    submitBody('ACTIVITY_TYPE_CREATE_USERS_V3', root, {
      users: people.map((p) => ({ userName: p, apiKeys: [keys[p].param], authenticators: [], oauthProviders: [], userTags: [] })),
    }),
  )
  expect(r.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
  const ids = {} as Record<P, string>
  const clients = {} as Record<P, TurnkeyClient>
  r.json.activity.result.createUsersResult.userIds.forEach((id: string, i: number) => {
    ids[people[i] as P] = id
  })
  for (const p of people) clients[p] = clientFor(svc, keys[p])
  const wallet = await admin.createWallet({
    type: 'ACTIVITY_TYPE_CREATE_WALLET',
    timestampMs: String(Date.now()),
    organizationId: root,
    parameters: { walletName, accounts },
  })
  const addresses = wallet.activity.result.createWalletResult?.addresses as string[]
  return { svc, root, admin, keys, ids, clients, address: addresses[0] as string, addresses }
}

/** A policy as the tests write it. */
export type TestPolicy = { name: string; effect: 'EFFECT_ALLOW' | 'EFFECT_DENY'; condition: string; consensus?: string }

/**
 * Creates the policies in the root organization (with `consensus`, default none, for those that name
 * none), runs `body` with their ids, and deletes them whatever happens (each test sees only its own).
 */
export async function withPolicies(
  org: Pick<PolicyOrg<string>, 'admin' | 'root'>,
  policies: TestPolicy[],
  body: (ids: string[]) => Promise<void>,
  consensus = '',
): Promise<void> {
  const ids: string[] = []
  try {
    for (const p of policies) {
      const r = await org.admin.createPolicy({
        type: 'ACTIVITY_TYPE_CREATE_POLICY_V3',
        timestampMs: String(Date.now()),
        organizationId: org.root,
        parameters: { policyName: p.name, effect: p.effect, condition: p.condition, consensus: p.consensus ?? consensus, notes: '' },
      })
      ids.push(r.activity.result.createPolicyResult?.policyId as string)
    }
    await body(ids)
  } finally {
    for (const policyId of ids) {
      await org.admin.deletePolicy({
        type: 'ACTIVITY_TYPE_DELETE_POLICY',
        timestampMs: String(Date.now()),
        organizationId: org.root,
        parameters: { policyId },
      })
    }
  }
}

/** The outcome get_policy_evaluations records for `policyId` at the activity's first evaluation. */
export async function policyOutcome(
  org: Pick<PolicyOrg<string>, 'admin' | 'root'>,
  activityId: string,
  policyId: string,
): Promise<string | undefined> {
  const { policyEvaluations } = await org.admin.getPolicyEvaluations({ organizationId: org.root, activityId })
  return policyEvaluations[0]?.policyEvaluations.find((e) => e.policyId === policyId)?.outcome
}

/**
 * Expects `attempt` (an official-client submit) refused by the DENY policy named `name` (gRPC 7,
 * POLICY_DENIED), never signed, and returns the failed activity's id.
 */
export async function expectPolicyDenied(attempt: Promise<unknown>, name: string): Promise<string> {
  const e = await attempt.then(
    (ok) => {
      throw new Error(`signed, expected a denial: ${JSON.stringify(ok).slice(0, 300)}`)
    },
    (err: { code?: number; message?: string; details?: Array<Record<string, unknown>> | null }) => err,
  )
  expect(e.code, e.message).toBe(7)
  expect(String(e.message)).toContain('POLICY_DENIED')
  expect(String(e.message)).toContain(name)
  expect(String(e.message)).not.toMatch(/signedTransaction/)
  const info = (e.details ?? []).find((d) => d['@type'] === 'type.googleapis.com/sigil.ActivityInfo')
  expect(info?.status).toBe('ACTIVITY_STATUS_FAILED')
  return info?.activityId as string
}
