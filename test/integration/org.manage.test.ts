/**
 * Wallet and organization operations through the unmodified `@turnkey/http` client:
 * update_wallet, delete_wallet_accounts, update_organization_name — each with its refusals, and
 * nothing half-applied.
 */
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newApiKey } from './helpers/keys.js'
import { adminTurnkeyClient, startTestService, submitBody, type TestService } from './helpers/service.js'

let svc: TestService
let client: TurnkeyClient
let org: string
let subOrg: string
let subClient: TurnkeyClient
/** The sub-organization's root user's key: only its own users act in it (custody). */
const subKey = newApiKey('sub')

const ETH = (i: number) => ({
  curve: 'CURVE_SECP256K1' as const,
  pathFormat: 'PATH_FORMAT_BIP32' as const,
  path: `m/44'/60'/0'/0/${i}`,
  addressFormat: 'ADDRESS_FORMAT_ETHEREUM' as const,
})

async function newWallet(name: string, accounts = [ETH(0), ETH(1), ETH(2)]) {
  const r = await client.createWallet({
    type: 'ACTIVITY_TYPE_CREATE_WALLET',
    timestampMs: String(Date.now()),
    organizationId: org,
    parameters: { walletName: name, accounts },
  })
  const walletId = r.activity.result.createWalletResult?.walletId as string
  const { accounts: list } = await client.getWalletAccounts({ organizationId: org, walletId })
  return { walletId, accountIds: list.map((a) => a.walletAccountId) }
}

function fieldsOf(json: any): string {
  return JSON.stringify(json)
}

beforeAll(async () => {
  svc = await startTestService()
  org = svc.admin.organizationId
  client = adminTurnkeyClient(svc)
  const r = await client.createSubOrganization({
    type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
    timestampMs: String(Date.now()),
    organizationId: org,
    parameters: {
      subOrganizationName: 'manage sub',
      rootUsers: [{ userName: 'sub root', apiKeys: [subKey.param], authenticators: [], oauthProviders: [] }],
      rootQuorumThreshold: 1,
    },
  })
  subOrg = r.activity.result.createSubOrganizationResultV8?.subOrganizationId as string
  subClient = new TurnkeyClient(
    { baseUrl: svc.url },
    new ApiKeyStamper({ apiPublicKey: subKey.publicKey, apiPrivateKey: subKey.privateKeyHex }),
  )
})
afterAll(async () => {
  await svc?.stop()
})

