import { createPublicClient, type Hex, http, parseEther, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXTENSION_ORIGIN } from '@/src/api/identity'
import { transferCalldata } from '@/src/chains/erc20'
import { DEV_SOLANA_CAIP2, resolveNetworks } from '@/src/chains/networks'
import { type RunningDevChains, startDevChains } from '@/src/devchain/index'
import { createCore, type Core } from '@/src/extension/background/core'
import { POPUP_NETWORK_KEY } from '@/src/extension/background/chains/popupNetwork'
import { deployTestToken, sendFromDevFunder } from '../../../../integration/helpers/devchain'
import { freePort } from '../../../../integration/helpers/process'
import { startTestService, type TestService } from '../../../../integration/helpers/service'
import { fakeDeps, pinService } from '../../fakeDeps'
import { popupRouter } from './popupRouter'
import { ERC20_ARTIFACT, ERC20_BALANCE_OF_ABI } from '../../../../fixtures/contracts/erc20'

const EVM = 'eip155:31337'
const OFFLINE = 'eip155:31338'
const _artifact = ERC20_ARTIFACT
const ERC20 = ERC20_BALANCE_OF_ABI
const BOB = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'
const SOL_BOB = 'GvZEwtCHZ7YtCkQCaLRVEXsyVvDTq8pVmKVYPpcmBS5Y'

let chains: RunningDevChains
let svc: TestService
let token: Hex
let core: Core
let f: ReturnType<typeof fakeDeps>
let eth = ''
let sol = ''

const { call, ok, settle } = popupRouter(() => core)
const evm = () => createPublicClient({ transport: http(chains.evm.url) })
async function solBalance(address: string): Promise<bigint> {
  const res = await fetch(chains.solana.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getBalance', params: [address] }),
  })
  return BigInt(((await res.json()) as { result: { value: number } }).result.value)
}
const balanceOf = (b: any[], symbol: string) => b.find((x) => x.symbol === symbol)?.balance

beforeAll(async () => {
  chains = await startDevChains({ evmPort: await freePort(), solanaPort: 0 })
  token = await deployTestToken(chains.evm.url)
  svc = await startTestService({
    networks: resolveNetworks(
      `${EVM}=${chains.evm.url},${DEV_SOLANA_CAIP2}=${chains.solana.url},${OFFLINE}=http://127.0.0.1:${await freePort()}`,
      `${EVM}=${token}:TST:18:Sigil Test Token`,
    ),
  })
  f = fakeDeps()
  f.deps.now = Date.now
  // a plain function, not a mock: the unit project resets mocks before each test
  f.deps.fetch = ((url: string, init?: RequestInit) =>
    fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), Origin: EXTENSION_ORIGIN } })) as typeof fetch
  core = createCore(f.deps)
  await pinService(f.deps.local, svc.url)
  const email = `send-${Date.now()}@example.test`
  await ok('otpStart', { otpType: 'OTP_TYPE_EMAIL', contact: email })
  const { messages } = (await (await fetch(`${svc.url}/dev/messages`)).json()) as { messages: Array<{ to: string; text: string }> }
  const code = /code is:?\s*([A-Za-z0-9]+)/.exec(messages.find((m) => m.to === email)?.text ?? '')?.[1]
  await ok('otpVerify', { code })
  const { wallets } = await ok('listAccounts')
  const accounts = wallets.flatMap((w: any) => w.accounts)
  eth = accounts.find((a: any) => a.addressFormat === 'ADDRESS_FORMAT_ETHEREUM').address
  sol = accounts.find((a: any) => a.addressFormat === 'ADDRESS_FORMAT_SOLANA').address
}, 120_000)

afterAll(async () => {
  await svc?.stop()
  await chains?.close()
})

describe('networks', () => {
  it('lists the service’s signed networks, selects the first, and persists a choice as a versioned record', async () => {
    const view = await ok('networks')
    expect(view.networks.map((n: any) => n.caip2)).toEqual([EVM, DEV_SOLANA_CAIP2, OFFLINE])
    expect(view.selected.caip2).toBe(EVM)
    expect((await ok('selectNetwork', { caip2: DEV_SOLANA_CAIP2 })).selected.caip2).toBe(DEV_SOLANA_CAIP2)
    expect(f.deps.local.data.get(POPUP_NETWORK_KEY)).toEqual({ v: 1, caip2: DEV_SOLANA_CAIP2 })
    // a fresh core (worker restart) reads it back
    expect((await ok('networks')).selected.caip2).toBe(DEV_SOLANA_CAIP2)
    expect(await call('selectNetwork', { caip2: 'eip155:999' })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } })
    await f.deps.local.set({ [POPUP_NETWORK_KEY]: { v: 9, caip2: DEV_SOLANA_CAIP2 } })
    expect((await ok('networks')).selected.caip2).toBe(EVM)
  })
})

