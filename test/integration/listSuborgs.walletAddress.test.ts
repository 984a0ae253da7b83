/**
 * getSubOrgIds (list_suborgs) through the official client: every `filterType` the hosted service
 * lists is accepted, and `WALLET_ACCOUNT_ADDRESS` finds the sub-organizations (any depth below the
 * caller's organization, never another parent's) holding a wallet account or private key of that
 * address: EVM in any case, Solana exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TurnkeyClient } from '@turnkey/http'
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { getAddress } from 'viem'
import { adminTurnkeyClient, startTestService, type TestService } from './helpers/service.js'
import { newApiKey, rootUser } from './helpers/keys.js'

let svc: TestService

/** An Ethereum and a Solana account (addresses[0] and [1] of the result). */
const WALLET = {
  walletName: 'Default Wallet',
  accounts: [
    {
      curve: 'CURVE_SECP256K1' as const,
      pathFormat: 'PATH_FORMAT_BIP32' as const,
      path: "m/44'/60'/0'/0/0",
      addressFormat: 'ADDRESS_FORMAT_ETHEREUM' as const,
    },
    {
      curve: 'CURVE_ED25519' as const,
      pathFormat: 'PATH_FORMAT_BIP32' as const,
      path: "m/44'/501'/0'/0'",
      addressFormat: 'ADDRESS_FORMAT_SOLANA' as const,
    },
  ],
}
let root: string
let admin: TurnkeyClient

const ts = () => String(Date.now())

function clientOf(key: ReturnType<typeof newApiKey>): TurnkeyClient {
  return new TurnkeyClient({ baseUrl: svc.url }, new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKeyHex }))
}

/** A sub-organization of `parent` created by `by`, with the default wallet when `wallet`; its id, key and addresses. */
async function newSub(name: string, parent: string, by: TurnkeyClient, wallet: boolean) {
  const key = newApiKey(`${name} admin`)
  const r = await by.createSubOrganization({
    type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
    timestampMs: ts(),
    organizationId: parent,
    parameters: {
      subOrganizationName: name,
      rootUsers: [rootUser(`${name}-admin`, [key.param])],
      rootQuorumThreshold: 1,
      ...(wallet ? { wallet: WALLET } : {}),
    },
  })
  const res = r.activity.result.createSubOrganizationResultV8
  expect(res?.subOrganizationId).toBeTruthy()
  const addresses = res?.wallet?.addresses ?? []
  return { id: res!.subOrganizationId, key, client: clientOf(key), evm: addresses[0] as string, sol: addresses[1] as string }
}

let parentA: Awaited<ReturnType<typeof newSub>>
let parentB: Awaited<ReturnType<typeof newSub>>
let childA: Awaited<ReturnType<typeof newSub>>
let childB: Awaited<ReturnType<typeof newSub>>
let keyAddress: string

const byAddress = (organizationId: string, filterValue: string, by = admin) =>
  by.getSubOrgIds({ organizationId, filterType: 'WALLET_ACCOUNT_ADDRESS', filterValue }).then((r) => r.organizationIds)

beforeAll(async () => {
  svc = await startTestService()
  root = svc.admin.organizationId
  admin = adminTurnkeyClient(svc)
  parentA = await newSub('parent-a', root, admin, false)
  parentB = await newSub('parent-b', root, admin, false)
  childA = await newSub('child-a', parentA.id, parentA.client, true)
  childB = await newSub('child-b', parentB.id, parentB.client, true)
  const pk = await childA.client.createPrivateKeys({
    type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2',
    timestampMs: ts(),
    organizationId: childA.id,
    parameters: {
      privateKeys: [{ privateKeyName: 'loose', curve: 'CURVE_SECP256K1', privateKeyTags: [], addressFormats: ['ADDRESS_FORMAT_ETHEREUM'] }],
    },
  })
  keyAddress = pk.activity.result.createPrivateKeysResultV2?.privateKeys?.[0]?.addresses?.[0]?.address as string
})
afterAll(async () => {
  await svc?.stop()
})

