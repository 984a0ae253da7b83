import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TurnkeyClient } from '@turnkey/http'
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { encryptOnRampSecret } from '@turnkey/crypto'
import { bytesToHex, hexToBytes } from '../../src/crypto/encoding.js'
import { compressP256PublicKey } from '../../src/crypto/p256.js'
import { adminTurnkeyClient, startTestService, type TestService } from './helpers/service.js'
import { newApiKey } from './helpers/keys.js'

// The official client of the hosted service, unmodified, against our service.
let svc: TestService
let client: TurnkeyClient
beforeAll(async () => {
  svc = await startTestService()
  client = adminTurnkeyClient(svc)
})
afterAll(async () => {
  await svc?.stop()
})

describe('@turnkey/http TurnkeyClient', () => {
  it('whoami and list_users parse', async () => {
    const who = await client.getWhoami({ organizationId: svc.admin.organizationId })
    expect(who.userId).toBe(svc.admin.userId)
    expect(who.organizationName).toBe('Sigil Root Organization')
    const { users } = await client.getUsers({ organizationId: svc.admin.organizationId })
    expect(users[0]?.apiKeys[0]?.credential.publicKey).toBe(svc.admin.publicKey)
    expect(users[0]?.createdAt).toMatchObject({ seconds: expect.any(String), nanos: expect.any(String) })
    // v1User requires mfaPolicies (an array): every user object carries it, here and in get_user.
    expect(users.every((u) => Array.isArray(u.mfaPolicies))).toBe(true)
    const { user } = await client.getUser({ organizationId: svc.admin.organizationId, userId: svc.admin.userId })
    expect(user.mfaPolicies).toEqual([])
  })

  it('create_sub_organization, get_activity and list_activities parse', async () => {
    const key = newApiKey('tk')
    const res = await client.createSubOrganization({
      type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
      timestampMs: String(Date.now()),
      organizationId: svc.admin.organizationId,
      parameters: {
        subOrganizationName: 'made by the official client',
        rootUsers: [
          {
            userName: 'ivy',
            userEmail: 'ivy@example.com',
            apiKeys: [{ ...key.param, curveType: 'API_KEY_CURVE_P256' }],
            authenticators: [],
            oauthProviders: [],
          },
        ],
        rootQuorumThreshold: 1,
      },
    })
    expect(res.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    // votes[].user is a v1User too: it carries mfaPolicies. Submit responses keep createdAt/updatedAt as
    // plain strings (service-interface.md), queries as {seconds, nanos}.
    expect(res.activity.votes.length).toBeGreaterThan(0)
    expect(res.activity.votes.every((v) => Array.isArray(v.user.mfaPolicies))).toBe(true)
    expect([typeof res.activity.createdAt, typeof res.activity.updatedAt]).toEqual(['string', 'string'])
    const subOrgId = res.activity.result.createSubOrganizationResultV8?.subOrganizationId
    expect(subOrgId).toMatch(/^[0-9a-f-]{36}$/)

    const got = await client.getActivity({ organizationId: svc.admin.organizationId, activityId: res.activity.id })
    expect(got.activity.id).toBe(res.activity.id)
    expect(got.activity.votes.every((v) => Array.isArray(v.user.mfaPolicies))).toBe(true)
    expect(got.activity.createdAt).toMatchObject({ seconds: expect.any(String), nanos: expect.any(String) })
    expect(got.activity.intent.createSubOrganizationIntentV8?.subOrganizationName).toBe('made by the official client')
    const list = await client.getActivities({ organizationId: svc.admin.organizationId, paginationOptions: { limit: '5' } })
    expect(list.activities[0]?.id).toBe(res.activity.id)

    // The sub-organization's own key works through the same client.
    const subClient = new TurnkeyClient(
      { baseUrl: svc.url },
      new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKeyHex }),
    )
    const who = await subClient.getWhoami({ organizationId: subOrgId! })
    expect(who.username).toBe('ivy')
  })

  it('createUsers sends CREATE_USERS_V4 (OAuth provider by claims) and the user is created', async () => {
    const key = newApiKey('v4')
    const res = await client.createUsers({
      type: 'ACTIVITY_TYPE_CREATE_USERS_V4',
      timestampMs: String(Date.now()),
      organizationId: svc.admin.organizationId,
      parameters: {
        users: [
          {
            userName: 'v4 user',
            userEmail: 'v4@example.com',
            apiKeys: [{ apiKeyName: 'k', publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' }],
            authenticators: [],
            oauthProviders: [{ providerName: 'dev', oidcClaims: { iss: 'https://issuer.example', sub: 'v4-sub', aud: 'sigil' } }],
            userTags: [],
          },
        ],
      },
    })
    expect(res.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(res.activity.intent.createUsersIntentV4?.users[0]?.userName).toBe('v4 user')
    const userId = res.activity.result.createUsersResult?.userIds?.[0] as string
    const { user } = await client.getUser({ organizationId: svc.admin.organizationId, userId })
    expect(user.userName).toBe('v4 user')
    expect(user.oauthProviders[0]?.subject).toBe('v4-sub')
  })

  it('transaction histories read the chain too: with no node here, EVM and Solana alike are a 412 naming the network; the Solana aliases resolve', async () => {
    const organizationId = svc.admin.organizationId
    const wallet = await client.createWallet({
      type: 'ACTIVITY_TYPE_CREATE_WALLET',
      timestampMs: String(Date.now()),
      organizationId,
      parameters: {
        walletName: 'history',
        accounts: [
          { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
          { curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' },
        ],
      },
    })
    const [eth, sol] = wallet.activity.result.createWalletResult?.addresses as [string, string]
    // the history holds what the chain shows of the account too: with no node answering, it says so, naming the network
    await expect(client.listEthTransactionHistory({ organizationId, address: eth, caip2: 'eip155:31337' as any })).rejects.toMatchObject({
      code: 9,
      message: expect.stringMatching(/Sigil dev EVM \(eip155:31337\) is not reachable/),
    })
    const other = await svc.post('/public/v1/query/list_sol_transaction_history', { organizationId, address: sol, caip2: 'solana:devnet' })
    // solana:devnet is an alias of a network this service is not configured for
    expect([other.status, other.json.message]).toEqual([400, expect.stringContaining('solana:devnet')])
    // the dev network's id resolves; its history reads the chain (token accounts, signatures) and no node answers here
    const dev = client.listSolTransactionHistory({
      organizationId,
      address: sol,
      caip2: 'solana:E68UWHA4en9MhqdLvfjX2mjacgWkEZpf' as any,
      paginationOptions: { limit: '5' },
    })
    await expect(dev).rejects.toMatchObject({
      code: 9,
      message: expect.stringMatching(/Sigil dev Solana \(solana:E68UWHA4en9MhqdLvfjX2mjacgWkEZpf\) is not reachable/),
    })
    await expect(dev).rejects.not.toThrow(/127\.0\.0\.1|localhost|http:/)
  })

  it('surfaces our error body as a TurnkeyRequestError with code and message', async () => {
    const stranger = new TurnkeyClient(
      { baseUrl: svc.url },
      new ApiKeyStamper({ apiPublicKey: newApiKey().publicKey, apiPrivateKey: newApiKey().privateKeyHex }),
    )
    await expect(stranger.getWhoami({ organizationId: svc.admin.organizationId })).rejects.toMatchObject({ code: 16 })
  })

  it('on-ramp with the hosted provider names: a COINBASE credential, listed as such, and init with MOONPAY', async () => {
    const organizationId = svc.admin.organizationId
    const health = await (await fetch(`${svc.url}/healthz`)).json()
    // The official helper takes the compressed form of the service's on-ramp key.
    const onRampKey = bytesToHex(compressP256PublicKey(hexToBytes(health.onRampEncryptionPublicKey)))
    const timestampMs = () => String(Date.now())

    const created = await client.createFiatOnRampCredential({
      type: 'ACTIVITY_TYPE_CREATE_FIAT_ON_RAMP_CREDENTIAL',
      timestampMs: timestampMs(),
      organizationId,
      parameters: {
        onrampProvider: 'FIAT_ON_RAMP_PROVIDER_COINBASE',
        projectId: 'proj-tk',
        publishableApiKey: 'pk_coinbase_tk',
        encryptedSecretApiKey: encryptOnRampSecret('sk_coinbase_tk', onRampKey),
        encryptedPrivateApiKey: encryptOnRampSecret('private_coinbase_tk', onRampKey),
        sandboxMode: true,
      },
    })
    expect(created.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    // The intent echoes the name sent.
    expect(created.activity.intent.createFiatOnRampCredentialIntent?.onrampProvider).toBe('FIAT_ON_RAMP_PROVIDER_COINBASE')
    const credentialId = created.activity.result.createFiatOnRampCredentialResult?.fiatOnRampCredentialId
    expect(credentialId).toMatch(/^[0-9a-f-]{36}$/)

    const { fiatOnRampCredentials } = await client.listFiatOnRampCredentials({ organizationId })
    expect(fiatOnRampCredentials).toHaveLength(1)
    expect(fiatOnRampCredentials[0]).toMatchObject({
      fiatOnrampCredentialId: credentialId,
      onrampProvider: 'FIAT_ON_RAMP_PROVIDER_COINBASE',
      projectId: 'proj-tk',
      publishableApiKey: 'pk_coinbase_tk',
      sandboxMode: true,
    })

    // Moved to MOONPAY with the same client; listed as MOONPAY.
    const updated = await client.updateFiatOnRampCredential({
      type: 'ACTIVITY_TYPE_UPDATE_FIAT_ON_RAMP_CREDENTIAL',
      timestampMs: timestampMs(),
      organizationId,
      parameters: {
        fiatOnrampCredentialId: credentialId!,
        onrampProvider: 'FIAT_ON_RAMP_PROVIDER_MOONPAY',
        publishableApiKey: 'pk_moonpay_tk',
        encryptedSecretApiKey: encryptOnRampSecret('sk_moonpay_tk', onRampKey),
      },
    })
    expect(updated.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    const listed = await client.listFiatOnRampCredentials({ organizationId })
    expect(listed.fiatOnRampCredentials.map((c) => c.onrampProvider)).toEqual(['FIAT_ON_RAMP_PROVIDER_MOONPAY'])

    const init = await client.initFiatOnRamp({
      type: 'ACTIVITY_TYPE_INIT_FIAT_ON_RAMP',
      timestampMs: timestampMs(),
      organizationId,
      parameters: {
        onrampProvider: 'FIAT_ON_RAMP_PROVIDER_MOONPAY',
        walletAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM',
        cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH',
        fiatCurrencyCode: 'FIAT_ON_RAMP_CURRENCY_EUR',
        fiatCurrencyAmount: '100',
        paymentMethod: 'FIAT_ON_RAMP_PAYMENT_METHOD_CREDIT_DEBIT_CARD',
        sandboxMode: true,
        urlForSignature: 'sign',
      },
    })
    expect(init.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(init.activity.intent.initFiatOnRampIntent?.onrampProvider).toBe('FIAT_ON_RAMP_PROVIDER_MOONPAY')
    const result = init.activity.result.initFiatOnRampResult
    // No provider URL is configured here: the built-in sandbox page, with the MOONPAY (= BETA) credential's key and secret.
    expect(result?.onRampUrl.startsWith(`${svc.url}/sandbox/onramp/${result.onRampTransactionId}?`)).toBe(true)
    const url = new URL(result!.onRampUrl)
    expect(url.searchParams.get('publishableKey')).toBe('pk_moonpay_tk')
    expect(result?.onRampUrlSignature).toBe(createHmac('sha256', 'sk_moonpay_tk').update(url.search.slice(1)).digest('base64'))
    const status = await client.getOnRampTransactionStatus({ organizationId, transactionId: result!.onRampTransactionId })
    expect(status.transactionStatus).toBe('PENDING')
  })

  it('an unknown on-ramp provider name is 400 INVALID_ARGUMENT naming parameters.onrampProvider', async () => {
    const parameters = {
      onrampProvider: 'FIAT_ON_RAMP_PROVIDER_GAMMA',
      walletAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM',
      cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH',
    } as const
    const body = { type: 'ACTIVITY_TYPE_INIT_FIAT_ON_RAMP', timestampMs: String(Date.now()), organizationId: svc.admin.organizationId }
    // The official client (its types know only COINBASE and MOONPAY, hence the cast).
    const refused = client.initFiatOnRamp({ ...body, parameters } as unknown as Parameters<TurnkeyClient['initFiatOnRamp']>[0])
    await expect(refused).rejects.toMatchObject({ name: 'TurnkeyRequestError', code: 3 })
    await expect(refused).rejects.toThrow(/parameters\.onrampProvider/)
    // The HTTP status, over a plain stamped POST.
    const raw = await svc.post('/public/v1/submit/init_fiat_on_ramp', { ...body, parameters }, svc.adminStamper)
    expect(raw.status).toBe(400)
    expect(raw.json.code).toBe(3)
    expect(raw.json.message).toContain('parameters.onrampProvider')
    const bad = raw.json.details.find((d: { '@type': string }) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest')
    expect(bad.fieldViolations.map((v: { field: string }) => v.field)).toEqual(['parameters.onrampProvider'])
  })
})