describe('balances and the faucet', () => {
  it('reads zero balances, funds from the dev faucet, and reads the new native balances', async () => {
    const before = await ok('balances', { caip2: EVM })
    expect(before.accounts).toHaveLength(1)
    expect(before.accounts[0].address).toBe(eth)
    expect(before.accounts[0].balances.map((b: any) => [b.symbol, b.balance, b.decimals])).toEqual([
      ['ETH', '0', 18],
      ['TST', '0', 18],
    ])
    expect(before.accounts[0].balances[1].token.toLowerCase()).toBe(token.toLowerCase())
    expect(await ok('faucet', { caip2: EVM, address: eth, amount: '2' })).toMatchObject({
      baseUnits: parseEther('2').toString(),
      tokens: [],
    })
    expect(await ok('faucet', { caip2: DEV_SOLANA_CAIP2, address: sol })).toMatchObject({
      baseUnits: '1000000000',
      tokens: [{ amount: '100', symbol: 'USDC' }],
    })
    expect(balanceOf((await ok('balances', { caip2: EVM })).accounts[0].balances, 'ETH')).toBe(parseEther('2').toString())
    const solView = await ok('balances', { caip2: DEV_SOLANA_CAIP2 })
    expect(solView.accounts.map((a: any) => a.address)).toEqual([sol])
    expect(balanceOf(solView.accounts[0].balances, 'SOL')).toBe('1000000000')
  })

  it('refuses the faucet for an address that is not the user’s, and on a network that is not a dev chain', async () => {
    expect(await call('faucet', { caip2: EVM, address: BOB })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } })
    expect(await call('faucet', { caip2: OFFLINE, address: eth })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT', message: /not a dev chain/ },
    })
  })

  it('says NODE_UNAVAILABLE, readably, when the network’s node is down', async () => {
    const reply = await call('balances', { caip2: OFFLINE })
    expect(reply).toMatchObject({ ok: false, error: { code: 'NODE_UNAVAILABLE' } })
    expect(reply.error.message).toMatch(/node|reach|answer/i)
  })
})

describe('send', () => {
  it('refuses a recipient with a wrong EIP-55 checksum and malformed amounts before anything is sent', async () => {
    const typo = BOB.replace('aA', 'Aa')
    expect(await call('sendEstimate', { caip2: EVM, from: eth, to: typo })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT', message: /checksum/ },
    })
    expect(await call('sendSubmit', { caip2: EVM, from: eth, to: BOB, amount: '1.5' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT' },
    })
    expect(await call('sendEstimate', { caip2: DEV_SOLANA_CAIP2, from: sol, to: BOB })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT' },
    })
  })

  it('sends an ERC-20 with the reviewed fee, to confirmed, and the recipient holds it on chain', async () => {
    await sendFromDevFunder(chains.evm.url, { to: token, data: transferCalldata(eth, parseUnits('100', 18)), gas: '0x100000' })
    const amount = parseUnits('40', 18).toString()
    const e = await ok('sendEstimate', { caip2: EVM, from: eth, to: BOB, token, amount })
    expect(e.problem).toBeUndefined()
    expect(e.asset).toMatchObject({ symbol: 'TST', decimals: 18 })
    expect(BigInt(e.fee)).toBeGreaterThan(0n)
    expect(e.max).toBe(parseUnits('100', 18).toString())
    const too = await ok('sendEstimate', { caip2: EVM, from: eth, to: BOB, token, amount: parseUnits('101', 18).toString() })
    expect(too.problem).toMatch(/Not enough TST/)
    const { sendTransactionStatusId } = await ok('sendSubmit', { caip2: EVM, from: eth, to: BOB, token, amount, evm: e.evm })
    const s = await settle(sendTransactionStatusId)
    expect(s).toMatchObject({ state: 'confirmed', txStatus: 'INCLUDED' })
    expect(s.txHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await evm().readContract({ address: token, abi: ERC20, functionName: 'balanceOf', args: [BOB] })).toBe(parseUnits('40', 18))
    const tx = await evm().getTransaction({ hash: s.txHash })
    expect(tx.gas.toString()).toBe(e.evm.gasLimit)
    expect(tx.maxFeePerGas?.toString()).toBe(e.evm.maxFeePerGas)
  })

  it('a transfer that reverts on chain ends failed, with the decoded revert message', async () => {
    const e = await ok('sendEstimate', { caip2: EVM, from: eth, to: BOB, token })
    const { sendTransactionStatusId } = await ok('sendSubmit', {
      caip2: EVM,
      from: eth,
      to: BOB,
      token,
      amount: parseUnits('1000', 18).toString(),
      evm: { ...e.evm, gasLimit: '100000' },
    })
    const s = await settle(sendTransactionStatusId)
    expect(s.state).toBe('failed')
    expect(s.message).toMatch(/transfer amount exceeds balance/)
  })

  it('sends Max ETH: the balance less the most the fee can cost, confirmed; the recipient holds exactly that', async () => {
    const balance = BigInt(balanceOf((await ok('balances', { caip2: EVM })).accounts[0].balances, 'ETH'))
    const before = await evm().getBalance({ address: BOB })
    const e = await ok('sendEstimate', { caip2: EVM, from: eth, to: BOB })
    expect(e.evm.gasLimit).toBe('25200')
    expect(BigInt(e.max)).toBe(balance - BigInt(e.maxFee))
    expect(BigInt(e.maxFee)).toBeGreaterThanOrEqual(BigInt(e.fee))
    const over = await ok('sendEstimate', { caip2: EVM, from: eth, to: BOB, amount: (BigInt(e.max) + 1n).toString() })
    expect(over.problem).toMatch(/Not enough ETH/)
    const { sendTransactionStatusId } = await ok('sendSubmit', { caip2: EVM, from: eth, to: BOB, amount: e.max, evm: e.evm })
    expect((await settle(sendTransactionStatusId)).state).toBe('confirmed')
    expect((await evm().getBalance({ address: BOB })) - before).toBe(BigInt(e.max))
  })

  it('sends SOL with the node’s fee for the message, to confirmed; the recipient holds it on chain', async () => {
    const amount = '500000000'
    const e = await ok('sendEstimate', { caip2: DEV_SOLANA_CAIP2, from: sol, to: SOL_BOB, amount })
    expect(e).toMatchObject({ fee: '5000', maxFee: '5000', max: String(1_000_000_000 - 5000), asset: { symbol: 'SOL', decimals: 9 } })
    expect(e.problem).toBeUndefined()
    const { sendTransactionStatusId } = await ok('sendSubmit', { caip2: DEV_SOLANA_CAIP2, from: sol, to: SOL_BOB, amount })
    const s = await settle(sendTransactionStatusId)
    expect(s.state).toBe('confirmed')
    expect(s.txHash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/)
    expect(await solBalance(SOL_BOB)).toBe(500_000_000n)
    expect(await solBalance(sol)).toBe(1_000_000_000n - 500_000_000n - 5000n)
  })
})

