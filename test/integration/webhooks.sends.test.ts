import { verifyTurnkeyWebhookSignature } from '@turnkey/crypto'
import type { TurnkeyClient } from '@turnkey/http'
import { parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveNetworks } from '../../src/chains/networks.js'
import { base64UrlDecode, bytesToHex } from '../../src/crypto/encoding.js'
import { type RunningDevChains, startDevChains } from '../../src/devchain/index.js'
import { freePort } from './helpers/process.js'
import { adminTurnkeyClient, startTestService, type TestService } from './helpers/service.js'
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhookReceiver.js'

let chains: RunningDevChains
let svc: TestService
let client: TurnkeyClient
let org: string
let eth: string
let rx: WebhookReceiver
let filtered: WebhookReceiver

type SendEvent = { sendTransactionStatusId: string; txStatus: string; idempotencyKey: string; eth?: { txHash?: string }; caip2: string }

beforeAll(async () => {
  chains = await startDevChains({ evmPort: await freePort(), solanaPort: 0 })
  svc = await startTestService({ networks: resolveNetworks(`eip155:31337=${chains.evm.url}`) })
  org = svc.admin.organizationId
  client = adminTurnkeyClient(svc)
  const wallet = await client.createWallet({
    type: 'ACTIVITY_TYPE_CREATE_WALLET',
    timestampMs: String(Date.now()),
    organizationId: org,
    parameters: {
      walletName: 'webhook sends',
      accounts: [
        { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
      ],
    },
  })
  eth = wallet.activity.result.createWalletResult?.addresses[0] as string
  expect((await svc.post('/dev/faucet', { caip2: 'eip155:31337', address: eth, amount: '10' }, null)).status).toBe(200)
  rx = await startWebhookReceiver()
  filtered = await startWebhookReceiver()
  for (const [url, filtersJson] of [
    [rx.url, ''],
    [filtered.url, '{"txStatuses":["INCLUDED"]}'],
  ] as const) {
    await client.createWebhookEndpoint({
      type: 'ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT',
      timestampMs: String(Date.now()),
      organizationId: org,
      parameters: { url, name: 'sends', subscriptions: [{ eventType: 'SEND_TRANSACTION_STATUS_UPDATES', filtersJson }] },
    })
  }
})
afterAll(async () => {
  await svc?.stop()
  await chains?.close()
  await rx?.close()
  await filtered?.close()
})

describe('SEND_TRANSACTION_STATUS_UPDATES', () => {
  it('each status of a send reaches the receiver, signed; a status filter narrows them', async () => {
    const res = await client.ethSendTransaction({
      type: 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2',
      timestampMs: String(Date.now()),
      organizationId: org,
      parameters: {
        from: eth,
        caip2: 'eip155:31337' as never,
        calls: [{ to: '0x2222222222222222222222222222222222222222', value: parseEther('0.1').toString() }],
      },
    })
    const id = res.activity.result.ethSendTransactionResultV2?.sendTransactionStatusId as string
    const mine = () => rx.received.filter((w) => w.headers['x-turnkey-event-type'] === 'SEND_TRANSACTION_STATUS_UPDATES')
    await rx.waitFor(() => mine().some((w) => (JSON.parse(w.body) as SendEvent).txStatus === 'INCLUDED'), 20_000)
    const events = mine().map((w) => JSON.parse(w.body) as SendEvent)
    // One event per status (deliveries of different events may overtake each other).
    expect(events.map((e) => e.txStatus).sort()).toEqual(['BROADCASTING', 'INCLUDED', 'INITIALIZED'])
    for (const e of events) {
      expect(e.sendTransactionStatusId).toBe(id)
      expect(e.idempotencyKey).toBe(`${id}:${e.txStatus}`)
      expect(e.caip2).toBe('eip155:31337')
    }
    const status = await client.getSendTransactionStatus({ organizationId: org, sendTransactionStatusId: id })
    expect(events.find((e) => e.txStatus === 'INCLUDED')?.eth?.txHash).toBe(status.eth?.txHash)

    const { keys } = (await (await fetch(`${svc.url}/public/v1/discovery/webhooks/jwks`)).json()) as {
      keys: Array<{ kid: string; x: string }>
    }
    const verificationKeys = keys.map((k) => ({ keyId: k.kid, publicKey: bytesToHex(base64UrlDecode(k.x)), algorithm: 'ed25519' as const }))
    for (const w of mine()) {
      const r = verifyTurnkeyWebhookSignature({
        headers: w.headers as Record<string, string>,
        body: w.body,
        verificationKeys,
        maxTimestampAgeMs: 60_000,
      })
      expect(r.ok).toBe(true)
    }

    await filtered.waitFor((l) => l.length >= 1)
    await new Promise((r) => setTimeout(r, 200))
    expect(filtered.received.map((w) => (JSON.parse(w.body) as SendEvent).txStatus)).toEqual(['INCLUDED'])
  })
})
