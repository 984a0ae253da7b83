/**
 * Sponsored sends on the dev chain against the gas budget and across instances, through the
 * unmodified `@turnkey/http` client: sponsored batches submitted at once against a budget that
 * fits only some of them never make the sponsor pay more than the limit (each holds the most it
 * can cost before it is broadcast; the excess ones fail unbroadcast, or are refused at submit,
 * naming the limit, the usage and the window), and two service instances on one PostgreSQL
 * sending sponsored batches at once give every one of them its own sponsor nonce.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TurnkeyClient } from '@turnkey/http'
import { createPublicClient, type Hex, http } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_SPONSOR } from '../../src/chains/gasStation/dev.js'
import { type Network, resolveNetworks } from '../../src/chains/networks.js'
import { type RunningEvmNode, startEvmNode } from '../../src/devchain/evm.js'
import { formatUsd, nativeToMicroUsd, parseUsd } from '../../src/service/sponsorship/usd.js'
import { type EmbeddedCluster, startEmbeddedPostgres } from '../../src/service/store/embeddedPostgres.js'
import { freePort } from './helpers/process.js'
import { adminTurnkeyClient, freshDatabaseUrl, startTestService, submitBody, type TestService } from './helpers/service.js'

const CAIP2 = 'eip155:31337'

let node: RunningEvmNode
let networks: Network[]
const evm = () => createPublicClient({ transport: http(node.url) })
const fresh = () => `0x${crypto.getRandomValues(new Uint8Array(20)).reduce((s, b) => s + b.toString(16).padStart(2, '0'), '')}` as Hex

/** A wallet of `n` Ethereum accounts of the service's admin organization (none holds any ETH). */
async function accounts(client: TurnkeyClient, org: string, n: number, name: string): Promise<Hex[]> {
  const wallet = await client.createWallet({
    type: 'ACTIVITY_TYPE_CREATE_WALLET',
    timestampMs: String(Date.now()),
    organizationId: org,
    parameters: {
      walletName: name,
      accounts: Array.from({ length: n }, (_, i) => ({
        curve: 'CURVE_SECP256K1' as const,
        pathFormat: 'PATH_FORMAT_BIP32' as const,
        path: `m/44'/60'/0'/0/${i}`,
        addressFormat: 'ADDRESS_FORMAT_ETHEREUM' as const,
      })),
    },
  })
  return wallet.activity.result.createWalletResult?.addresses as Hex[]
}

/** Submits a one-call sponsored ETH_SEND_TRANSACTION_V2 on `svc`; the raw response. */
const submitSponsored = (svc: TestService, org: string, from: Hex) =>
  svc.post(
    '/public/v1/submit/eth_send_transaction',
    submitBody('ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2', org, { caip2: CAIP2, from, sponsor: true, calls: [{ to: fresh(), value: '0' }] }),
  )

async function settle(client: TurnkeyClient, org: string, sendTransactionStatusId: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const status = await client.getSendTransactionStatus({ organizationId: org, sendTransactionStatusId })
    if (status.txStatus === 'INCLUDED' || status.txStatus === 'FAILED' || Date.now() > deadline) return status
    await new Promise((r) => setTimeout(r, 50))
  }
}

beforeAll(async () => {
  node = await startEvmNode({ port: await freePort() })
  networks = resolveNetworks(`${CAIP2}=${node.url}`)
}, 60_000)
afterAll(async () => {
  await node?.close()
})

