/**
 * The inpage Wallet Standard wallet (provider/walletStandard.ts) over a fake transport: the
 * register-wallet / app-ready protocol, accounts and change events, base64 on the wire, and
 * errors with EIP-1193 codes.
 */
import { base64 } from '@scure/base'
import { describe, expect, it } from 'vitest'
import type { ProviderEventName } from '@/src/extension/protocol/page'
import type { RpcErrorObject } from '@/src/extension/protocol/rpcErrors'
import { SIGIL_ICON } from '@/src/extension/provider/icon'
import type { Settle, Transport } from '@/src/extension/provider/transport'
import { registerSolanaWallet, type StandardWallet } from '@/src/extension/provider/walletStandard'

const ADDRESS = 'JDuHr2NBczizh6ahXL1HxNMBAKoad1uxWUERoYrjJjck'
const KEY = Uint8Array.from({ length: 32 }, (_, i) => i)
const WIRE = { address: ADDRESS, publicKey: base64.encode(KEY) }

function fakeTransport() {
  const sent: Array<{ method: string; params: unknown; settle: Settle }> = []
  const handlers: Array<(event: ProviderEventName, data: unknown) => void> = []
  const transport: Transport = {
    send: (method, params, settle) => void sent.push({ method, params, settle }),
    onEvent: (h) => void handlers.push(h),
  }
  /** Answer the oldest unanswered request for `method`. */
  const answer = (method: string, outcome: { result: unknown } | { error: RpcErrorObject }) => {
    const i = sent.findIndex((s) => s.method === method)
    if (i < 0) throw new Error(`no ${method} sent`)
    const [req] = sent.splice(i, 1)
    req!.settle(outcome)
    return req!.params
  }
  return { transport, sent, answer, push: (event: ProviderEventName, data: unknown) => handlers.forEach((h) => h(event, data)) }
}

const flush = () => new Promise((r) => setTimeout(r, 0))

/** An app as @wallet-standard/app behaves: collects registered wallets. */
function app(win: EventTarget) {
  const wallets: StandardWallet[] = []
  const api = { register: (...ws: StandardWallet[]) => (wallets.push(...ws), () => {}) }
  win.addEventListener('wallet-standard:register-wallet', (e) => (e as CustomEvent).detail(api))
  return { wallets, ready: () => win.dispatchEvent(new CustomEvent('wallet-standard:app-ready', { detail: api })) }
}

async function started() {
  const win = new EventTarget()
  const t = fakeTransport()
  const early = app(win)
  const wallet = registerSolanaWallet(win, t.transport, SIGIL_ICON)
  t.answer('sol_state', { result: { chains: ['solana:localnet'], accounts: [] } })
  await flush()
  return { win, t, wallet, early }
}

const features = (w: StandardWallet) => w.features as Record<string, any>

describe('Wallet Standard registration', () => {
  it('registers once the chains are known: to apps already listening, and to each app-ready', async () => {
    const win = new EventTarget()
    const t = fakeTransport()
    const early = app(win)
    const late = app(win)
    registerSolanaWallet(win, t.transport, SIGIL_ICON)
    late.ready() // an app that announces before the wallet knows its chains
    await flush()
    expect(early.wallets).toHaveLength(0)
    expect(t.sent.map((s) => [s.method, s.params])).toEqual([['sol_state', []]])
    t.answer('sol_state', { result: { chains: ['solana:localnet'], accounts: [] } })
    await flush()
    expect(early.wallets).toHaveLength(1) // the broadcast
    expect(late.wallets).toEqual([early.wallets[0], early.wallets[0]]) // the broadcast and its app-ready (apps dedupe)
    const wallet = early.wallets[0]!
    expect(wallet).toMatchObject({ version: '1.0.0', name: 'Sigil', icon: SIGIL_ICON, chains: ['solana:localnet'], accounts: [] })
    expect(Object.keys(wallet.features).sort()).toEqual([
      'solana:signAndSendTransaction',
      'solana:signIn',
      'solana:signMessage',
      'solana:signTransaction',
      'standard:connect',
      'standard:disconnect',
      'standard:events',
    ])
    const after = app(win)
    after.ready()
    await flush()
    expect(after.wallets).toEqual([wallet])
  })

  it('still registers (without chains) when the background cannot answer', async () => {
    const win = new EventTarget()
    const t = fakeTransport()
    const a = app(win)
    registerSolanaWallet(win, t.transport, SIGIL_ICON)
    t.answer('sol_state', { error: { code: 4900, message: 'Disconnected' } })
    await flush()
    expect(a.wallets.map((w) => w.chains)).toEqual([[]])
  })
})

