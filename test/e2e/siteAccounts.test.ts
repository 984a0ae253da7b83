/**
 * The account each site sees, in Chromium against the real service: the user has two accounts; a
 * wagmi page (@wagmi/core, EIP-6963 discovery) connects and the user picks the second account in
 * the connect window, which the page then sees; the popup's Sites screen switches the site's
 * active account and the page's accountsChanged handler (and wagmi's account) follow. A Solana
 * page connects through the Wallet Standard with the second Solana account and hears `change` on
 * a switch. Sites lists both grants and disconnects them. Picker and Sites: light and dark, axe clean.
 */
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../integration/helpers/service'
import { axeViolations } from './helpers/axe'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import { startPageServer, type PageServer } from './helpers/pageServer'
import { dappPage } from './helpers/viemDapp'
import { callBackground, configureService, loginByEmailOtp, openPopup, shot } from './helpers/wallet'
import { UNREACHABLE_MAINNET } from './helpers/networks'

/** A wagmi dApp: Sigil found through EIP-6963 (wagmi's multi-injected discovery), wagmi's account watched. */
const WAGMI_SOURCE = `
import { connect, createConfig, getAccount, http, watchAccount } from '@wagmi/core'
import { mainnet } from '@wagmi/core/chains'
const config = createConfig({ chains: [mainnet], transports: { [mainnet.id]: http('http://127.0.0.1:9') } })
const seen = []
const raw = []
watchAccount(config, { onChange: (a) => seen.push({ status: a.status, address: a.address ?? null }) })
const sigil = () => config.connectors.find((c) => c.name === 'Sigil')
window.wagmiDapp = {
  found: () => sigil()?.id ?? null,
  connect: async () => {
    const connector = sigil()
    const provider = await connector.getProvider()
    provider.on('accountsChanged', (accounts) => raw.push(accounts))
    try {
      return { ok: (await connect(config, { connector })).accounts }
    } catch (e) {
      return { code: e.code ?? e.cause?.code, message: e.message }
    }
  },
  account: () => {
    const a = getAccount(config)
    return { status: a.status, address: a.address ?? null, addresses: a.addresses ?? [] }
  },
  seen: () => seen,
  accountsChanged: () => raw,
  ethAccounts: async () => (await sigil().getProvider()).request({ method: 'eth_accounts' }),
}
// The Wallet Standard's app side, as @wallet-standard/app does it: listen, then announce app-ready.
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
window.solanaDapp = {
  wallet: () => window.__wallets.find((w) => w.name === 'Sigil'),
  connect: async () => {
    const w = window.solanaDapp.wallet()
    w.features['standard:events'].on('change', (p) => window.__changes.push((p.accounts ?? []).map((a) => a.address)))
    try {
      const r = await w.features['standard:connect'].connect()
      return { ok: r.accounts.map((a) => a.address) }
    } catch (e) {
      return { code: e.code, message: e.message }
    }
  },
  accounts: () => window.solanaDapp.wallet().accounts.map((a) => a.address),
  changes: () => window.__changes,
}
`

const pageHtml = () => dappPage(WAGMI_SOURCE, 'wagmi dApp')

type Named = { address: string; name: string; addressFormat: string }

