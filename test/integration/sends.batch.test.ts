/**
 * Batch sends through the Gas Station (SigilBatchExecutor via EIP-7702) on the dev chain, through
 * the unmodified `@turnkey/http` client: unsponsored (the account pays) and sponsored (the dev
 * sponsor pays) 3-call batches land atomically, a reverting call reverts the batch, the batch
 * nonce of get_nonces, the sponsorship budget, eth_undelegate_7702, a contract deployment, and
 * the refusals of malformed batches.
 */
import { TurnkeyClient } from '@turnkey/http'
import { createPublicClient, encodeDeployData, encodeFunctionData, type Hex, http, parseEther, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_GAS_STATION, DEV_SPONSOR } from '../../src/chains/gasStation/dev.js'
import { resolveNetworks } from '../../src/chains/networks.js'
import { type RunningEvmNode, startEvmNode } from '../../src/devchain/evm.js'
import { ERC20_ARTIFACT, ERC20_BALANCE_OF_ABI } from '../fixtures/contracts/erc20.js'
import { deployTestToken, sendFromDevFunder } from './helpers/devchain.js'
import { freePort } from './helpers/process.js'
import { adminTurnkeyClient, startTestService, submitBody, type TestService } from './helpers/service.js'

const CAIP2 = 'eip155:31337'
/** A network the service knows without a Gas Station (its node is never reached). */
const BARE = 'eip155:31338'
/** A network with a Gas Station but no gas sponsor. */
const UNSPONSORED = 'eip155:31339'

let node: RunningEvmNode
let svc: TestService
let client: TurnkeyClient
let org: string
let token: Hex
/** Accounts of one wallet: `payer` runs unsponsored batches, `sponsored` sponsored ones, `deployer` deploys. */
let payer: Hex
let sponsored: Hex
let deployer: Hex

const evm = () => createPublicClient({ transport: http(node.url) })
const balance = (address: string) => evm().getBalance({ address: address as Hex })
const tokenBalance = (owner: string) =>
  evm().readContract({ address: token, abi: ERC20_BALANCE_OF_ABI, functionName: 'balanceOf', args: [owner as Hex] })
const code = async (address: string) =>
  (
    (await (
      await fetch(node.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getCode', params: [address, 'latest'] }),
      })
    ).json()) as { result: string }
  ).result

