/**
 * SPL token balances and sends through the popup router, against a real service and the Solana
 * dev runtime (no fakes of ours besides the browser's storage): the dev faucet's tokens show
 * as USDC; a send to an address without a token account is reviewed as creating it (rent paid by
 * the sender), lands as a TransferChecked, and the balances read after show it; amounts are
 * checked in the token's units.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXTENSION_ORIGIN } from '@/src/api/identity'
import { DEV_SOLANA_CAIP2, DEV_SOLANA_MINT, resolveNetworks } from '@/src/chains/networks'
import { associatedTokenAddress } from '@/src/chains/splToken'
import { type RunningSolanaRpc, startSolanaRpc } from '@/src/devchain/solana/server'
import { createCore, type Core } from '@/src/extension/background/core'
import { startTestService, type TestService } from '../../../../integration/helpers/service'
import { fakeDeps, pinService } from '../../fakeDeps'
import { popupRouter } from './popupRouter'

const BOB = 'GvZEwtCHZ7YtCkQCaLRVEXsyVvDTq8pVmKVYPpcmBS5Y'
const CAROL = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'

let chain: RunningSolanaRpc
let svc: TestService
let core: Core
let sol = ''

const { call, ok, settle } = popupRouter(() => core)
async function node(method: string, params: unknown[]): Promise<any> {
  const res = await fetch(chain.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return ((await res.json()) as { result: unknown }).result
}
const tokenBalance = async (owner: string) =>
  ((await node('getTokenAccountBalance', [associatedTokenAddress(owner, DEV_SOLANA_MINT)])) as { value?: { amount: string } } | null)?.value
    ?.amount
const usdcOf = async () => (await ok('balances', { caip2: DEV_SOLANA_CAIP2 })).accounts[0].balances.find((b: any) => b.symbol === 'USDC')

beforeAll(async () => {
  chain = await startSolanaRpc({ port: 0 })
  svc = await startTestService({ networks: resolveNetworks(`${DEV_SOLANA_CAIP2}=${chain.url}`), devFaucet: true })
  const f = fakeDeps()
  f.deps.now = Date.now
  // a plain function, not a mock: the unit project resets mocks before each test
  f.deps.fetch = ((url: string, init?: RequestInit) =>
    fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), Origin: EXTENSION_ORIGIN } })) as typeof fetch
  core = createCore(f.deps)
  await pinService(f.deps.local, svc.url)
  const email = `spl-${Date.now()}@example.test`
  await ok('otpStart', { otpType: 'OTP_TYPE_EMAIL', contact: email })
  const { messages } = (await (await fetch(`${svc.url}/dev/messages`)).json()) as { messages: Array<{ to: string; text: string }> }
  const code = /code is:?\s*([A-Za-z0-9]+)/.exec(messages.find((m) => m.to === email)?.text ?? '')?.[1]
  await ok('otpVerify', { code })
  const { wallets } = await ok('listAccounts')
  sol = wallets.flatMap((w: any) => w.accounts).find((a: any) => a.addressFormat === 'ADDRESS_FORMAT_SOLANA').address
}, 120_000)

afterAll(async () => {
  await svc?.stop()
  await chain?.close()
})

describe('SPL tokens in the wallet', () => {
  it('shows the dev token at zero, then the 100 the faucet mints, as USDC of the dev mint', async () => {
    expect(await usdcOf()).toEqual({
      caip19: `${DEV_SOLANA_CAIP2}/token:${DEV_SOLANA_MINT}`,
      symbol: 'USDC',
      name: 'Dev USD Coin',
      decimals: 6,
      balance: '0',
      token: DEV_SOLANA_MINT,
    })
    await ok('faucet', { caip2: DEV_SOLANA_CAIP2, address: sol })
    expect((await usdcOf()).balance).toBe('100000000')
  })

  it('reviews a send to an address with no token account as creating it, the rent paid by the sender', async () => {
    const rent = String(await node('getMinimumBalanceForRentExemption', [165]))
    const e = await ok('sendEstimate', { caip2: DEV_SOLANA_CAIP2, from: sol, to: BOB, token: DEV_SOLANA_MINT, amount: '2500000' })
    expect(e).toMatchObject({
      asset: { symbol: 'USDC', decimals: 6, token: DEV_SOLANA_MINT },
      fee: '5000',
      max: '100000000',
      balance: '100000000',
      createsTokenAccount: { address: associatedTokenAddress(BOB, DEV_SOLANA_MINT), rent },
    })
    expect(e.problem).toBeUndefined()
  })

  it('says what is wrong with an amount or token before anything is sent', async () => {
    const over = await ok('sendEstimate', { caip2: DEV_SOLANA_CAIP2, from: sol, to: BOB, token: DEV_SOLANA_MINT, amount: '100000001' })
    expect(over.problem).toBe('Not enough USDC.')
    const other = 'So11111111111111111111111111111111111111112'
    expect(await call('sendEstimate', { caip2: DEV_SOLANA_CAIP2, from: sol, to: BOB, token: other })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT', message: /^token: not one of/ },
    })
    expect(await call('sendSubmit', { caip2: DEV_SOLANA_CAIP2, from: sol, to: BOB, token: other, amount: '1' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT', message: /^token: not one of/ },
    })
    expect(await call('sendEstimate', { caip2: DEV_SOLANA_CAIP2, from: sol, to: BOB, token: 'not-a-mint' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT' },
    })
    expect(await tokenBalance(BOB)).toBeUndefined()
  })

  it('sends the token, creating the recipient’s account; the recipient holds it on chain and the balance updates', async () => {
    const { sendTransactionStatusId } = await ok('sendSubmit', {
      caip2: DEV_SOLANA_CAIP2,
      from: sol,
      to: BOB,
      token: DEV_SOLANA_MINT,
      amount: '2500000',
    })
    const s = await settle(sendTransactionStatusId)
    expect(s).toMatchObject({ state: 'confirmed' })
    expect(await tokenBalance(BOB)).toBe('2500000')
    expect((await usdcOf()).balance).toBe('97500000')
    // The account exists now: the next send only transfers.
    const again = await ok('sendEstimate', { caip2: DEV_SOLANA_CAIP2, from: sol, to: BOB, token: DEV_SOLANA_MINT, amount: '500000' })
    expect(again.createsTokenAccount).toBeUndefined()
    const second = await ok('sendSubmit', { caip2: DEV_SOLANA_CAIP2, from: sol, to: BOB, token: DEV_SOLANA_MINT, amount: '500000' })
    expect((await settle(second.sendTransactionStatusId)).state).toBe('confirmed')
    expect(await tokenBalance(BOB)).toBe('3000000')
  })

  it('refuses the token send when the SOL cannot pay the fee and the new account’s rent', async () => {
    const all = await ok('sendEstimate', { caip2: DEV_SOLANA_CAIP2, from: sol, to: BOB })
    const drained = await ok('sendSubmit', { caip2: DEV_SOLANA_CAIP2, from: sol, to: BOB, amount: all.max })
    expect((await settle(drained.sendTransactionStatusId)).state).toBe('confirmed')
    const e = await ok('sendEstimate', { caip2: DEV_SOLANA_CAIP2, from: sol, to: CAROL, token: DEV_SOLANA_MINT, amount: '1' })
    expect(e.problem).toBe('Not enough SOL to pay the fee and the rent of the recipient’s USDC account.')
    const existing = await ok('sendEstimate', { caip2: DEV_SOLANA_CAIP2, from: sol, to: BOB, token: DEV_SOLANA_MINT, amount: '1' })
    expect(existing.problem).toBe('Not enough SOL to pay the fee.')
  })
})