describe('the account each site sees (Chromium, real service, wagmi page)', () => {
  let svc: TestService
  let ext: LaunchedExtension
  let pages: PageServer
  let popup: Page
  let dapp: Page
  const evm: string[] = []
  const sol: string[] = []

  /** Start `fn` in the page and wait for our connect window, ready to click. */
  async function withApproval<T>(fn: () => Promise<T>) {
    const opened = ext.context.waitForEvent('page', { predicate: (p) => p.url().includes('/approval.html?id='), timeout: 20_000 })
    const outcome = fn()
    const approval = await opened
    await approval.locator('[data-testid="approval-account-picker"]').waitFor({ timeout: 20_000 })
    await expect.poll(() => approval.getByRole('button', { name: 'Approve' }).isEnabled()).toBe(true)
    return { outcome, approval }
  }

  /** Screenshot `page` light and dark, each axe clean. */
  async function bothThemes(page: Page, name: string) {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme })
      expect(await axeViolations(page), `${name} ${colorScheme}`).toEqual([])
      await shot(page, `${name}-${colorScheme}`)
    }
    await page.emulateMedia({ colorScheme: 'light' })
  }

  beforeAll(async () => {
    svc = await startTestService({
      networks: [UNREACHABLE_MAINNET],
    })
    ext = await launchExtension()
    pages = await startPageServer({ '/': await pageHtml() })
    popup = await openPopup(ext)
    await configureService(popup, svc.url)
    await loginByEmailOtp(popup, svc.url, `sites-${Date.now()}@example.test`)
    // a second account: the next index of the wallet, an Ethereum and a Solana address
    const listed = await callBackground(popup, 'listAccounts')
    const walletId = listed.result.wallets[0].walletId as string
    expect(await callBackground(popup, 'addAccount', { walletId })).toMatchObject({ ok: true })
    const book = await callBackground(popup, 'accountBook')
    const named = book.result.groups.flatMap((g: { name: string; addresses: Named[] }) =>
      g.addresses.map((a) => ({ ...a, name: g.name })),
    ) as Named[]
    for (const a of named) {
      if (a.addressFormat === 'ADDRESS_FORMAT_ETHEREUM') evm.push(a.address)
      if (a.addressFormat === 'ADDRESS_FORMAT_SOLANA') sol.push(a.address)
    }
    expect(evm).toHaveLength(2)
    expect(sol).toHaveLength(2)
    dapp = await ext.context.newPage()
    await dapp.goto(pages.url('/'))
    await dapp.waitForFunction(() => (window as any).wagmiDapp.found() !== null, undefined, { timeout: 15_000 })
  })

  afterAll(async () => {
    await ext?.close()
    await pages?.close()
    await svc?.stop()
  })

  it('wagmi connects with the second account picked in the connect window', async () => {
    const [first, second] = evm as [string, string]
    const { outcome, approval } = await withApproval(() => dapp.evaluate(() => (window as any).wagmiDapp.connect()))
    const boxes = approval.locator('[data-testid="approval-account-picker"] input[type="checkbox"]')
    expect(await boxes.count()).toBe(2)
    expect(await approval.locator(`input[data-address="${first}"]`).isChecked()).toBe(true)
    expect(await approval.locator('[data-testid="approval-account-picker"]').textContent()).toMatch(/Account 1.*Account 2/)
    await bothThemes(approval, 'approval-connect-picker')
    // none checked: Approve is off and the window says why
    await approval.locator(`input[data-address="${first}"]`).uncheck()
    expect(await approval.getByRole('button', { name: 'Approve' }).isEnabled()).toBe(false)
    await approval.getByTestId('approval-account-none').waitFor()
    await approval.locator(`input[data-address="${second}"]`).check()
    await approval.getByRole('button', { name: 'Approve' }).click()
    expect(await outcome).toEqual({ ok: [second] })
    await expect
      .poll(() => dapp.evaluate(() => (window as any).wagmiDapp.account()))
      .toMatchObject({
        status: 'connected',
        address: second,
        addresses: [second],
      })
    expect(await dapp.evaluate(() => (window as any).wagmiDapp.ethAccounts())).toEqual([second])
  })

  it('the Wallet Standard connect picks the second Solana account', async () => {
    const [, second] = sol as [string, string]
    await dapp.waitForFunction(() => (window as any).solanaDapp.wallet() !== undefined, undefined, { timeout: 15_000 })
    const { outcome, approval } = await withApproval(() => dapp.evaluate(() => (window as any).solanaDapp.connect()))
    expect(await approval.getByRole('heading', { level: 1 }).textContent()).toBe('Connect to this site (Solana)?')
    await approval.locator(`input[data-address="${sol[0]}"]`).uncheck()
    await approval.locator(`input[data-address="${second}"]`).check()
    await approval.getByRole('button', { name: 'Approve' }).click()
    expect(await outcome).toEqual({ ok: [second] })
    expect(await dapp.evaluate(() => (window as any).solanaDapp.accounts())).toEqual([second])
  })

  it('Sites lists both grants; switching the site account fires accountsChanged and change on the page', async () => {
    const [first, second] = evm as [string, string]
    await popup.bringToFront()
    await popup.reload()
    await popup.locator('#status[data-state="ready"]').waitFor({ timeout: 15_000 })
    await popup.getByRole('button', { name: 'Sites' }).click()
    const site = popup.locator(`li.site[data-origin="${pages.origin}"]`)
    await site.waitFor({ timeout: 10_000 })
    const evmGrant = site.locator('[data-family="evm"]')
    const solGrant = site.locator('[data-family="solana"]')
    expect(await evmGrant.textContent()).toContain('Account 2')
    expect(await evmGrant.textContent()).toContain('Network: Ethereum')
    expect(await solGrant.textContent()).toContain('Account 2')
    // give the site the first account too, then make it the active one
    await evmGrant.getByRole('button', { name: `Add Account 1 to ${pages.origin}` }).click()
    await popup.getByText(`${pages.origin} can now see Account 1.`).waitFor()
    await expect.poll(() => dapp.evaluate(() => (window as any).wagmiDapp.accountsChanged())).toContainEqual([second, first])
    await bothThemes(popup, 'popup-sites-accounts')
    await popup.getByTestId('site-active-evm').selectOption(first)
    await popup.getByText(`${pages.origin} now uses Account 1.`).waitFor()
    await expect.poll(() => dapp.evaluate(() => (window as any).wagmiDapp.accountsChanged())).toContainEqual([first, second])
    await expect.poll(() => dapp.evaluate(() => (window as any).wagmiDapp.account())).toMatchObject({ address: first })
    expect(await dapp.evaluate(() => (window as any).wagmiDapp.ethAccounts())).toEqual([first, second])
    // Solana: switch to the first account; the page hears change with it
    await popup
      .locator('[data-family="solana"]')
      .getByRole('button', { name: `Add Account 1 to ${pages.origin}` })
      .click()
    await popup.getByText(`${pages.origin} can now see Account 1.`).waitFor()
    await popup.getByTestId('site-active-solana').selectOption(sol[0] as string)
    await popup.getByText(`${pages.origin} now uses Account 1.`).waitFor()
    await expect.poll(() => dapp.evaluate(() => (window as any).solanaDapp.changes())).toContainEqual([sol[0], sol[1]])
    expect(await dapp.evaluate(() => (window as any).solanaDapp.accounts())).toEqual([sol[0], sol[1]])
  })

  it('Sites disconnects Solana alone, then the site; the page hears both', async () => {
    const site = popup.locator(`li.site[data-origin="${pages.origin}"]`)
    await site.getByRole('button', { name: `Disconnect Solana from ${pages.origin}` }).click()
    await popup.getByText(`Disconnected Solana from ${pages.origin}.`).waitFor()
    await expect.poll(() => dapp.evaluate(() => (window as any).solanaDapp.changes().at(-1))).toEqual([])
    await expect.poll(() => site.locator('[data-family="solana"]').count()).toBe(0)
    expect(await dapp.evaluate(() => (window as any).wagmiDapp.ethAccounts())).toHaveLength(2)
    await site.getByRole('button', { name: `Disconnect ${pages.origin}`, exact: true }).click()
    await popup.getByText('No site is connected.').waitFor()
    await expect.poll(() => dapp.evaluate(() => (window as any).wagmiDapp.accountsChanged().at(-1))).toEqual([])
    expect(await dapp.evaluate(() => (window as any).wagmiDapp.ethAccounts())).toEqual([])
  })
})