describe('Wallet Standard features', () => {
  it('connect sets the accounts (public key bytes, same object each time) and emits change; disconnect clears them', async () => {
    const { t, wallet } = await started()
    const changes: unknown[] = []
    const off = features(wallet)['standard:events'].on('change', (c: { accounts: Array<{ address: string }> }) =>
      changes.push(c.accounts.map((a) => a.address)),
    )
    const connecting = features(wallet)['standard:connect'].connect()
    expect(t.answer('sol_connect', { result: { accounts: [WIRE] } })).toEqual([])
    const { accounts } = await connecting
    expect(accounts).toHaveLength(1)
    expect(accounts[0]).toMatchObject({ address: ADDRESS, publicKey: KEY, chains: ['solana:localnet'] })
    expect(Object.isFrozen(accounts[0])).toBe(true)
    t.push('solanaAccountsChanged', [WIRE])
    expect(wallet.accounts[0]).toBe(accounts[0])
    expect(changes).toEqual([[ADDRESS]]) // no change event when nothing changed
    const disconnecting = features(wallet)['standard:disconnect'].disconnect()
    t.answer('sol_disconnect', { result: null })
    await disconnecting
    expect(wallet.accounts).toEqual([])
    off()
    t.push('solanaAccountsChanged', [WIRE])
    expect(changes).toEqual([[ADDRESS], []])
  })

  it('silent connect asks the background not to prompt', async () => {
    const { t, wallet } = await started()
    const connecting = features(wallet)['standard:connect'].connect({ silent: true })
    expect(t.answer('sol_connect', { result: { accounts: [] } })).toEqual([{ silent: true }])
    expect((await connecting).accounts).toEqual([])
  })

  it('signMessage and signAndSendTransaction send base64 and return bytes; errors keep their code', async () => {
    const { t, wallet } = await started()
    t.push('solanaAccountsChanged', [WIRE])
    const [account] = wallet.accounts
    const message = new TextEncoder().encode('hello')
    const signing = features(wallet)['solana:signMessage'].signMessage({ account, message })
    await flush()
    expect(t.answer('sol_signMessage', { result: { signature: base64.encode(new Uint8Array(64).fill(1)) } })).toEqual([
      { address: ADDRESS, message: base64.encode(message) },
    ])
    const [signed] = await signing
    expect(signed).toEqual({ signedMessage: message, signature: new Uint8Array(64).fill(1), signatureType: 'ed25519' })

    const transaction = Uint8Array.from([1, 2, 3])
    const sending = features(wallet)['solana:signAndSendTransaction'].signAndSendTransaction({
      account,
      transaction,
      chain: 'solana:localnet',
    })
    await flush()
    expect(t.answer('sol_signAndSendTransaction', { error: { code: 4001, message: 'User rejected the request' } })).toEqual([
      { address: ADDRESS, transaction: 'AQID', chain: 'solana:localnet' },
    ])
    await expect(sending).rejects.toMatchObject({ name: 'ProviderRpcError', code: 4001, message: 'User rejected the request' })
  })

  it('an account that is not connected is refused in the page (-32602), nothing is sent', async () => {
    const { t, wallet } = await started()
    const account = { address: ADDRESS, publicKey: KEY, chains: [], features: [] }
    await expect(
      features(wallet)['solana:signTransaction'].signTransaction({ account, transaction: new Uint8Array(1) }),
    ).rejects.toMatchObject({ code: -32602 })
    expect(t.sent).toEqual([])
  })
})

