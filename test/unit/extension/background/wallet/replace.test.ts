/**
 * Speed up and cancel from the popup's background: the fee math (≥ +10% on both fees, at least
 * what the node asks), the closed router rows refusing bad input by field, and a pending send on a
 * real anvil with automine off replaced at the same nonce through the real service.
 */
import { createPublicClient, type Hex, http, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXTENSION_ORIGIN } from '@/src/api/identity'
import { resolveNetworks } from '@/src/chains/networks'
import { jsonRpcRequest } from '@/src/chains/jsonRpc'
import { type RunningDevChains, startDevChains } from '@/src/devchain/index'
import { createCore, type Core } from '@/src/extension/background/core'
import { bumped, replacementFees } from '@/src/extension/background/wallet/replace'
import { freePort } from '../../../../integration/helpers/process'
import { startTestService, type TestService } from '../../../../integration/helpers/service'
import { fakeDeps, pinService } from '../../fakeDeps'
import { popupRouter } from './popupRouter'

const EVM = 'eip155:31337'
const BOB = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'
const GWEI = 1_000_000_000n

describe('replacement fees', () => {
  it('raise both fees by at least 10%, rounded up', () => {
    expect(bumped(100n)).toBe(110n)
    expect(bumped(101n)).toBe(112n)
    expect(bumped(0n)).toBe(1n)
    expect(bumped(1n)).toBe(2n)
    const f = replacementFees(
      { maxFeePerGas: 30n * GWEI, maxPriorityFeePerGas: 2n * GWEI },
      { baseFeePerGas: 1n * GWEI, priorityFeePerGas: GWEI },
    )
    expect(f).toEqual({ maxFeePerGas: 33n * GWEI, maxPriorityFeePerGas: (22n * GWEI) / 10n })
  })

  it('take what the node asks now when it asks more', () => {
    const f = replacementFees(
      { maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: GWEI },
      { baseFeePerGas: 20n * GWEI, priorityFeePerGas: 3n * GWEI },
    )
    expect(f).toEqual({ maxFeePerGas: 43n * GWEI, maxPriorityFeePerGas: 3n * GWEI })
  })
})

let chains: RunningDevChains
let svc: TestService
let core: Core
let eth = ''
const { call, ok } = popupRouter(() => core)
const evm = () => createPublicClient({ transport: http(chains.evm.url) })
const node = <T>(method: string, params: unknown[] = []) => jsonRpcRequest<T>(chains.evm.url, method, params)

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = await read()
    if (done(v) || Date.now() > deadline) return v
    await new Promise((r) => setTimeout(r, 100))
  }
}

beforeAll(async () => {
  chains = await startDevChains({ evmPort: await freePort(), solanaPort: 0 })
  svc = await startTestService({ networks: resolveNetworks(`${EVM}=${chains.evm.url}`) })
  const f = fakeDeps()
  f.deps.now = Date.now
  f.deps.fetch = ((url: string, init?: RequestInit) =>
    fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), Origin: EXTENSION_ORIGIN } })) as typeof fetch
  core = createCore(f.deps)
  await pinService(f.deps.local, svc.url)
  const email = `replace-${Date.now()}@example.test`
  await ok('otpStart', { otpType: 'OTP_TYPE_EMAIL', contact: email })
  const { messages } = (await (await fetch(`${svc.url}/dev/messages`)).json()) as { messages: Array<{ to: string; text: string }> }
  const code = /code is:?\s*([A-Za-z0-9]+)/.exec(messages.find((m) => m.to === email)?.text ?? '')?.[1]
  await ok('otpVerify', { code })
  const { wallets } = await ok('listAccounts')
  eth = wallets.flatMap((w: any) => w.accounts).find((a: any) => a.addressFormat === 'ADDRESS_FORMAT_ETHEREUM').address
  expect((await svc.post('/dev/faucet', { caip2: EVM, address: eth, amount: '5' }, null)).status).toBe(200)
}, 120_000)

afterAll(async () => {
  await svc?.stop()
  await chains?.close()
})

