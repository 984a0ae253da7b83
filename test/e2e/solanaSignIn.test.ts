/**
 * Sign In With Solana as a real dApp does it: a page bundling @wallet-standard/app and
 * @solana/wallet-standard-wallet-adapter-base finds Sigil, wraps it in a `StandardWalletAdapter`
 * and calls `adapter.signIn(...)` on a site not yet connected. One window ("Sign in to <host>")
 * shows the account the site is given; approving connects the site and the page's own
 * `verifySignIn` accepts the output. A message for another domain gets the blocking warning, and an
 * expired request is refused without a window (Chromium, real service and Solana dev runtime).
 */
import { base58 } from '@scure/base'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeViolations } from './helpers/axe'
import type { LaunchedExtension } from './helpers/browser'
import type { PageServer } from './helpers/pageServer'
import { type SolanaDappWorld, startSolanaDapp } from './helpers/solanaDapp'
import { dappPage, overflowing } from './helpers/viemDapp'
import { shot } from './helpers/wallet'

/** The dApp: wallet-adapter's StandardWalletAdapter over the wallet @wallet-standard/app finds. */
const SOURCE = `
import { getWallets } from '@wallet-standard/app'
import { StandardWalletAdapter } from '@solana/wallet-standard-wallet-adapter-base'
import { verifySignIn } from '@solana/wallet-standard-util'
const { get } = getWallets()
const sigil = () => get().find((w) => w.name === 'Sigil')
const changes = []
let adapter
window.dapp = {
  ready() {
    const wallet = sigil()
    if (!wallet) return false
    if (!adapter) {
      adapter = new StandardWalletAdapter({ wallet })
      wallet.features['standard:events'].on('change', (c) => changes.push((c.accounts ?? []).map((a) => a.address)))
    }
    return true
  },
  changes: () => changes,
  async signIn(input) {
    try {
      const output = await adapter.signIn(input)
      return {
        ok: {
          verified: verifySignIn(input, output),
          tampered: verifySignIn({ ...input, nonce: 'someothernonce' }, output),
          signedText: new TextDecoder().decode(output.signedMessage),
          address: output.account.address,
          sameAccount: output.account === sigil().accounts[0],
          connected: adapter.connected,
          publicKey: adapter.publicKey && adapter.publicKey.toBase58(),
          walletAccounts: sigil().accounts.map((a) => a.address),
        },
      }
    } catch (e) {
      const cause = e.error ?? e
      return { code: cause.code, message: cause.message, name: e.name }
    }
  },
}
`

type Outcome = { ok: Record<string, any> } | { code: number; message: string; name: string }

