/**
 * Speed up and cancel against a real anvil with automine off: a replacement at the same nonce with
 * higher fees is mined, the original ends FAILED as replaced (never pending forever), and a
 * replacement whose fees are too low is refused by the node with the reason in words.
 */
import { TurnkeyClient } from '@turnkey/http'
import { createPublicClient, type Hex, http, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveNetworks } from '../../src/chains/networks.js'
import { jsonRpcRequest } from '../../src/chains/jsonRpc.js'
import { type RunningDevChains, startDevChains } from '../../src/devchain/index.js'
import { freePort } from './helpers/process.js'
import { adminTurnkeyClient, startTestService, type TestService } from './helpers/service.js'

let chains: RunningDevChains
let svc: TestService
let client: TurnkeyClient
let org: string
let eth: string
const CAIP2 = 'eip155:31337'

const node = <T>(method: string, params: unknown[] = []) => jsonRpcRequest<T>(chains.evm.url, method, params)
const evm = () => createPublicClient({ transport: http(chains.evm.url) })

beforeAll(async () => {
  chains = await startDevChains({ evmPort: await freePort(), solanaPort: 0 })
  svc = await startTestService({ networks: resolveNetworks(`${CAIP2}=${chains.evm.url}`) })
  org = svc.admin.organizationId
  client = adminTurnkeyClient(svc)
  const wallet = await client.createWallet({
    type: 'ACTIVITY_TYPE_CREATE_WALLET',
    timestampMs: String(Date.now()),
    organizationId: org,
    parameters: {
      walletName: 'replace',
      accounts: [
        { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
      ],
    },
  })
  ;[eth] = wallet.activity.result.createWalletResult?.addresses as [string]
  expect((await svc.post('/dev/faucet', { caip2: CAIP2, address: eth, amount: '10' }, null)).status).toBe(200)
  await node('evm_setAutomine', [false])
}, 60_000)
afterAll(async () => {
  await svc?.stop()
  await chains?.close()
})

const status = (sendTransactionStatusId: string) => client.getSendTransactionStatus({ organizationId: org, sendTransactionStatusId })

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = await read()
    if (done(v) || Date.now() > deadline) return v
    await new Promise((r) => setTimeout(r, 50))
  }
}

async function send(parameters: Record<string, unknown>): Promise<string> {
  const res = await client.ethSendTransaction({
    type: 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2',
    timestampMs: String(Date.now()),
    organizationId: org,
    parameters: { from: eth, caip2: CAIP2 as never, ...parameters } as never,
  })
  return res.activity.result.ethSendTransactionResultV2?.sendTransactionStatusId as string
}

/** Sends, waits until the node holds it in its pool, and answers its id, hash, nonce and fees. */
async function pendingSend(to: string, value: bigint) {
  const id = await send({ calls: [{ to, value: value.toString() }] })
  const s = await until(
    () => status(id),
    (r) => r.eth?.txHash !== undefined,
  )
  const hash = s.eth?.txHash as Hex
  const tx = await until(
    () =>
      evm()
        .getTransaction({ hash })
        .catch(() => null),
    (t) => t !== null,
  )
  if (!tx) throw new Error('the node never held the send')
  return { id, hash, tx }
}

const bump = (n: bigint) => (n * 11n + 9n) / 10n + 1n