async function settle(sendTransactionStatusId: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const status = await client.getSendTransactionStatus({ organizationId: org, sendTransactionStatusId })
    if (status.txStatus === 'INCLUDED' || status.txStatus === 'FAILED' || Date.now() > deadline) return status
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** ETH_SEND_TRANSACTION_V2 through the official client; the send's status id. */
async function sendV2(parameters: Record<string, unknown>): Promise<string> {
  const res = await client.ethSendTransaction({
    type: 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2',
    timestampMs: String(Date.now()),
    organizationId: org,
    parameters: { caip2: CAIP2, ...parameters } as any,
  })
  return res.activity.result.ethSendTransactionResultV2?.sendTransactionStatusId as string
}
/** The raw response of an ETH_SEND_TRANSACTION_V2 submit (for refusals). */
const submitV2 = (parameters: Record<string, unknown>) =>
  svc.post(
    '/public/v1/submit/eth_send_transaction',
    submitBody('ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2', org, { caip2: CAIP2, ...parameters }),
  )

function expectFieldError(r: { status: number; json: any }, field: string, status = 400) {
  expect(r.status, JSON.stringify(r.json)).toBe(status)
  expect(r.json.message).toContain(field)
  const bad = r.json.details?.find((d: any) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest')
  expect(bad?.fieldViolations.map((v: any) => v.field)).toContain(field)
}

const transfer = (to: string, amount: bigint) =>
  encodeFunctionData({ abi: ERC20_ARTIFACT.abi, functionName: 'transfer', args: [to as Hex, amount] })
const fresh = () => `0x${crypto.getRandomValues(new Uint8Array(20)).reduce((s, b) => s + b.toString(16).padStart(2, '0'), '')}` as Hex

beforeAll(async () => {
  node = await startEvmNode({ port: await freePort() })
  const networks = resolveNetworks(`${CAIP2}=${node.url},${BARE}=http://127.0.0.1:9,${UNSPONSORED}=http://127.0.0.1:9`).map((n) =>
    n.caip2 === UNSPONSORED ? { ...n, gasStation: DEV_GAS_STATION } : n,
  )
  svc = await startTestService({ networks })
  org = svc.admin.organizationId
  client = adminTurnkeyClient(svc)
  const wallet = await client.createWallet({
    type: 'ACTIVITY_TYPE_CREATE_WALLET',
    timestampMs: String(Date.now()),
    organizationId: org,
    parameters: {
      walletName: 'batches',
      accounts: [0, 1, 2].map((i) => ({
        curve: 'CURVE_SECP256K1' as const,
        pathFormat: 'PATH_FORMAT_BIP32' as const,
        path: `m/44'/60'/0'/0/${i}`,
        addressFormat: 'ADDRESS_FORMAT_ETHEREUM' as const,
      })),
    },
  })
  ;[payer, sponsored, deployer] = wallet.activity.result.createWalletResult?.addresses as [Hex, Hex, Hex]
  token = await deployTestToken(node.url)
  for (const a of [payer, sponsored, deployer]) {
    await sendFromDevFunder(node.url, { to: a, value: `0x${parseEther('10').toString(16)}` })
    await sendFromDevFunder(node.url, { to: token, data: transfer(a, parseUnits('100', 18)), gas: '0x100000' })
  }
}, 60_000)
afterAll(async () => {
  await svc?.stop()
  await node?.close()
})

describe('batch sends through the Gas Station', () => {
  it('an unsponsored 3-call batch (two ETH transfers, one ERC-20 transfer) lands atomically, paid by the account, which is now delegated to the Gas Station', async () => {
    const [a, b, c] = [fresh(), fresh(), fresh()]
    const before = await balance(payer)
    const id = await sendV2({
      from: payer,
      calls: [
        { to: a, value: parseEther('0.1').toString() },
        { to: b, value: parseEther('0.2').toString() },
        { to: token, data: transfer(c, parseUnits('7', 18)) },
      ],
    })
    const status = await settle(id)
    expect(status.txStatus, JSON.stringify(status)).toBe('INCLUDED')
    const receipt = await evm().getTransactionReceipt({ hash: status.eth?.txHash as Hex })
    expect(receipt.status).toBe('success')
    expect(receipt.from.toLowerCase()).toBe(payer.toLowerCase())
    expect(receipt.to?.toLowerCase()).toBe(payer.toLowerCase())
    expect((await evm().getTransaction({ hash: status.eth?.txHash as Hex })).type).toBe('eip7702')
    expect(await balance(a)).toBe(parseEther('0.1'))
    expect(await balance(b)).toBe(parseEther('0.2'))
    expect(await tokenBalance(c)).toBe(parseUnits('7', 18))
    const fee = receipt.gasUsed * receipt.effectiveGasPrice
    expect(before - (await balance(payer))).toBe(parseEther('0.3') + fee)
    expect(await code(payer)).toBe(`0xef0100${DEV_GAS_STATION.slice(2)}`)
  })

  it('get_nonces answers the batch nonce, which a batch signs and increments; a stale gasStationNonce fails the send clearly', async () => {
    const read = async () =>
      (await client.getNonces({ organizationId: org, address: payer, caip2: CAIP2 as any, gasStationNonce: true, nonce: true })) as {
        nonce?: string
        gasStationNonce?: string
      }
    const first = await read()
    expect(first.gasStationNonce).toBe('1')
    expect(first.nonce).toBe(String(await evm().getTransactionCount({ address: payer })))
    const a = fresh()
    // Already delegated: the batch goes out as a type-2 transaction with the pinned batch nonce.
    const ok = await settle(
      await sendV2({
        from: payer,
        gasStationNonce: '1',
        calls: [
          { to: a, value: '1000' },
          { to: a, value: '2000' },
        ],
      }),
    )
    expect(ok.txStatus, JSON.stringify(ok)).toBe('INCLUDED')
    expect((await evm().getTransaction({ hash: ok.eth?.txHash as Hex })).type).toBe('eip1559')
    expect(await balance(a)).toBe(3000n)
    expect((await read()).gasStationNonce).toBe('2')
    const stale = await settle(
      await sendV2({
        from: payer,
        gasStationNonce: '1',
        calls: [
          { to: a, value: '1' },
          { to: a, value: '1' },
        ],
      }),
    )
    expect(stale.txStatus).toBe('FAILED')
    expect(stale.txError).toContain('gasStationNonce')
    expect(await balance(a)).toBe(3000n)
    expect((await read()).gasStationNonce).toBe('2')
  })

  it('a batch whose second call reverts fails as a whole, naming the call and its revert reason; nothing moves', async () => {
    const a = fresh()
    const before = await tokenBalance(payer)
    const status = await settle(
      await sendV2({
        from: payer,
        calls: [
          { to: a, value: parseEther('0.01').toString() },
          // more tokens than the account holds: the token reverts
          { to: token, data: transfer(a, parseUnits('1000000', 18)) },
          { to: a, value: parseEther('0.01').toString() },
        ],
      }),
    )
    expect(status.txStatus).toBe('FAILED')
    expect(status.txError).toMatch(/^call 2 of 3 (would revert|reverted): /)
    expect(status.error?.eth?.revertChain?.[0]?.address?.toLowerCase()).toBe(token.toLowerCase())
    expect(await balance(a)).toBe(0n)
    expect(await tokenBalance(payer)).toBe(before)
  })

  it('a sponsored 3-call batch: the account pays exactly the values, the dev sponsor pays the gas', async () => {
    const [a, b, c] = [fresh(), fresh(), fresh()]
    const accountBefore = await balance(sponsored)
    const sponsorBefore = await balance(DEV_SPONSOR)
    const status = await settle(
      await sendV2({
        from: sponsored,
        sponsor: true,
        calls: [
          { to: a, value: parseEther('0.5').toString() },
          { to: b, value: parseEther('0.25').toString() },
          { to: token, data: transfer(c, parseUnits('3', 18)) },
        ],
      }),
    )
    expect(status.txStatus, JSON.stringify(status)).toBe('INCLUDED')
    const receipt = await evm().getTransactionReceipt({ hash: status.eth?.txHash as Hex })
    expect(receipt.from.toLowerCase()).toBe(DEV_SPONSOR.toLowerCase())
    expect(receipt.to?.toLowerCase()).toBe(sponsored.toLowerCase())
    expect(accountBefore - (await balance(sponsored))).toBe(parseEther('0.75'))
    expect(sponsorBefore - (await balance(DEV_SPONSOR))).toBe(receipt.gasUsed * receipt.effectiveGasPrice)
    expect(await balance(a)).toBe(parseEther('0.5'))
    expect(await tokenBalance(c)).toBe(parseUnits('3', 18))
    expect(await code(sponsored)).toBe(`0xef0100${DEV_GAS_STATION.slice(2)}`)
    // The account's history lists the batch as its own, with what each call moved, sponsored.
    const history = await client.listEthTransactionHistory({ organizationId: org, address: sponsored, caip2: CAIP2 as any })
    const item = history.transactions?.find((t: any) => t.transactionHash === status.eth?.txHash) as any
    expect(item.from.toLowerCase()).toBe(sponsored.toLowerCase())
    expect(item.turnkey.sponsored).toBe(true)
    expect(item.transfers.map((t: any) => [t.direction, t.counterparty.toLowerCase(), t.amount])).toEqual([
      ['OUT', a, parseEther('0.5').toString()],
      ['OUT', b, parseEther('0.25').toString()],
      ['OUT', c, parseUnits('3', 18).toString()],
    ])
    // The sponsor's fee counts against the organization's gas budget.
    const usage = await client.getGasUsage({ organizationId: org })
    expect(Number(usage.usageUsd)).toBeGreaterThan(0)
  })

  it('eth_undelegate_7702 clears the delegation: the account has no code again', async () => {
    expect(await code(sponsored)).not.toBe('0x')
    const res = await client.ethUndelegate7702({
      type: 'ACTIVITY_TYPE_ETH_UNDELEGATE_7702',
      timestampMs: String(Date.now()),
      organizationId: org,
      parameters: { from: sponsored, caip2: CAIP2 as any },
    })
    const status = await settle(res.activity.result.ethUndelegate7702Result?.sendTransactionStatusId as string)
    expect(status.txStatus, JSON.stringify(status)).toBe('INCLUDED')
    expect(await code(sponsored)).toBe('0x')
    // Again: there is nothing to undelegate, which the send says.
    const again = await client.ethUndelegate7702({
      type: 'ACTIVITY_TYPE_ETH_UNDELEGATE_7702',
      timestampMs: String(Date.now()),
      organizationId: org,
      parameters: { from: sponsored, caip2: CAIP2 as any },
    })
    const second = await settle(again.activity.result.ethUndelegate7702Result?.sendTransactionStatusId as string)
    expect(second.txStatus).toBe('FAILED')
    expect(second.txError).toContain('not delegated')
  })

  it('a call without to deploys a contract: the status names the contract address, where the code is', async () => {
    const status = await settle(
      await sendV2({
        from: deployer,
        calls: [
          {
            data: encodeDeployData({
              abi: ERC20_ARTIFACT.abi,
              bytecode: ERC20_ARTIFACT.bytecode,
              args: ['Deployed', 'DPL', parseUnits('5', 18), deployer],
            }),
          },
        ],
      }),
    )
    expect(status.txStatus, JSON.stringify(status)).toBe('INCLUDED')
    const receipt = await evm().getTransactionReceipt({ hash: status.eth?.txHash as Hex })
    const address = (status.eth as { contractAddress?: string }).contractAddress
    expect(address).toBe(receipt.contractAddress?.toLowerCase())
    expect((await code(address as string)).length).toBeGreaterThan(100)
    expect(
      await evm().readContract({ address: address as Hex, abi: ERC20_BALANCE_OF_ABI, functionName: 'balanceOf', args: [deployer] }),
    ).toBe(parseUnits('5', 18))
  })

  it('V1 sponsor: true is a one-call sponsored send (the undelegated account delegates again)', async () => {
    const a = fresh()
    const sponsorBefore = await balance(DEV_SPONSOR)
    const res = await client.ethSendTransaction({
      type: 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION',
      timestampMs: String(Date.now()),
      organizationId: org,
      parameters: { from: sponsored, caip2: CAIP2, to: a, value: '12345', sponsor: true } as any,
    } as any)
    const status = await settle((res.activity.result as any).ethSendTransactionResult.sendTransactionStatusId)
    expect(status.txStatus, JSON.stringify(status)).toBe('INCLUDED')
    const receipt = await evm().getTransactionReceipt({ hash: status.eth?.txHash as Hex })
    expect(receipt.from.toLowerCase()).toBe(DEV_SPONSOR.toLowerCase())
    expect(sponsorBefore - (await balance(DEV_SPONSOR))).toBe(receipt.gasUsed * receipt.effectiveGasPrice)
    expect(await balance(a)).toBe(12345n)
    expect(await code(sponsored)).toBe(`0xef0100${DEV_GAS_STATION.slice(2)}`)
  })

  it('a sponsored send past the organization budget is refused with RESOURCE_EXHAUSTED, recording nothing', async () => {
    const up = await svc.post(
      '/public/v1/submit/upsert_gas_usage_config',
      submitBody('ACTIVITY_TYPE_UPSERT_GAS_USAGE_CONFIG', org, {
        orgWindowLimitUsd: '0.000001',
        subOrgWindowLimitUsd: '0.000001',
        windowDurationMinutes: '60',
        enabled: true,
      }),
    )
    expect(up.status, JSON.stringify(up.json)).toBe(200)
    const r = await submitV2({ from: deployer, sponsor: true, calls: [{ to: fresh(), value: '1' }] })
    expect(r.status, JSON.stringify(r.json)).toBe(429)
    expect(r.json.message).toContain('parameters.sponsor')
  })
})

describe('refusals', () => {
  it('51 calls, a batch call without to, a deadline in the past or beyond 24 hours, a malformed gasStationNonce', async () => {
    const call = { to: fresh(), value: '1' }
    const many = await submitV2({ from: payer, calls: Array.from({ length: 51 }, () => call) })
    expect(many.status).toBe(400)
    expect(JSON.stringify(many.json)).toContain('parameters.calls')
    expectFieldError(await submitV2({ from: payer, calls: [call, { value: '1', data: '0x' }] }), 'parameters.calls[1].to')
    expectFieldError(await submitV2({ from: payer, sponsor: true, calls: [{ data: '0x6000' }] }), 'parameters.calls[0].to')
    expectFieldError(await submitV2({ from: payer, calls: [{ data: '0x' }] }), 'parameters.calls[0].data')
    const now = Math.floor(Date.now() / 1000)
    expectFieldError(await submitV2({ from: payer, calls: [call, call], deadline: String(now - 60) }), 'parameters.deadline')
    expectFieldError(await submitV2({ from: payer, calls: [call, call], deadline: String(now + 2 * 86400) }), 'parameters.deadline')
    expectFieldError(await submitV2({ from: payer, calls: [call, call], gasStationNonce: '-1' }), 'parameters.gasStationNonce')
  })

  it('a batch or sponsored send on a network without a Gas Station, or sponsored without a sponsor, is refused naming the parameter', async () => {
    const call = { to: fresh(), value: '1' }
    const bare = await submitV2({ from: payer, caip2: BARE, sponsor: true, calls: [call] })
    expectFieldError(bare, 'parameters.caip2', 412)
    expect(bare.json.message).toContain('no Gas Station is configured on eip155:31338')
    expectFieldError(await submitV2({ from: payer, caip2: BARE, calls: [call, call] }), 'parameters.caip2', 412)
    expectFieldError(await submitV2({ from: payer, caip2: UNSPONSORED, sponsor: true, calls: [call] }), 'parameters.sponsor', 412)
    const nonces = await svc.post('/public/v1/query/get_nonces', {
      organizationId: org,
      address: payer,
      caip2: BARE,
      gasStationNonce: true,
    })
    expectFieldError(nonces, 'gasStationNonce')
  })
})