describe('the sponsorship budget holds at the cost a send risks', () => {
  let svc: TestService
  let client: TurnkeyClient
  let org: string

  beforeAll(async () => {
    svc = await startTestService({ networks })
    org = svc.admin.organizationId
    client = adminTurnkeyClient(svc)
  }, 60_000)
  afterAll(async () => {
    await svc?.stop()
  })

  it('sponsored batches sent at once against a budget for about two: the sponsor never pays past the limit, the excess fail unbroadcast naming the limit', async () => {
    const from = await accounts(client, org, 9, `budget ${Date.now()}`)
    const limits = (orgWindowLimitUsd: string) =>
      svc.post(
        '/public/v1/submit/upsert_gas_usage_config',
        submitBody('ACTIVITY_TYPE_UPSERT_GAS_USAGE_CONFIG', org, {
          orgWindowLimitUsd,
          subOrgWindowLimitUsd: orgWindowLimitUsd,
          windowDurationMinutes: '60',
          enabled: true,
        }),
      )
    expect((await limits('100')).status).toBe(200)
    // One sponsored send under a generous budget: what a send like the next ones holds of the budget while in flight.
    const first = await submitSponsored(svc, org, from[0] as Hex)
    expect(first.status, JSON.stringify(first.json)).toBe(200)
    const firstId = first.json.activity.result.ethSendTransactionResultV2.sendTransactionStatusId as string
    expect((await settle(client, org, firstId)).txStatus).toBe('INCLUDED')
    const [row] = await svc.rt.db.query<{ estimate_micro_usd: string; fee_micro_usd: string }>(
      'SELECT estimate_micro_usd::text, fee_micro_usd::text FROM sponsored_sends WHERE send_id = $1',
      [firstId],
    )
    const reserved = BigInt(row?.estimate_micro_usd ?? '0')
    const paid = BigInt(row?.fee_micro_usd ?? '0')
    // The reservation was the most the transaction could cost; the fee settled in its place is what it cost.
    expect(reserved).toBeGreaterThan(0n)
    expect(paid).toBeGreaterThan(0n)
    expect(paid).toBeLessThanOrEqual(reserved)

    // Room for 2.5 reservations on top of what is used: two fit at once, a third only once others settled lower.
    const used = parseUsd((await client.getGasUsage({ organizationId: org })).usageUsd) as bigint
    const limit = used + (reserved * 5n) / 2n
    const up = await limits(formatUsd(limit))
    expect(up.status, JSON.stringify(up.json)).toBe(200)

    const sponsorBefore = await evm().getBalance({ address: DEV_SPONSOR as Hex })
    const responses = await Promise.all(from.slice(1).map((a) => submitSponsored(svc, org, a)))
    const refusedAtSubmit = responses.filter((r) => r.status !== 200)
    for (const r of refusedAtSubmit) {
      expect(r.status, JSON.stringify(r.json)).toBe(429)
      expect(r.json.message).toContain('parameters.sponsor')
      expect(r.json.message).toContain('gas sponsorship limit')
    }
    const ids = responses
      .filter((r) => r.status === 200)
      .map((r) => r.json.activity.result.ethSendTransactionResultV2.sendTransactionStatusId as string)
    const statuses = await Promise.all(ids.map((id) => settle(client, org, id)))
    const included = statuses.filter((s) => s.txStatus === 'INCLUDED')
    const failed = statuses.filter((s) => s.txStatus === 'FAILED')
    expect(included.length + failed.length).toBe(ids.length)
    expect(included.length).toBeGreaterThanOrEqual(2)
    expect(failed.length + refusedAtSubmit.length).toBeGreaterThanOrEqual(1)
    for (const s of failed) {
      // Refused by the budget before it was signed or stored: never broadcast, and the error says why.
      expect(s.eth?.txHash).toBeUndefined()
      expect(s.txError).toMatch(
        /^parameters\.sponsor: the organization gas sponsorship limit of [0-9.]+ USD per 1 h is used up \([0-9.]+ USD used or reserved/,
      )
      expect(s.txError).toContain(`of ${formatUsd(limit)} USD per 1 h`)
    }

    // What the sponsor paid for them, on chain, at the dev chain's 2000 USD per ETH, fits in what was left of the limit.
    let paidWei = 0n
    for (const s of included) {
      const receipt = await evm().getTransactionReceipt({ hash: s.eth?.txHash as Hex })
      expect(receipt.from.toLowerCase()).toBe(DEV_SPONSOR.toLowerCase())
      paidWei += receipt.gasUsed * receipt.effectiveGasPrice
    }
    expect(sponsorBefore - (await evm().getBalance({ address: DEV_SPONSOR as Hex }))).toBe(paidWei)
    expect(nativeToMicroUsd(paidWei, 18, '2000')).toBeLessThanOrEqual(limit - used)
    const after = parseUsd((await client.getGasUsage({ organizationId: org })).usageUsd) as bigint
    expect(after).toBeLessThanOrEqual(limit)
    expect(after).toBeGreaterThan(used)
  }, 120_000)
})

describe('two instances on one PostgreSQL sending sponsored batches at once', () => {
  let a: TestService
  let b: TestService
  let client: TurnkeyClient
  let cluster: EmbeddedCluster | undefined
  const dataDir = mkdtempSync(join(tmpdir(), 'sigil-sponsor-instances-'))
  const pgDir = mkdtempSync(join(tmpdir(), 'sigil-sponsor-pg-'))

  beforeAll(async () => {
    // One database and one data dir (master key, admin key): two instances of one deployment.
    let databaseUrl = await freshDatabaseUrl()
    if (!databaseUrl) {
      cluster = await startEmbeddedPostgres(pgDir)
      databaseUrl = cluster.url
    }
    a = await startTestService({ networks, databaseUrl, dataDir })
    b = await startTestService({ networks, databaseUrl, dataDir })
    client = adminTurnkeyClient(a)
  }, 120_000)
  afterAll(async () => {
    await a?.stop()
    await b?.stop()
    await cluster?.stop()
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(pgDir, { recursive: true, force: true })
  })

  it('every sponsored batch lands, each at its own sponsor nonce', async () => {
    const org = a.admin.organizationId
    const from = await accounts(client, org, 10, 'two instances')
    const responses = await Promise.all(from.map((f, i) => submitSponsored(i % 2 === 0 ? a : b, org, f)))
    for (const r of responses) expect(r.status, JSON.stringify(r.json)).toBe(200)
    const statuses = await Promise.all(
      responses.map((r) =>
        settle(client, org, r.json.activity.result.ethSendTransactionResultV2.sendTransactionStatusId as string, 60_000),
      ),
    )
    for (const s of statuses) expect(s.txStatus, JSON.stringify(s)).toBe('INCLUDED')
    const nonces = await Promise.all(
      statuses.map(async (s) => {
        const tx = await evm().getTransaction({ hash: s.eth?.txHash as Hex })
        expect(tx.from.toLowerCase()).toBe(DEV_SPONSOR.toLowerCase())
        return tx.nonce
      }),
    )
    expect(new Set(nonces).size).toBe(from.length)
    // Each is stored with the sponsor as its payer (whose open sends' nonces the next choice skips).
    const [row] = await a.rt.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM send_transactions WHERE status = 'INCLUDED' AND caip2 = $1 AND payer = $2`,
      [CAIP2, DEV_SPONSOR.toLowerCase()],
    )
    expect(row?.n).toBe(from.length)
  }, 180_000)
})