describe('getSubOrgIds filterType WALLET_ACCOUNT_ADDRESS', () => {
  it('the two children hold distinct EVM and Solana addresses', () => {
    expect(childA.evm).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(childB.evm).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(childA.sol).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
    expect(childA.sol).toMatch(/[a-z]/)
    expect(new Set([childA.evm, childB.evm, childA.sol, childB.sol]).size).toBe(4)
    expect(keyAddress).toMatch(/^0x[0-9a-fA-F]{40}$/)
  })

  it('an EVM address, checksummed or lowercase, finds exactly the owning sub-organization (any depth)', async () => {
    expect(await byAddress(root, getAddress(childA.evm))).toEqual([childA.id])
    expect(await byAddress(root, childA.evm.toLowerCase())).toEqual([childA.id])
    expect(await byAddress(root, `0x${childB.evm.slice(2).toUpperCase()}`)).toEqual([childB.id])
    expect(await byAddress(parentA.id, getAddress(childA.evm), parentA.client)).toEqual([childA.id])
  })

  it("a private key's address finds its sub-organization", async () => {
    expect(await byAddress(root, getAddress(keyAddress))).toEqual([childA.id])
    expect(await byAddress(root, keyAddress.toLowerCase())).toEqual([childA.id])
  })

  it('a Solana address matches exactly: its case matters', async () => {
    expect(await byAddress(root, childA.sol)).toEqual([childA.id])
    expect(await byAddress(root, childB.sol)).toEqual([childB.id])
    expect(await byAddress(root, childA.sol.toLowerCase())).toEqual([])
    expect(await byAddress(root, childA.sol.toUpperCase())).toEqual([])
  })

  it('an unknown address finds nothing', async () => {
    expect(await byAddress(root, getAddress(`0x${'ab'.repeat(20)}`))).toEqual([])
    expect(await byAddress(root, '11111111111111111111111111111111')).toEqual([])
  })

  it("another parent's sub-organization is never returned", async () => {
    expect(await byAddress(parentA.id, getAddress(childB.evm), parentA.client)).toEqual([])
    expect(await byAddress(parentA.id, childB.sol, parentA.client)).toEqual([])
    expect(await byAddress(parentB.id, getAddress(childA.evm), parentB.client)).toEqual([])
    expect(await byAddress(parentB.id, keyAddress, parentB.client)).toEqual([])
    // A child's own address, asked of the child itself: sub-organizations only, not the organization.
    expect(await byAddress(childA.id, childA.evm, childA.client)).toEqual([])
    // Nor can parent A's key ask about the root's tree.
    await expect(byAddress(root, getAddress(childB.evm), parentA.client)).rejects.toThrow()
  })
})

describe('getSubOrgIds accepts every filterType the hosted client lists', () => {
  it.each([
    ['NAME', 'child-a'],
    ['USERNAME', 'child-a-admin'],
    ['EMAIL', 'nobody@example.com'],
    ['PHONE_NUMBER', '+15555550100'],
    ['CREDENTIAL_ID', 'bm8tc3VjaC1jcmVkZW50aWFs'],
    ['PUBLIC_KEY', 'pk'],
    ['WALLET_ACCOUNT_ADDRESS', '0x0000000000000000000000000000000000000001'],
  ])('%s', async (filterType, filterValue) => {
    const r = await admin.getSubOrgIds({ organizationId: root, filterType, filterValue })
    expect(Array.isArray(r.organizationIds)).toBe(true)
    if (filterType === 'NAME' || filterType === 'USERNAME') expect(r.organizationIds).toEqual([childA.id])
  })

  it('PUBLIC_KEY finds the sub-organization holding that API key', async () => {
    const r = await admin.getSubOrgIds({ organizationId: root, filterType: 'PUBLIC_KEY', filterValue: childB.key.publicKey })
    expect(r.organizationIds).toEqual([childB.id])
  })

  it('OIDC_TOKEN is accepted: a value that is not an ID token is refused as such, not as an unknown filterType', async () => {
    const r = admin.getSubOrgIds({ organizationId: root, filterType: 'OIDC_TOKEN', filterValue: 'not-a-token' })
    await expect(r).rejects.toThrow(/filterValue/)
    await expect(r).rejects.not.toThrow(/filterType/)
  })

  it('an unknown filterType is refused naming the field', async () => {
    await expect(admin.getSubOrgIds({ organizationId: root, filterType: 'SHOE_SIZE', filterValue: '42' })).rejects.toThrow(/filterType/)
  })
})
