/**
 * A Solana dApp finds Sigil through the Wallet Standard (register-wallet / app-ready events),
 * connects, signs a message (checked with ed25519) and signs and sends a SOL transfer on the real
 * Solana dev runtime through the real service, each approved in our window (Chromium).
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { getTransferSolInstruction } from '@solana-program/system'
import {
  address,
  appendTransactionMessageInstruction,
  compileTransaction,
  createNoopSigner,
  createSolanaRpc,
  createTransactionMessage,
  devnet,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningSolanaRpc } from '../../src/devchain/solana/server'
import type { LaunchedExtension } from './helpers/browser'
import { type SolanaDappWorld, startSolanaDapp } from './helpers/solanaDapp'
import { shot } from './helpers/wallet'

/** The dApp's side of the Wallet Standard, as @wallet-standard/app does it: listen, then announce app-ready. */
const DAPP_PAGE = `<!doctype html><html><head><title>Solana dApp</title><script>
  window.__wallets = []
  window.__changes = []
  const api = {
    register(...wallets) {
      for (const w of wallets) if (!window.__wallets.includes(w)) window.__wallets.push(w)
      return () => {}
    },
  }
  window.addEventListener('wallet-standard:register-wallet', (e) => e.detail(api))
  window.dispatchEvent(new CustomEvent('wallet-standard:app-ready', { detail: api }))
</script></head><body><h1>Solana dApp</h1></body></html>`

type Outcome<T> = { ok: T } | { code: number; message: string }