describe('replaceReview / replaceSubmit rows', () => {
  it('refuse unknown kinds, extra fields and non-numeric fees by field', async () => {
    const base = { sendTransactionStatusId: 'x', caip2: EVM }
    for (const bad of [
      { ...base, kind: 'bump' },
      { ...base, kind: 'cancel', extra: 1 },
      { caip2: EVM, kind: 'cancel' },
    ])
      expect(await call('replaceReview', bad)).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } })
    expect(await call('replaceSubmit', { ...base, kind: 'speedUp', maxFeePerGas: '1.5', maxPriorityFeePerGas: '1' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT', field: 'maxFeePerGas' },
    })
  })

  it('speed up a pending send (mining paused): the review shows the new most fee, the replacement lands, the original reads Replaced', async () => {
    await node('evm_setAutomine', [false])
    try {
      const est = await ok('sendEstimate', { caip2: EVM, from: eth, to: BOB, amount: parseEther('0.1').toString() })
      const { sendTransactionStatusId: id } = await ok('sendSubmit', {
        caip2: EVM,
        from: eth,
        to: BOB,
        amount: parseEther('0.1').toString(),
        evm: est.evm,
      })
      const first = await until(
        () => ok('sendStatus', { sendTransactionStatusId: id }),
        (s: any) => s.txHash !== undefined,
      )
      await until(
        () =>
          evm()
            .getTransaction({ hash: first.txHash as Hex })
            .catch(() => null),
        (t) => t !== null,
      )
      const activity = (await ok('listActivities')).activities.find((a: any) => a.send?.id === id)
      expect(activity).toMatchObject({ statusText: 'Pending', send: { state: 'pending', caip2: EVM } })

      const review = await ok('replaceReview', { sendTransactionStatusId: id, caip2: EVM, kind: 'speedUp' })
      expect(BigInt(review.maxFeePerGas)).toBeGreaterThanOrEqual(bumped(BigInt(est.evm.maxFeePerGas)))
      expect(BigInt(review.maxPriorityFeePerGas)).toBeGreaterThanOrEqual(bumped(BigInt(est.evm.maxPriorityFeePerGas)))
      expect(review).toMatchObject({ to: BOB, value: parseEther('0.1').toString(), gasLimit: est.evm.gasLimit })
      expect(review.maxFeeText).toMatch(/^at most \d[\d.]* ETH$/)

      // fees below the original's + 10% are refused before anything is signed, naming the field
      expect(
        await call('replaceSubmit', {
          sendTransactionStatusId: id,
          caip2: EVM,
          kind: 'speedUp',
          maxFeePerGas: est.evm.maxFeePerGas,
          maxPriorityFeePerGas: review.maxPriorityFeePerGas,
        }),
      ).toMatchObject({
        ok: false,
        error: {
          code: 'INVALID_ARGUMENT',
          field: 'maxFeePerGas',
          message: expect.stringMatching(/^The new maximum fee must be at least [\d.]+ gwei/),
        },
      })

      const { sendTransactionStatusId: fast } = await ok('replaceSubmit', {
        sendTransactionStatusId: id,
        caip2: EVM,
        kind: 'speedUp',
        maxFeePerGas: review.maxFeePerGas,
        maxPriorityFeePerGas: review.maxPriorityFeePerGas,
      })
      const second = await until(
        () => ok('sendStatus', { sendTransactionStatusId: fast }),
        (s: any) => s.txHash !== undefined,
      )
      await until(
        () =>
          evm()
            .getTransaction({ hash: second.txHash as Hex })
            .catch(() => null),
        (t) => t !== null,
      )
      await node('evm_mine')
      expect(
        (
          await until(
            () => ok('sendStatus', { sendTransactionStatusId: fast }),
            (s: any) => s.state !== 'pending',
          )
        ).state,
      ).toBe('confirmed')
      const ended = await until(
        () => ok('listActivities'),
        (r: any) => r.activities.find((a: any) => a.send?.id === id)?.send.state !== 'pending',
      )
      expect(ended.activities.find((a: any) => a.send?.id === id)).toMatchObject({ statusText: 'Replaced', send: { state: 'replaced' } })
      expect(String((await evm().getTransaction({ hash: second.txHash as Hex })).nonce)).toBe(review.nonce)
      // a confirmed send cannot be replaced
      expect(await call('replaceReview', { sendTransactionStatusId: fast, caip2: EVM, kind: 'cancel' })).toMatchObject({
        ok: false,
        error: { code: 'INVALID_ARGUMENT', message: expect.stringMatching(/already confirmed/) },
      })
    } finally {
      await node('evm_setAutomine', [true])
    }
  }, 90_000)
  it('cancel a pending send (mining paused): a 0-value send to self at the same nonce lands, the recipient gets nothing', async () => {
    await node('evm_setAutomine', [false])
    try {
      const CAROL = '0x00000000000000000000000000000000000ca201'
      const est = await ok('sendEstimate', { caip2: EVM, from: eth, to: CAROL, amount: parseEther('0.2').toString() })
      const { sendTransactionStatusId: id } = await ok('sendSubmit', {
        caip2: EVM,
        from: eth,
        to: CAROL,
        amount: parseEther('0.2').toString(),
        evm: est.evm,
      })
      const first = await until(
        () => ok('sendStatus', { sendTransactionStatusId: id }),
        (s: any) => s.txHash !== undefined,
      )
      await until(
        () =>
          evm()
            .getTransaction({ hash: first.txHash as Hex })
            .catch(() => null),
        (t) => t !== null,
      )
      const review = await ok('replaceReview', { sendTransactionStatusId: id, caip2: EVM, kind: 'cancel' })
      expect(review).toMatchObject({ kind: 'cancel', to: eth, value: '0', gasLimit: '21000' })
      const { sendTransactionStatusId: cancel } = await ok('replaceSubmit', {
        sendTransactionStatusId: id,
        caip2: EVM,
        kind: 'cancel',
        maxFeePerGas: review.maxFeePerGas,
        maxPriorityFeePerGas: review.maxPriorityFeePerGas,
      })
      const second = await until(
        () => ok('sendStatus', { sendTransactionStatusId: cancel }),
        (s: any) => s.txHash !== undefined,
      )
      await until(
        () =>
          evm()
            .getTransaction({ hash: second.txHash as Hex })
            .catch(() => null),
        (t) => t !== null,
      )
      await node('evm_mine')
      expect(
        (
          await until(
            () => ok('sendStatus', { sendTransactionStatusId: cancel }),
            (s: any) => s.state !== 'pending',
          )
        ).state,
      ).toBe('confirmed')
      const ended = await until(
        () => ok('sendStatus', { sendTransactionStatusId: id }),
        (s: any) => s.state !== 'pending',
      )
      expect(ended).toMatchObject({ state: 'failed', message: 'Replaced by a newer transaction (sped up or cancelled).' })
      expect(await evm().getBalance({ address: CAROL })).toBe(0n)
      const mined = await evm().getTransaction({ hash: second.txHash as Hex })
      expect([mined.to?.toLowerCase(), mined.value, String(mined.nonce)]).toEqual([eth.toLowerCase(), 0n, review.nonce])
    } finally {
      await node('evm_setAutomine', [true])
    }
  }, 90_000)
})
