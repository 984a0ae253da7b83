/**
 * A Solana dApp page as real sites are written: its own @solana/web3.js Connection to the dev
 * runtime and Sigil through the Wallet Standard (@wallet-standard/app getWallets) wrapped in the
 * wallet adapter's StandardWalletAdapter. It connects (approved in our window), sends a
 * SystemProgram transfer with adapter.sendTransaction(tx, connection), and signs one with
 * adapter.signTransaction that its Connection broadcasts; each is approved in our window and
 * the page's confirmTransaction (and onSignature over the runtime's PubSub websocket) reports it
 * landed without error, with the recipient's balance risen (Chromium, real service and runtime).
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import type { Address } from '@solana/kit'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningSolanaRpc } from '../../src/devchain/solana/server'
import type { LaunchedExtension } from './helpers/browser'
import { type SolanaDappWorld, startSolanaDapp } from './helpers/solanaDapp'
import { dappPage } from './helpers/viemDapp'
import { axeViolations } from './helpers/axe'
import { shot } from './helpers/wallet'

/** The dApp: web3.js Connection(RPC_URL) and the Sigil wallet through the standard wallet adapter. */
const DAPP_SOURCE = `
import { Connection, PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import { getWallets } from '@wallet-standard/app'
import { StandardWalletAdapter } from '@solana/wallet-standard-wallet-adapter-base'
const connection = new Connection(window.RPC_URL, 'confirmed')
const outcome = (p) => p.then((ok) => ({ ok }), (e) => ({ code: e?.error?.code ?? e?.code, message: String(e?.message ?? e) }))
let adapter
const transfer = async (to, lamports) => {
  const tx = new Transaction().add(SystemProgram.transfer({ fromPubkey: adapter.publicKey, toPubkey: new PublicKey(to), lamports }))
  const latest = await connection.getLatestBlockhash()
  tx.recentBlockhash = latest.blockhash
  tx.feePayer = adapter.publicKey
  return { tx, latest }
}
// The outcome as the page sees it: confirmTransaction's answer, the PubSub signature notification, the balance.
const confirm = async (signature, latest, to) => {
  const notified = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no signatureNotification')), 15000)
    connection.onSignature(signature, (result) => { clearTimeout(timer); resolve(result) }, 'confirmed')
  })
  const confirmed = await connection.confirmTransaction({ signature, ...latest }, 'confirmed')
  return { signature, err: confirmed.value.err, notified: await notified, balance: await connection.getBalance(new PublicKey(to)) }
}
window.dapp = {
  ready() {
    const wallet = getWallets().get().find((w) => w.name === 'Sigil')
    if (!wallet) return false
    adapter ??= new StandardWalletAdapter({ wallet })
    return true
  },
  connect: () => outcome(adapter.connect().then(() => adapter.publicKey.toBase58())),
  send: (to, lamports) =>
    outcome((async () => {
      const { tx, latest } = await transfer(to, lamports)
      const signature = await adapter.sendTransaction(tx, connection)
      return confirm(signature, latest, to)
    })()),
  signThenBroadcast: (to, lamports) =>
    outcome((async () => {
      const { tx, latest } = await transfer(to, lamports)
      const signed = await adapter.signTransaction(tx)
      const signature = await connection.sendRawTransaction(signed.serialize())
      return confirm(signature, latest, to)
    })()),
}
`

type Sent = { signature: string; err: unknown; notified: { err: unknown }; balance: number }
type Outcome<T> = { ok: T } | { code: number; message: string }

