/**
 * Solana rent at review, through the popup router against a real service and the Solana dev
 * runtime: a SOL send that would create an account below the rent-exempt minimum, or leave the
 * sender's account below it, is refused at the estimate with the amount to send instead (the
 * minimum asked of the node); a send the node still refuses is reported in words, not JSON.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXTENSION_ORIGIN } from '@/src/api/identity'
import { DEV_SOLANA_CAIP2, resolveNetworks } from '@/src/chains/networks'
import { type RunningSolanaRpc, startSolanaRpc } from '@/src/devchain/solana/server'
import { createCore, type Core } from '@/src/extension/background/core'
import { startTestService, type TestService } from '../../../../integration/helpers/service'
import { fakeDeps, pinService } from '../../fakeDeps'
import { popupRouter } from './popupRouter'

const NEW = 'GvZEwtCHZ7YtCkQCaLRVEXsyVvDTq8pVmKVYPpcmBS5Y'
const OTHER = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'

let chain: RunningSolanaRpc
let svc: TestService
let core: Core
let sol = ''

const { ok, settle } = popupRouter(() => core)
async function node(method: string, params: unknown[]): Promise<any> {
  const res = await fetch(chain.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return ((await res.json()) as { result: unknown }).result
}
const lamportsOf = async (address: string) => BigInt((await node('getBalance', [address])).value)

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
  const email = `rent-${Date.now()}@example.test`
  await ok('otpStart', { otpType: 'OTP_TYPE_EMAIL', contact: email })
  const { messages } = (await (await fetch(`${svc.url}/dev/messages`)).json()) as { messages: Array<{ to: string; text: string }> }
  const code = /code is:?\s*([A-Za-z0-9]+)/.exec(messages.find((m) => m.to === email)?.text ?? '')?.[1]
  await ok('otpVerify', { code })
  const { wallets } = await ok('listAccounts')
  sol = wallets.flatMap((w: any) => w.accounts).find((a: any) => a.addressFormat === 'ADDRESS_FORMAT_SOLANA').address
  await ok('faucet', { caip2: DEV_SOLANA_CAIP2, address: sol })
}, 120_000)

afterAll(async () => {
  await svc?.stop()
  await chain?.close()
})

describe('Solana rent at review', () => {
  it('refuses 0.0001 SOL to a new address at review, naming the node’s minimum in SOL; nothing is sent', async () => {
    const rent = BigInt(await node('getMinimumBalanceForRentExemption', [0]))
    expect(rent).toBeGreaterThan(100_000n)
    const sol9 = (Number(rent) / 1e9).toString()
    const e = await ok('sendEstimate', { caip2: DEV_SOLANA_CAIP2, from: sol, to: NEW, amount: '100000' })
    expect(e.problem).toBe(`A new Solana account needs at least ${sol9} SOL (rent exemption); send at least that much.`)
    expect(e.problemField).toBe('amount')
    expect(e.newAccountRent).toBe(rent.toString())
    // One lamport short is still refused; the minimum itself passes.
    expect((await ok('sendEstimate', { caip2: DEV_SOLANA_CAIP2, from: sol, to: NEW, amount: String(rent - 1n) })).problem).toMatch(
      /^A new Solana account needs at least/,
    )
    expect((await ok('sendEstimate', { caip2: DEV_SOLANA_CAIP2, from: sol, to: NEW, amount: rent.toString() })).problem).toBeUndefined()
    expect(await lamportsOf(NEW)).toBe(0n)
  })

  it('allows a small amount to an address that already holds SOL', async () => {
    const rent = BigInt(await node('getMinimumBalanceForRentExemption', [0]))
    const s = await ok('sendSubmit', { caip2: DEV_SOLANA_CAIP2, from: sol, to: NEW, amount: rent.toString() })
    expect((await settle(s.sendTransactionStatusId)).state).toBe('confirmed')
    const e = await ok('sendEstimate', { caip2: DEV_SOLANA_CAIP2, from: sol, to: NEW, amount: '100000' })
    expect(e.problem).toBeUndefined()
    expect(e.newAccountRent).toBeUndefined()
  })

  it('refuses a send that would leave the sender with SOL below its rent minimum, naming the most it can send', async () => {
    const rent = BigInt(await node('getMinimumBalanceForRentExemption', [0]))
    const e = await ok('sendEstimate', { caip2: DEV_SOLANA_CAIP2, from: sol, to: NEW })
    const balance = BigInt(e.nativeBalance)
    const fee = BigInt(e.fee)
    const most = balance - fee - rent
    const leaveDust = (balance - fee - rent + 1n).toString()
    const r = await ok('sendEstimate', { caip2: DEV_SOLANA_CAIP2, from: sol, to: NEW, amount: leaveDust })
    expect(r.problemField).toBe('amount')
    expect(r.problem).toBe(
      `That would leave your account with less SOL than its rent exemption (${(Number(rent) / 1e9).toString()} SOL): send at most ${formatSol(most)} SOL, or send everything (Max).`,
    )
    expect((await ok('sendEstimate', { caip2: DEV_SOLANA_CAIP2, from: sol, to: NEW, amount: most.toString() })).problem).toBeUndefined()
    // Max (the whole balance less the fee) closes the account, which the network allows.
    expect((await ok('sendEstimate', { caip2: DEV_SOLANA_CAIP2, from: sol, to: NEW, amount: e.max })).problem).toBeUndefined()
  })

  it('reports a send the network refuses in words, never as JSON', async () => {
    // Sent without review: the network refuses the new account below rent at preflight.
    const s = await ok('sendSubmit', { caip2: DEV_SOLANA_CAIP2, from: sol, to: OTHER, amount: '100000' })
    const status = await settle(s.sendTransactionStatusId)
    expect(status.state).toBe('failed')
    expect(status.message).toBe(
      'The receiving account would hold less SOL than its rent exemption: a new Solana account needs a minimum balance, so send more.',
    )
    expect(status.message).not.toMatch(/[{}]|InsufficientFundsForRent/)
    expect(await lamportsOf(OTHER)).toBe(0n)
  })
})

function formatSol(lamports: bigint): string {
  const whole = lamports / 1_000_000_000n
  const frac = (lamports % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '')
  return frac ? `${whole}.${frac}` : whole.toString()
}