describe('update_wallet', () => {
  it('renames a wallet; get_wallet shows the new name', async () => {
    const w = await newWallet('before')
    const r = await client.updateWallet({
      type: 'ACTIVITY_TYPE_UPDATE_WALLET',
      timestampMs: String(Date.now()),
      organizationId: org,
      parameters: { walletId: w.walletId, walletName: 'after' },
    })
    expect(r.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(r.activity.result.updateWalletResult?.walletId).toBe(w.walletId)
    const { wallet } = await client.getWallet({ organizationId: org, walletId: w.walletId })
    expect(wallet.walletName).toBe('after')
  })

  it("an unknown wallet and a sub-organization's wallet are the same 404 naming parameters.walletId; an empty name is 400", async () => {
    const unknown = await svc.post(
      '/public/v1/submit/update_wallet',
      submitBody('ACTIVITY_TYPE_UPDATE_WALLET', org, { walletId: crypto.randomUUID(), walletName: 'x' }),
    )
    expect(unknown.status).toBe(404)
    expect(fieldsOf(unknown.json)).toContain('parameters.walletId')
    const created = await svc.post(
      '/public/v1/submit/create_wallet',
      submitBody('ACTIVITY_TYPE_CREATE_WALLET', subOrg, { walletName: 'sub wallet', accounts: [ETH(0)] }),
      subKey.stamper,
    )
    expect(created.status, fieldsOf(created.json)).toBe(200)
    const subWallet = created.json.activity.result.createWalletResult.walletId as string
    const foreign = await svc.post(
      '/public/v1/submit/update_wallet',
      submitBody('ACTIVITY_TYPE_UPDATE_WALLET', org, { walletId: subWallet, walletName: 'x' }),
    )
    expect(foreign.status).toBe(404)
    expect(fieldsOf(foreign.json)).toContain('parameters.walletId')
    const empty = await svc.post(
      '/public/v1/submit/update_wallet',
      submitBody('ACTIVITY_TYPE_UPDATE_WALLET', org, { walletId: subWallet, walletName: '' }),
    )
    expect(empty.status).toBe(400)
    expect(fieldsOf(empty.json)).toContain('parameters.walletName')
  })
})

describe('delete_wallet_accounts', () => {
  it('refuses accounts of an unexported wallet without deleteWithoutExport (412), deleting none of the list', async () => {
    const w = await newWallet('accounts')
    const refused = await svc.post(
      '/public/v1/submit/delete_wallet_accounts',
      submitBody('ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS', org, { walletAccountIds: [w.accountIds[0], w.accountIds[1]] }),
    )
    expect(refused.status).toBe(412)
    expect(fieldsOf(refused.json)).toContain('deleteWithoutExport')
    const { accounts } = await client.getWalletAccounts({ organizationId: org, walletId: w.walletId })
    expect(accounts).toHaveLength(3)
  })

  it('deletes the named accounts with deleteWithoutExport; an unknown id in the list deletes nothing (404 naming its index)', async () => {
    const w = await newWallet('accounts 2')
    const partial = await svc.post(
      '/public/v1/submit/delete_wallet_accounts',
      submitBody('ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS', org, { walletAccountIds: [w.accountIds[0], 'nope'], deleteWithoutExport: true }),
    )
    expect(partial.status).toBe(404)
    expect(fieldsOf(partial.json)).toContain('parameters.walletAccountIds[1]')
    expect((await client.getWalletAccounts({ organizationId: org, walletId: w.walletId })).accounts).toHaveLength(3)

    const r = await client.deleteWalletAccounts({
      type: 'ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS',
      timestampMs: String(Date.now()),
      organizationId: org,
      parameters: { walletAccountIds: [w.accountIds[0] as string, w.accountIds[2] as string], deleteWithoutExport: true },
    })
    expect(r.activity.result.deleteWalletAccountsResult?.walletAccountIds).toEqual([w.accountIds[0], w.accountIds[2]])
    const { accounts } = await client.getWalletAccounts({ organizationId: org, walletId: w.walletId })
    expect(accounts.map((a) => a.walletAccountId)).toEqual([w.accountIds[1]])
  })
})

describe('update_organization_name', () => {
  it('renames the organization (its own users see it in whoami); a blank name is 400 naming parameters.organizationName', async () => {
    const r = await subClient.updateOrganizationName({
      type: 'ACTIVITY_TYPE_UPDATE_ORGANIZATION_NAME',
      timestampMs: String(Date.now()),
      organizationId: subOrg,
      parameters: { organizationName: 'renamed sub' },
    })
    expect(r.activity.result.updateOrganizationNameResult).toEqual({ organizationId: subOrg, organizationName: 'renamed sub' })
    expect((await subClient.getWhoami({ organizationId: subOrg })).organizationName).toBe('renamed sub')
    const blank = await svc.post(
      '/public/v1/submit/update_organization_name',
      submitBody('ACTIVITY_TYPE_UPDATE_ORGANIZATION_NAME', subOrg, { organizationName: '   ' }),
      subKey.stamper,
    )
    expect(blank.status).toBe(400)
    expect(fieldsOf(blank.json)).toContain('parameters.organizationName')
    expect((await subClient.getWhoami({ organizationId: subOrg })).organizationName).toBe('renamed sub')
  })
})

describe('get_organization', () => {
  it('answers the organization at once: users, root quorum, wallets, private keys, tags, features', async () => {
    await newWallet('in the organization')
    await client.createPrivateKeys({
      type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2',
      timestampMs: String(Date.now()),
      organizationId: org,
      parameters: {
        privateKeys: [
          { privateKeyName: 'org key', curve: 'CURVE_SECP256K1', privateKeyTags: [], addressFormats: ['ADDRESS_FORMAT_ETHEREUM'] },
        ],
      },
    })
    await client.createUserTag({
      type: 'ACTIVITY_TYPE_CREATE_USER_TAG',
      timestampMs: String(Date.now()),
      organizationId: org,
      parameters: { userTagName: 'admins', userIds: [svc.admin.userId] },
    })
    const { organizationData: o } = await client.getOrganization({ organizationId: org })
    expect(o.organizationId).toBe(org)
    expect(o.rootQuorum).toEqual({ threshold: 1, userIds: [svc.admin.userId] })
    expect(o.users?.find((u) => u.userId === svc.admin.userId)?.userTags).toHaveLength(1)
    expect(o.wallets?.map((w) => w.walletName)).toContain('in the organization')
    expect(o.privateKeys?.map((k) => k.privateKeyName)).toEqual(['org key'])
    expect(o.tags?.map((t) => [t.tagName, t.tagType])).toEqual([['admins', 'TAG_TYPE_USER']])
    // The sub-organization's data is its own.
    const sub = await client.getOrganization({ organizationId: subOrg })
    expect(sub.organizationData.privateKeys).toEqual([])
    expect(sub.organizationData.users?.map((u) => u.userName)).toEqual(['sub root'])
  })
})