describe('speed up and cancel (same nonce, higher fees)', () => {
  it('speed up: the replacement is mined, the original ends replaced in words', async () => {
    const to = '0x4444444444444444444444444444444444444444'
    const original = await pendingSend(to, parseEther('0.01'))
    expect((await status(original.id)).txStatus).toBe('BROADCASTING')
    const faster = await send({
      calls: [{ to, value: parseEther('0.01').toString() }],
      nonce: String(original.tx.nonce),
      gasLimit: String(original.tx.gas),
      maxFeePerGas: String(bump(original.tx.maxFeePerGas as bigint)),
      maxPriorityFeePerGas: String(bump(original.tx.maxPriorityFeePerGas as bigint)),
    })
    const fasterHash = (
      await until(
        () => status(faster),
        (r) => r.eth?.txHash !== undefined,
      )
    ).eth?.txHash as Hex
    // The replacement took the original's place in the pool before anything is mined.
    await until(
      () =>
        evm()
          .getTransaction({ hash: fasterHash })
          .catch(() => null),
      (t) => t !== null,
    )
    expect((await status(original.id)).txStatus).toBe('BROADCASTING')
    await node('evm_mine')
    const done = await until(
      () => status(faster),
      (r) => r.txStatus === 'INCLUDED' || r.txStatus === 'FAILED',
    )
    expect(done.txStatus).toBe('INCLUDED')
    const ended = await until(
      () => status(original.id),
      (r) => r.txStatus === 'FAILED',
    )
    expect(ended.txStatus).toBe('FAILED')
    expect(ended.txError).toMatch(/^replaced: a newer transaction with the same nonce/)
    expect(ended.error).toMatchObject({ replaced: true, replacedBy: fasterHash })
    expect(await evm().getBalance({ address: to })).toBe(parseEther('0.01'))
    const mined = await evm().getTransaction({ hash: fasterHash })
    expect(mined.nonce).toBe(original.tx.nonce)
  }, 40_000)

  it('cancel: a 0-value send to self at the same nonce is mined, the original ends replaced', async () => {
    const to = '0x5555555555555555555555555555555555555555'
    const original = await pendingSend(to, parseEther('0.02'))
    const cancel = await send({
      calls: [{ to: eth, value: '0' }],
      nonce: String(original.tx.nonce),
      gasLimit: '21000',
      maxFeePerGas: String(bump(original.tx.maxFeePerGas as bigint)),
      maxPriorityFeePerGas: String(bump(original.tx.maxPriorityFeePerGas as bigint)),
    })
    const cancelHash = (
      await until(
        () => status(cancel),
        (r) => r.eth?.txHash !== undefined,
      )
    ).eth?.txHash as Hex
    await until(
      () =>
        evm()
          .getTransaction({ hash: cancelHash })
          .catch(() => null),
      (t) => t !== null,
    )
    await node('evm_mine')
    expect(
      (
        await until(
          () => status(cancel),
          (r) => r.txStatus !== 'BROADCASTING',
        )
      ).txStatus,
    ).toBe('INCLUDED')
    const ended = await until(
      () => status(original.id),
      (r) => r.txStatus === 'FAILED',
    )
    expect(ended.txError).toMatch(/^replaced:/)
    expect(await evm().getBalance({ address: to })).toBe(0n)
    const mined = await evm().getTransaction({ hash: cancelHash })
    expect(mined.to?.toLowerCase()).toBe(eth.toLowerCase())
    expect(mined.value).toBe(0n)
  }, 40_000)

  it('a replacement with too low a fee is refused by the node in words, and the original still lands', async () => {
    const to = '0x6666666666666666666666666666666666666666'
    const original = await pendingSend(to, parseEther('0.03'))
    const low = await send({
      calls: [{ to, value: parseEther('0.03').toString() }],
      nonce: String(original.tx.nonce),
      gasLimit: String(original.tx.gas),
      maxFeePerGas: String(original.tx.maxFeePerGas),
      maxPriorityFeePerGas: String(original.tx.maxPriorityFeePerGas),
    })
    const refused = await until(
      () => status(low),
      (r) => r.txStatus === 'FAILED' || r.txStatus === 'INCLUDED',
    )
    expect(refused.txStatus).toBe('FAILED')
    expect(refused.txError).toMatch(/underpriced/i)
    await node('evm_mine')
    expect(
      (
        await until(
          () => status(original.id),
          (r) => r.txStatus !== 'BROADCASTING',
        )
      ).txStatus,
    ).toBe('INCLUDED')
  }, 40_000)
})