describe('a dApp page with its own web3.js Connection and the wallet adapter (Chromium, real service and Solana dev runtime)', () => {
  let solana: RunningSolanaRpc
  let ext: LaunchedExtension
  let dapp: Page
  let owner = ''
  let world: SolanaDappWorld

  /** Starts `run` in the page and waits for our approval window, ready to click. */
  async function withApproval<T>(run: () => Promise<Outcome<T>>) {
    const opened = ext.context.waitForEvent('page', { predicate: (p) => p.url().includes('/approval.html?id='), timeout: 15_000 })
    const outcome = run()
    const approval = await opened
    await approval.locator('[data-testid="approval-origin"]').waitFor({ timeout: 15_000 })
    await expect.poll(() => approval.getByRole('button', { name: 'Approve' }).isEnabled()).toBe(true)
    return { outcome, approval }
  }

  const randomAddress = () => base58.encode(ed25519.getPublicKey(ed25519.utils.randomSecretKey()))

  beforeAll(async () => {
    world = await startSolanaDapp({
      html: (solana) => dappPage(DAPP_SOURCE, 'Solana Connection dApp', { RPC_URL: solana.url }),
      email: `solana-conn-${Date.now()}@example.test`,
      ready: 'window.dapp.ready()',
      fundSol: '2',
    })
    ;({ solana, ext, dapp, owner } = world)
  })

  afterAll(async () => {
    await world?.close()
  })

  it('the adapter connects after approval in our window and holds the Solana account', async () => {
    const { outcome, approval } = await withApproval(() => dapp.evaluate(() => (window as any).dapp.connect()))
    expect(await approval.getByRole('heading', { level: 1 }).textContent()).toBe('Connect to this site (Solana)?')
    await approval.getByRole('button', { name: 'Approve' }).click()
    expect(await outcome).toEqual({ ok: owner })
  })

  it("adapter.sendTransaction(tx, connection) is approved in our window; the page's confirmTransaction returns err: null and the recipient has the lamports", async () => {
    const recipient = randomAddress()
    const { outcome, approval } = await withApproval(() =>
      dapp.evaluate(([to, lamports]) => (window as any).dapp.send(to, lamports) as Promise<Outcome<Sent>>, [
        recipient,
        300_000_000,
      ] as const),
    )
    const text = await approval.locator('[data-testid="approval-instruction"]').textContent()
    expect(text).toContain('System Program: transfer SOL')
    expect(text).toContain(`To${recipient}`)
    expect(text).toContain('0.3 SOL (300000000 lamports)')
    // Simulated before the window opened: the 0.3 SOL leaves, the fee is not counted in it.
    await approval.locator('[data-testid="balance-changes"]').waitFor()
    expect(await approval.locator('[data-testid="balance-change"]').allTextContents()).toEqual(['SOYou send−0.3 SOL'])
    await shot(approval, 'approval-solana-balance-changes')
    expect(await axeViolations(approval)).toEqual([])
    await approval.getByRole('button', { name: 'Approve' }).click()
    const result = await outcome
    if (!('ok' in result)) throw new Error(result.message)
    expect(base58.decode(result.ok.signature)).toHaveLength(64)
    expect(result.ok.err).toBeNull()
    expect(result.ok.notified).toEqual({ err: null })
    expect(result.ok.balance).toBe(300_000_000)
    expect(solana.runtime.status(result.ok.signature)?.err).toBeNull()
  })

  it("adapter.signTransaction is approved in our window; the page's Connection broadcasts and confirms it", async () => {
    const recipient = randomAddress()
    const before = Number(solana.runtime.balance(owner as Address))
    const { outcome, approval } = await withApproval(() =>
      dapp.evaluate(([to, lamports]) => (window as any).dapp.signThenBroadcast(to, lamports) as Promise<Outcome<Sent>>, [
        recipient,
        200_000_000,
      ] as const),
    )
    expect(await approval.locator('[data-testid="approval-instruction"]').textContent()).toContain(`To${recipient}`)
    // The adapter names no chain: the only Solana network is simulated.
    await approval.locator('[data-testid="balance-changes"]').waitFor()
    expect(await approval.locator('[data-testid="balance-change-amount"]').allTextContents()).toEqual(['−0.2 SOL'])
    await approval.getByRole('button', { name: 'Approve' }).click()
    const result = await outcome
    if (!('ok' in result)) throw new Error(result.message)
    expect(result.ok.err).toBeNull()
    expect(result.ok.notified).toEqual({ err: null })
    expect(result.ok.balance).toBe(200_000_000)
    expect(Number(solana.runtime.balance(owner as Address))).toBe(before - 200_000_000 - 5000)
  })

  it('a transfer of more SOL than the account holds: the window says the simulation fails, in words; rejected, it never reaches the chain and the page gets the rejection', async () => {
    const recipient = randomAddress()
    const { outcome, approval } = await withApproval(() =>
      dapp.evaluate(([to, lamports]) => (window as any).dapp.send(to, lamports) as Promise<Outcome<Sent>>, [
        recipient,
        50_000_000_000,
      ] as const),
    )
    const unknown = await approval.locator('[data-testid="balance-changes-unknown"]').textContent()
    expect(unknown).toBe(
      'Could not simulate: the transaction fails — Not enough SOL to make this transfer. Sigil cannot say what this changes in your balances.',
    )
    await approval.getByRole('button', { name: 'Reject', exact: true }).click()
    const result = await outcome
    expect('ok' in result).toBe(false)
    expect(solana.runtime.balance(recipient as Address)).toBe(0n)
  })
})
