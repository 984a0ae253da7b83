import { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXTENSION_ORIGIN } from '../../src/api/identity.js'
import { authenticatorParam, createSoftAuthenticator, randomChallenge } from '../helpers/softAuthenticator.js'
import { newApiKey } from './helpers/keys.js'
import { adminTurnkeyClient, startTestService, type TestService } from './helpers/service.js'

let svc: TestService
let client: TurnkeyClient
let rootOrg: string
let sub: { orgId: string; userId: string; apiKeyId: string; authenticatorId: string; credentialId: string }

/** The HTTP status and wire error of a call that must fail. */
async function _failure(p: Promise<unknown>): Promise<{ status: number; code: unknown; message: string }> {
  try {
    await p
  } catch (e) {
    const err = e as { message: string; code?: unknown; cause?: unknown }
    const status = Number(/status(?:Code)?[^0-9]*(\d{3})/i.exec(err.message)?.[1] ?? 0)
    return { status, code: err.code, message: err.message }
  }
  throw new Error('expected the call to fail')
}

beforeAll(async () => {
  svc = await startTestService()
  rootOrg = svc.admin.organizationId
  client = adminTurnkeyClient(svc)
  const soft = createSoftAuthenticator({ rpId: EXTENSION_ORIGIN, origin: EXTENSION_ORIGIN })
  const key = newApiKey('sub key')
  const res = await client.createSubOrganization({
    type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
    timestampMs: String(Date.now()),
    organizationId: rootOrg,
    parameters: {
      subOrganizationName: 'credentials reads',
      rootUsers: [
        {
          userName: 'cara',
          apiKeys: [{ ...key.param, curveType: 'API_KEY_CURVE_P256' }],
          authenticators: [authenticatorParam(soft, randomChallenge(), 'cara passkey') as never],
          oauthProviders: [],
        },
      ],
      rootQuorumThreshold: 1,
      wallet: {
        walletName: 'w',
        accounts: [
          { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
          { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/1", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
        ],
      },
    },
  })
  const orgId = res.activity.result.createSubOrganizationResultV8?.subOrganizationId as string
  const { users } = await client.getUsers({ organizationId: orgId })
  const cara = users[0]
  if (!cara) throw new Error('no user')
  sub = {
    orgId,
    userId: cara.userId,
    apiKeyId: cara.apiKeys[0]?.apiKeyId as string,
    authenticatorId: cara.authenticators[0]?.authenticatorId as string,
    credentialId: cara.authenticators[0]?.credentialId as string,
  }
})
afterAll(async () => {
  await svc?.stop()
})

describe('API keys', () => {
  it("getApiKey reads one key; getApiKeys lists a user's keys and the organization's", async () => {
    const { apiKey } = await client.getApiKey({ organizationId: sub.orgId, apiKeyId: sub.apiKeyId })
    expect(apiKey.apiKeyName).toBe('sub key')
    expect(apiKey.credential.type).toBe('CREDENTIAL_TYPE_API_KEY_P256')
    const mine = await client.getApiKeys({ organizationId: sub.orgId, userId: sub.userId })
    expect(mine.apiKeys.map((k) => k.apiKeyId)).toEqual([sub.apiKeyId])
    const all = await client.getApiKeys({ organizationId: rootOrg })
    expect(all.apiKeys.map((k) => k.credential.publicKey)).toContain(svc.admin.publicKey)
    expect(all.apiKeys.map((k) => k.apiKeyId)).not.toContain(sub.apiKeyId)
  })

  it("an unknown id and another organization's id are the same 404 naming apiKeyId", async () => {
    const unknown = await svc.post('/public/v1/query/get_api_key', { organizationId: rootOrg, apiKeyId: crypto.randomUUID() })
    const foreign = await svc.post('/public/v1/query/get_api_key', { organizationId: rootOrg, apiKeyId: sub.apiKeyId })
    for (const r of [unknown, foreign]) {
      expect(r.status).toBe(404)
      expect(JSON.stringify(r.json)).toContain('apiKeyId')
    }
    const noUser = await svc.post('/public/v1/query/get_api_keys', { organizationId: rootOrg, userId: sub.userId })
    expect(noUser.status).toBe(404)
    expect(JSON.stringify(noUser.json)).toContain('userId')
  })
})

describe('authenticators', () => {
  it('getAuthenticator and getAuthenticators read the passkey', async () => {
    const { authenticator } = await client.getAuthenticator({ organizationId: sub.orgId, authenticatorId: sub.authenticatorId })
    expect(authenticator.authenticatorName).toBe('cara passkey')
    expect(authenticator.credentialId).toBe(sub.credentialId)
    expect(authenticator.credential.type).toBe('CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR')
    const { authenticators } = await client.getAuthenticators({ organizationId: sub.orgId, userId: sub.userId })
    expect(authenticators.map((a) => a.authenticatorId)).toEqual([sub.authenticatorId])
  })

  it("another organization's passkey is a 404 naming authenticatorId; userId is required", async () => {
    const foreign = await svc.post('/public/v1/query/get_authenticator', { organizationId: rootOrg, authenticatorId: sub.authenticatorId })
    expect(foreign.status).toBe(404)
    expect(JSON.stringify(foreign.json)).toContain('authenticatorId')
    const missing = await svc.post('/public/v1/query/get_authenticators', { organizationId: sub.orgId })
    expect(missing.status).toBe(400)
    expect(JSON.stringify(missing.json)).toContain('userId')
  })
})

describe('get_wallet_account', () => {
  it('reads an account by address (checksum or not) and by path', async () => {
    const { wallets } = await client.getWallets({ organizationId: sub.orgId })
    const walletId = wallets[0]?.walletId as string
    const { accounts } = await client.getWalletAccounts({ organizationId: sub.orgId, walletId })
    const second = accounts[1]
    if (!second) throw new Error('no second account')
    const byAddress = await client.getWalletAccount({ organizationId: sub.orgId, walletId, address: second.address.toLowerCase() })
    expect(byAddress.account.walletAccountId).toBe(second.walletAccountId)
    const byPath = await client.getWalletAccount({ organizationId: sub.orgId, walletId, path: 'm/44h/60h/0h/0/1' })
    expect(byPath.account.address).toBe(second.address)
  })

  it("refuses a request without address or path (400 naming address), a bad path (400), another wallet's address (404)", async () => {
    const { wallets } = await client.getWallets({ organizationId: sub.orgId })
    const walletId = wallets[0]?.walletId as string
    const neither = await svc.post('/public/v1/query/get_wallet_account', { organizationId: sub.orgId, walletId })
    expect(neither.status).toBe(400)
    expect(JSON.stringify(neither.json)).toContain('address')
    const bad = await svc.post('/public/v1/query/get_wallet_account', { organizationId: sub.orgId, walletId, path: 'not/a/path' })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(bad.json)).toContain('path')
    const none = await svc.post('/public/v1/query/get_wallet_account', { organizationId: sub.orgId, walletId, path: "m/44'/60'/0'/0/9" })
    expect(none.status).toBe(404)
    const foreignWallet = await svc.post('/public/v1/query/get_wallet_account', {
      organizationId: rootOrg,
      walletId,
      address: '0x0000000000000000000000000000000000000001',
    })
    expect(foreignWallet.status).toBe(404)
    expect(JSON.stringify(foreignWallet.json)).toContain('walletId')
  })
})