describe('Sign In With Solana through wallet-adapter (Chromium, real service and Solana dev runtime)', () => {
  let ext: LaunchedExtension
  let pages: PageServer
  let dapp: Page
  let owner = ''
  let world: SolanaDappWorld
  let host = ''

  const signIn = (input: Record<string, unknown>) => dapp.evaluate((i) => (window as any).dapp.signIn(i), input) as Promise<Outcome>

  /** Start a sign-in and wait for our window, shown and interactive. */
  async function withWindow(input: Record<string, unknown>) {
    const opened = ext.context.waitForEvent('page', { predicate: (p) => p.url().includes('/approval.html?id='), timeout: 20_000 })
    const outcome = signIn(input)
    const approval = await opened
    await approval.locator('[data-testid="approval-origin"]').waitFor({ timeout: 20_000 })
    return { outcome, approval }
  }

  /** Screenshot `p` light and dark, each axe clean and without horizontal overflow. */
  async function bothThemes(p: Page, name: string) {
    for (const colorScheme of ['light', 'dark'] as const) {
      await p.emulateMedia({ colorScheme })
      expect(await axeViolations(p), `${name} ${colorScheme}`).toEqual([])
      expect(await overflowing(p), `${name} ${colorScheme}`).toEqual([])
      await shot(p, `${name}-${colorScheme}`)
    }
    await p.emulateMedia({ colorScheme: 'light' })
  }

  beforeAll(async () => {
    world = await startSolanaDapp({
      html: () => dappPage(SOURCE, 'Solana sign-in dApp'),
      email: `siws-${Date.now()}@example.test`,
      ready: 'window.dapp.ready()',
    })
    ;({ ext, pages, dapp, owner } = world)
    host = new URL(pages.origin).host
  })

  afterAll(async () => {
    await world?.close()
  })

  it('an expired request is refused without a window (-32602 naming expirationTime)', async () => {
    const windows = ext.context.pages().length
    const outcome = await signIn({ statement: 'Too late', expirationTime: '2020-01-01T00:00:00.000Z' })
    expect(outcome).toMatchObject({ name: 'WalletSignInError', code: -32602 })
    expect((outcome as { message: string }).message).toContain('expirationTime 2020-01-01T00:00:00.000Z has passed')
    expect(ext.context.pages()).toHaveLength(windows)
  })

  it('on a site not yet connected: one window "Sign in to <host>" that connects the account; verifySignIn accepts the output and the adapter is connected', async () => {
    const input = {
      statement: 'Sign in to the Solana sign-in dApp',
      nonce: 'k3yn0nce42',
      issuedAt: new Date().toISOString(),
      uri: `${pages.origin}/`,
    }
    const { outcome, approval } = await withWindow(input)
    await expect.poll(() => approval.getByRole('heading', { level: 1 }).textContent()).toBe(`Sign in to ${host}`)
    expect(await approval.locator('[data-testid="approval-account"]').textContent()).toBe(owner)
    expect(await approval.locator('[data-testid="signin-connects"]').textContent()).toBe(
      `Approving also connects this site to Account 1 (${owner}).`,
    )
    expect(await approval.locator('[data-testid="signin-statement"]').textContent()).toBe(input.statement)
    expect(await approval.locator('[data-testid="signin-rows"]').textContent()).toContain(input.nonce)
    expect(await approval.locator('[data-testid="signin-mismatch"]').count()).toBe(0)
    const shownText = (await approval.locator('[data-testid="signin-text"] pre').textContent()) ?? ''
    await expect.poll(() => approval.getByRole('button', { name: 'Approve' }).isEnabled()).toBe(true)
    await bothThemes(approval, 'solana-sign-in')
    await approval.getByRole('button', { name: 'Approve' }).click()
    const result = await outcome
    if (!('ok' in result)) throw new Error(`${result.name}: ${result.message}`)
    expect(result.ok).toEqual({
      verified: true,
      tampered: false,
      signedText: expect.stringMatching(
        new RegExp(`^${host.replace(/\./g, '\\.')} wants you to sign in with your Solana account:\\n${owner}\\n`),
      ),
      address: owner,
      sameAccount: true,
      connected: true,
      publicKey: base58.encode(base58.decode(owner)),
      walletAccounts: [owner],
    })
    // The window showed exactly the text that was signed.
    expect(result.ok['signedText']).toBe(shownText)
    expect(await dapp.evaluate(() => (window as any).dapp.changes())).toEqual([[owner]])
  })

  it("a message for another domain shows the blocking warning; Approve waits for the user's explicit override", async () => {
    const input = { domain: 'evil.example', statement: 'Sign in to evil', nonce: 'ev1lnonce9' }
    const { outcome, approval } = await withWindow(input)
    await expect.poll(() => approval.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in to evil.example')
    expect(await approval.locator('[data-testid="signin-connects"]').count()).toBe(0) // already connected
    const alert = approval.getByRole('alert')
    await expect.poll(() => alert.first().textContent()).toContain(`is asking you to sign in to evil.example`)
    const approve = approval.getByRole('button', { name: 'Approve' })
    expect(await approve.isDisabled()).toBe(true)
    await bothThemes(approval, 'solana-sign-in-mismatch')
    await approval.getByLabel('I understand, sign in anyway').check()
    await expect.poll(() => approve.isEnabled()).toBe(true)
    await approve.click()
    const result = await outcome
    if (!('ok' in result)) throw new Error(`${result.name}: ${result.message}`)
    expect(result.ok).toMatchObject({ verified: true, address: owner })
    expect(result.ok['signedText']).toMatch(/^evil\.example wants you to sign in with your Solana account:\n/)
  })
})
