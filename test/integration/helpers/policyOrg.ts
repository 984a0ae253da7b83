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
  /** The address of the wallet account the tests sign with. */
  address: string
}

/** The official client stamping with `k`. */
export function clientFor(svc: TestService, k: { publicKey: string; privateKeyHex: string }): TurnkeyClient {
  return new TurnkeyClient({ baseUrl: svc.url }, new ApiKeyStamper({ apiPublicKey: k.publicKey, apiPrivateKey: k.privateKeyHex }))
}

/** Starts a service with `people` as non-root users and a wallet named `walletName`; stop it with `org.svc.stop()`. */
export async function startPolicyOrg<P extends string>(people: readonly P[], walletName: string): Promise<PolicyOrg<P>> {
  const svc = await startTestService()
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
    parameters: {
      walletName,
      accounts: [
        { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
      ],
    },
  })
  const address = wallet.activity.result.createWalletResult?.addresses[0] as string
  return { svc, root, admin, keys, ids, clients, address }
}