describe('solana:signIn in the page', () => {
  const signIn = (wallet: StandardWallet) => features(wallet)['solana:signIn']
  const SIGNED = base64.encode(new TextEncoder().encode('dapp.example wants you to sign in with your Solana account:\n'))
  const SIGNATURE = new Uint8Array(64).fill(3)

  it('is advertised as version 1.0.0, and connected accounts list it', async () => {
    const { t, wallet } = await started()
    expect(signIn(wallet).version).toBe('1.0.0')
    t.push('solanaAccountsChanged', [WIRE])
    expect(wallet.accounts[0]?.features).toContain('solana:signIn')
  })

  it('sends only the defined fields and returns the connected account object, the bytes and an ed25519 signature', async () => {
    const { t, wallet } = await started()
    const changes: string[][] = []
    features(wallet)['standard:events'].on('change', (c: { accounts: Array<{ address: string }> }) =>
      changes.push(c.accounts.map((a) => a.address)),
    )
    const input = {
      statement: 'Sign in to the example',
      nonce: 'abc12345',
      resources: ['https://dapp.example/terms'],
      issuedAt: '2024-01-01T00:00:00.000Z',
      domain: undefined,
      useOffchainMessage: { messageVersion: 1 },
    }
    const signing = signIn(wallet).signIn(input)
    await flush()
    expect(
      t.answer('sol_signIn', {
        result: { account: WIRE, accounts: [WIRE], signedMessage: SIGNED, signature: base64.encode(SIGNATURE) },
      }),
    ).toEqual([
      {
        statement: 'Sign in to the example',
        nonce: 'abc12345',
        issuedAt: '2024-01-01T00:00:00.000Z',
        resources: ['https://dapp.example/terms'],
      },
    ])
    const [output] = await signing
    // Connect-and-sign-in: the wallet's accounts and a change event show the new connection, same object.
    expect(changes).toEqual([[ADDRESS]])
    expect(output.account).toBe(wallet.accounts[0])
    expect(output.account).toMatchObject({ address: ADDRESS, publicKey: KEY })
    expect(output.signedMessage).toEqual(base64.decode(SIGNED))
    expect(output.signature).toEqual(SIGNATURE)
    expect(output.signatureType).toBe('ed25519')
  })

  it('no input is one sign-in with every field left to the wallet', async () => {
    const { t, wallet } = await started()
    const signing = signIn(wallet).signIn()
    await flush()
    expect(
      t.answer('sol_signIn', { result: { account: WIRE, accounts: [WIRE], signedMessage: SIGNED, signature: base64.encode(SIGNATURE) } }),
    ).toEqual([{}])
    expect(await signing).toHaveLength(1)
  })

  it.each([
    [{ statement: 42 }, 'statement must be a string'],
    [{ nonce: '' }, 'nonce must not be empty'],
    [{ statement: 'line one\nURI: https://evil.example' }, 'statement must be one line'],
    [{ uri: 'x'.repeat(2049) }, 'uri is longer than 2048 characters'],
    [{ expirationTime: 'tomorrow' }, 'expirationTime must be an RFC 3339 date-time'],
    [{ resources: 'https://dapp.example' }, 'resources must be an array of strings'],
    [{ resources: ['ok', 7] }, 'resources[1] must be a string'],
    [{ resources: Array.from({ length: 33 }, (_, i) => `r${i}`) }, 'resources lists more than 32 entries'],
    ['dapp.example', 'the sign-in input must be an object'],
  ])('refuses %j in the page (-32602 naming the field), nothing is sent', async (input, message) => {
    const { t, wallet } = await started()
    await expect(signIn(wallet).signIn(input)).rejects.toMatchObject({ code: -32602, message: expect.stringContaining(message) })
    expect(t.sent).toEqual([])
  })

  it('checks every input before sending any; a background error keeps its code', async () => {
    const { t, wallet } = await started()
    await expect(signIn(wallet).signIn({ nonce: 'abc12345' }, { nonce: 5 })).rejects.toMatchObject({ code: -32602 })
    expect(t.sent).toEqual([])
    const signing = signIn(wallet).signIn({})
    await flush()
    t.answer('sol_signIn', { error: { code: 4001, message: 'User rejected the request' } })
    await expect(signing).rejects.toMatchObject({ name: 'ProviderRpcError', code: 4001 })
    expect(wallet.accounts).toEqual([])
  })
})