describe('Solana dApp through the Wallet Standard (Chromium, real service and Solana dev runtime)', () => {
  let solana: RunningSolanaRpc
  let ext: LaunchedExtension
  let dapp: Page
  let owner = ''
  let world: SolanaDappWorld

  /** Run `fn(wallet, arg)` in the page against Sigil's wallet; resolves with its result or the error's code. */
  function inWallet<T, A>(fn: (wallet: any, arg: A) => Promise<T>, arg: A): Promise<Outcome<T>> {
    return dapp.evaluate(
      async ([source, a]) => {
        const wallet = (window as any).__wallets.find((w: { name: string }) => w.name === 'Sigil')
        const f = (0, eval)(`(${source})`)
        try {
          return { ok: await f(wallet, a) }
        } catch (e) {
          return { code: (e as { code: number }).code, message: (e as Error).message }
        }
      },
      [fn.toString(), arg] as const,
    )
  }

  /** Start `fn` in the page and wait for our approval window, ready to click. */
  async function withApproval<T, A>(fn: (wallet: any, arg: A) => Promise<T>, arg: A) {
    const opened = ext.context.waitForEvent('page', { predicate: (p) => p.url().includes('/approval.html?id='), timeout: 15_000 })
    const outcome = inWallet(fn, arg)
    const approval = await opened
    await approval.locator('[data-testid="approval-origin"]').waitFor({ timeout: 15_000 })
    await expect.poll(() => approval.getByRole('button', { name: 'Approve' }).isEnabled()).toBe(true)
    return { outcome, approval }
  }

  beforeAll(async () => {
    world = await startSolanaDapp({
      html: DAPP_PAGE,
      email: `solana-${Date.now()}@example.test`,
      ready: "window.__wallets.some((w) => w.name === 'Sigil')",
      fundSol: '2',
    })
    ;({ solana, ext, dapp, owner } = world)
  })

  afterAll(async () => {
    await world?.close()
  })

  it('the page discovers Sigil with the standard features and the dev chain as solana:localnet', async () => {
    const wallet = await inWallet(
      async (w) => ({
        version: w.version,
        icon: w.icon.slice(0, 18),
        chains: w.chains,
        accounts: w.accounts.length,
        features: Object.keys(w.features).sort(),
        versions: w.features['solana:signAndSendTransaction'].supportedTransactionVersions,
      }),
      null,
    )
    expect(wallet).toEqual({
      ok: {
        version: '1.0.0',
        icon: 'data:image/svg+xml',
        chains: ['solana:localnet'],
        accounts: 0,
        features: [
          'solana:signAndSendTransaction',
          'solana:signIn',
          'solana:signMessage',
          'solana:signTransaction',
          'standard:connect',
          'standard:disconnect',
          'standard:events',
        ],
        versions: ['legacy', 0],
      },
    })
  })

  it('standard:connect opens our window; approve → the account with its public key, and a change event', async () => {
    expect(await inWallet(async (w) => (await w.features['standard:connect'].connect({ silent: true })).accounts.length, null)).toEqual({
      ok: 0,
    })
    await inWallet(async (w) => {
      w.features['standard:events'].on('change', (c: { accounts?: Array<{ address: string }> }) =>
        (window as any).__changes.push(c.accounts?.map((a) => a.address)),
      )
    }, null)
    const { outcome, approval } = await withApproval(async (w) => {
      const { accounts } = await w.features['standard:connect'].connect()
      return accounts.map((a: { address: string; publicKey: Uint8Array; features: string[] }) => ({
        address: a.address,
        publicKey: Array.from(a.publicKey),
        features: a.features.length,
      }))
    }, null)
    expect(await approval.locator('[data-testid="approval-account"]').textContent()).toBe(owner)
    expect(await approval.getByRole('heading', { level: 1 }).textContent()).toBe('Connect to this site (Solana)?')
    await approval.getByRole('button', { name: 'Approve' }).click()
    expect(await outcome).toEqual({ ok: [{ address: owner, publicKey: Array.from(base58.decode(owner)), features: 4 }] })
    await expect.poll(() => dapp.evaluate(() => (window as any).__changes)).toEqual([[owner]])
  })

  it('solana:signMessage shows the text; the signature verifies with ed25519 against the account key', async () => {
    const text = 'Sign in to the Solana dApp'
    const { outcome, approval } = await withApproval(async (w, t: string) => {
      const [r] = await w.features['solana:signMessage'].signMessage({ account: w.accounts[0], message: new TextEncoder().encode(t) })
      return { signature: Array.from(r.signature as Uint8Array), signed: new TextDecoder().decode(r.signedMessage) }
    }, text)
    expect(await approval.locator('[data-testid="approval-message"]').textContent()).toBe(text)
    // the window names the Solana account as the wallet does (Account 1, with its address)
    expect(await approval.locator('[data-testid="approval-account-name"]').textContent()).toBe('Account 1')
    expect(await approval.locator('[data-testid="approval-account"]').textContent()).toBe(owner)
    await approval.getByRole('button', { name: 'Approve' }).click()
    const result = await outcome
    if (!('ok' in result)) throw new Error(result.message)
    expect(result.ok.signed).toBe(text)
    expect(ed25519.verify(Uint8Array.from(result.ok.signature), new TextEncoder().encode(text), base58.decode(owner))).toBe(true)
  })

  async function transfer(feePayer: string, to: string, lamports: bigint): Promise<number[]> {
    const rpc = createSolanaRpc(devnet(solana.url))
    const { value } = await rpc.getLatestBlockhash().send()
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayer(address(feePayer), m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(value, m),
      (m) =>
        appendTransactionMessageInstruction(
          getTransferSolInstruction({ source: createNoopSigner(address(owner)), destination: address(to), amount: lamports }),
          m,
        ),
    )
    return Array.from(getTransactionEncoder().encode(compileTransaction(message)))
  }

  it('a transaction whose fee payer is another account is refused (-32602) without a window', async () => {
    const stranger = base58.encode(ed25519.getPublicKey(ed25519.utils.randomSecretKey()))
    const tx = await transfer(stranger, stranger, 1000n)
    let opened = 0
    const count = (p: Page) => void (p.url().includes('/approval.html') && opened++)
    ext.context.on('page', count)
    const result = await inWallet(
      (w, bytes: number[]) =>
        w.features['solana:signAndSendTransaction'].signAndSendTransaction({
          account: w.accounts[0],
          transaction: Uint8Array.from(bytes),
          chain: 'solana:localnet',
        }),
      tx,
    )
    expect(result).toMatchObject({ code: -32602, message: expect.stringContaining('is not the connected account') })
    await dapp.waitForTimeout(500)
    ext.context.off('page', count)
    expect(opened).toBe(0)
  })

  it('solana:signAndSendTransaction shows the transfer (from, to, SOL, fee payer); approve → sent and received on chain', async () => {
    const recipient = base58.encode(ed25519.getPublicKey(ed25519.utils.randomSecretKey()))
    const lamports = 500_000_000n
    const tx = await transfer(owner, recipient, lamports)
    const { outcome, approval } = await withApproval(async (w, bytes: number[]) => {
      const [r] = await w.features['solana:signAndSendTransaction'].signAndSendTransaction({
        account: w.accounts[0],
        transaction: Uint8Array.from(bytes),
        chain: 'solana:localnet',
      })
      return Array.from(r.signature as Uint8Array)
    }, tx)
    const instruction = approval.locator('[data-testid="approval-instruction"]')
    expect(await instruction.count()).toBe(1)
    const text = await instruction.textContent()
    expect(text).toContain('System Program: transfer SOL')
    expect(text).toContain(`From${owner}`)
    expect(text).toContain(`To${recipient}`)
    expect(text).toContain('0.5 SOL (500000000 lamports)')
    expect(await approval.locator('[data-testid="approval-solana-transaction"]').textContent()).toContain(`Fee payer${owner}`)
    expect(await approval.getByRole('heading', { level: 1 }).textContent()).toBe('Sign and send this Solana transaction?')
    await shot(approval, 'approval-solana-transfer')
    await approval.getByRole('button', { name: 'Approve' }).click()
    const result = await outcome
    if (!('ok' in result)) throw new Error(result.message)
    expect(result.ok).toHaveLength(64)
    const rpc = createSolanaRpc(devnet(solana.url))
    const signature = base58.encode(Uint8Array.from(result.ok))
    const { value: statuses } = await rpc.getSignatureStatuses([signature as never]).send()
    expect(statuses[0]?.err ?? null).toBeNull()
    await expect.poll(async () => (await rpc.getBalance(address(recipient)).send()).value, { timeout: 15_000 }).toBe(lamports)
  })
})