describe('history', () => {
  it('lists the sends of each account with statuses and transfers', async () => {
    const h = await ok('history', { caip2: EVM, address: eth })
    // the account's own sends, and what came in from the chain (the faucet's funding) beside them
    const sent = h.rows.filter((r: any) => r.failed || r.transfers.some((t: any) => t.direction === 'OUT'))
    const received = h.rows.filter((r: any) => !sent.includes(r))
    expect(sent).toHaveLength(3)
    expect(sent.map((r: any) => r.failed)).toEqual([false, true, false])
    expect(sent[0].transfers[0]).toMatchObject({ direction: 'OUT', symbol: 'ETH' })
    expect(received.length).toBeGreaterThan(0)
    expect(received.flatMap((r: any) => r.transfers.map((t: any) => t.direction))).not.toContain('OUT')
    expect(received.flatMap((r: any) => r.transfers.map((t: any) => t.symbol))).toContain('ETH')
    expect(received.every((r: any) => r.fee === '')).toBe(true)
    const tst = h.rows.find((r: any) => r.transfers.some((t: any) => t.symbol === 'TST'))
    expect(tst.transfers[0]).toMatchObject({ direction: 'OUT', amount: parseUnits('40', 18).toString(), decimals: 18 })
    expect(tst.transfers[0].counterparty.toLowerCase()).toBe(BOB.toLowerCase())
    const s = await ok('history', { caip2: DEV_SOLANA_CAIP2, address: sol })
    expect(s.rows[0]).toMatchObject({ failed: false, fee: '5000' })
    expect(s.rows[0].transfers[0]).toMatchObject({ direction: 'OUT', amount: '500000000', symbol: 'SOL', counterparty: SOL_BOB })
  })
})

describe('Max on Solana', () => {
  it('sends the balance less the message fee, leaving the sender at zero', async () => {
    const e = await ok('sendEstimate', { caip2: DEV_SOLANA_CAIP2, from: sol, to: SOL_BOB })
    const balance = await solBalance(sol)
    expect(BigInt(e.max)).toBe(balance - 5000n)
    const { sendTransactionStatusId } = await ok('sendSubmit', { caip2: DEV_SOLANA_CAIP2, from: sol, to: SOL_BOB, amount: e.max })
    expect((await settle(sendTransactionStatusId)).state).toBe('confirmed')
    expect(await solBalance(sol)).toBe(0n)
    expect(await solBalance(SOL_BOB)).toBe(500_000_000n + BigInt(e.max))
  })
})
