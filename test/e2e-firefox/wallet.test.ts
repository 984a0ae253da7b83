/**
 * The Firefox MV3 build in a real firefox-esr (headless, WebDriver BiDi), against the real service
 * started with the defaults `npm start` uses (no origin set by hand: outside production the service
 * and its relay answer any `moz-extension://<UUID>`, the per-profile origin Firefox draws):
 * the add-on installs and its popup renders; a service with production's origin defaults is refused
 * with the origin to allow named; the service is trusted through Settings; email OTP
 * sign-up with the code from the dev mailbox; the accounts list is the service's; a viem dApp finds
 * Sigil through EIP-6963, connects and gets a `personal_sign` approved in Sigil's approval window,
 * and the signature verifies; the popup shows a dev-chain balance and a dApp's eth_sendTransaction,
 * approved, lands on the dev EVM node (anvil); locking rejects what is pending and refuses what
 * comes after.
 *
 * Only in the Chromium suite (test/e2e), and why:
 * - Passkeys (sign-up, login, unlock): Firefox throws SecurityError for `navigator.credentials` on
 *   `moz-extension://` pages (with or without an rp.id), so passkeys cannot work in the Firefox
 *   build at all, headless or not; this suite checks that the popup says so before any click, with
 *   the passkey buttons disabled (light and dark screenshots, axe clean). (Nor could puppeteer
 *   add a virtual authenticator over BiDi, as the Chromium suite does over CDP.)
 * - Background restart (service worker stopped via CDP): Firefox runs the background as an event
 *   page, which BiDi cannot suspend on demand.
 * - Keys at rest (IndexedDB read inside the service worker): BiDi reaches no background realm here.
 */
import type { Page } from 'puppeteer-core'
import { createPublicClient, getAddress, type Hex, http, parseEther, stringToHex, verifyMessage } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GECKO_ID } from '../../src/api/identity'
import { resolveNetworks } from '../../src/chains/networks'
import { type RunningEvmNode, startEvmNode } from '../../src/devchain/evm'
import { PASSKEYS_UNAVAILABLE } from '../../src/extension/popup/useAction'
import { resolveConfig } from '../../src/service/config'
import { axeViolations } from '../e2e/helpers/axe'
import { startPageServer, type PageServer } from '../e2e/helpers/pageServer'
import { viemDappScript } from '../e2e/helpers/viemDapp'
import { messageCount, otpCodeOf, waitForMessage } from '../e2e/helpers/wallet'
import { freePort } from '../integration/helpers/process'
import { startTestService, type TestService } from '../integration/helpers/service'
import { byLabel, byText, callBackground, clickButton, fill, type LaunchedFirefox, launchFirefox, openPopup, shot } from './helpers/firefox'

type Outcome = { ok: unknown } | { code: number; message: string }

describe('Sigil in Firefox: install, OTP sign-up, accounts, dApp connect, sign and send, lock', () => {
  let node: RunningEvmNode
  let svc: TestService
  let ff: LaunchedFirefox
  let pages: PageServer
  let popup: Page
  let dapp: Page
  let organizationId = ''
  let address = ''
  const email = `firefox-${Date.now()}@example.test`

  /**
   * Start `fn` (a dApp request), then wait for the approval window it opens, shown and armed
   * (Approve enabled). Firefox reports the window's tab to BiDi at `about:blank` and never reports its
   * navigation to `moz-extension://…/approval.html`, so the window is found as the next new tab.
   */
  async function withApproval<T>(fn: () => Promise<T>): Promise<{ outcome: Promise<T>; approval: Page }> {
    const known = new Set(ff.browser.targets())
    const opened = ff.browser.waitForTarget((t) => t.type() === 'page' && !known.has(t), { timeout: 20_000 })
    const outcome = fn()
    const approval = await (await opened).page()
    if (!approval) throw new Error('the approval window has no page')
    await approval.waitForSelector('[data-testid="approval-origin"]', { timeout: 20_000 })
    expect(await approval.evaluate(() => location.href)).toMatch(new RegExp(`^${ff.origin}/approval\\.html\\?id=`))
    await approval.waitForFunction(() => [...document.querySelectorAll('button')].some((b) => b.textContent === 'Approve' && !b.disabled), {
      timeout: 10_000,
      polling: 100,
    })
    return { outcome, approval }
  }

  /** A raw EIP-1193 request from the dApp page through the provider Sigil announced (EIP-6963). */
  function request(method: string, params?: unknown[]): Promise<Outcome> {
    return dapp.evaluate(
      (m, p) => {
        const w = window as any
        const req = p === null ? { method: m } : { method: m, params: p }
        return w.wallet.request(req).then(
          (ok: unknown) => ({ ok }),
          (e: any) => ({
            code: e?.walk?.((x: any) => typeof x?.code === 'number')?.code ?? e?.code,
            message: String(e?.shortMessage ?? e),
          }),
        )
      },
      method,
      params ?? null,
    )
  }

  /** The addresses the service lists for the organization (stamped by the root admin). */
  async function serviceAddresses(): Promise<string[]> {
    const { status, json } = await svc.post('/public/v1/query/list_wallet_accounts', {
      organizationId,
      paginationOptions: { limit: '100' },
    })
    expect(status).toBe(200)
    // the popup lists Ethereum and Solana addresses; other chains' addresses are view only, apart
    return (json.accounts as Array<{ address: string; addressFormat: string }>)
      .filter((a) => a.addressFormat === 'ADDRESS_FORMAT_ETHEREUM' || a.addressFormat === 'ADDRESS_FORMAT_SOLANA')
      .map((a) => a.address)
      .sort()
  }

  beforeAll(async () => {
    ff = await launchFirefox({ colorScheme: 'light' })
    // Firefox sends `Origin: moz-extension://<uuid>`, a UUID drawn per profile. The service runs as
    // `npm start` runs it (NODE_ENV unset, origins left at their defaults): nothing names that UUID.
    // Only the dev EVM chain's address is this test's own (a free port).
    node = await startEvmNode({ port: await freePort() })
    svc = await startTestService({ networks: resolveNetworks(`eip155:31337=${node.url}`) })
    const script = await viemDappScript()
    pages = await startPageServer({
      '/': `<!doctype html><html><head><title>viem dApp</title></head><body><h1>viem dApp</h1><script>${script}</script></body></html>`,
    })
  })

  afterAll(async () => {
    await ff?.close()
    await pages?.close()
    await svc?.stop()
    await node?.close()
  })

  it('installs as an MV3 add-on with an event-page background, and the popup renders logged out', async () => {
    popup = await openPopup(ff)
    expect(await popup.$eval('#status', (e) => e.textContent)).toBe('Not signed in')
    await byText(popup, 'h2', 'Log in or sign up')
    const manifest = await popup.evaluate(() => (window as any).browser.runtime.getManifest())
    expect(manifest.manifest_version).toBe(3)
    // an event page (background scripts), no service worker
    expect(manifest.background).toMatchObject({ scripts: [`${ff.origin}/background.js`], service_worker: null })
    const status = await callBackground(popup, 'getStatus')
    expect(status).toMatchObject({ ok: true, result: { loggedIn: false, extensionId: GECKO_ID } })
    await shot(popup, 'popup-login')
    expect(await axeViolations(popup as never)).toEqual([])
  })

  it('a service with production origin defaults refuses the add-on, and the popup names the origin to allow', async () => {
    // production answers Chromium's pinned origin and what its operator configured only
    const strict = await startTestService({ allowedOrigins: resolveConfig({ NODE_ENV: 'production' }).allowedOrigins })
    try {
      await clickButton(popup, 'Settings')
      await fill(popup, 'Service URL', strict.url)
      await fill(popup, 'Relay URL', `${strict.url}/auth`)
      await clickButton(popup, 'Check service')
      const said = `The relay at ${strict.url}/auth does not accept this extension's origin ${ff.origin}: its operator must allow it (SIGIL_ALLOWED_ORIGINS).`
      await popup.waitForFunction((t) => document.body.innerText.includes(t), { timeout: 15_000, polling: 100 }, said)
      expect(await popup.$('#candidate-fingerprint')).toBeNull()
      await clickButton(popup, 'Back to login')
    } finally {
      await strict.stop()
    }
  })

  it('trusts the test service through Settings (check, fingerprint, trust and connect)', async () => {
    await clickButton(popup, 'Settings')
    await fill(popup, 'Service URL', svc.url)
    await fill(popup, 'Relay URL', `${svc.url}/auth`)
    await clickButton(popup, 'Check service')
    const fingerprint = await popup.waitForSelector('#candidate-fingerprint', { timeout: 15_000 })
    expect(await fingerprint?.evaluate((e) => e.textContent)).toMatch(/^([0-9A-F]{4} ){7}[0-9A-F]{4}$/)
    await clickButton(popup, 'Trust and connect')
    await byText(popup, 'p', 'Connected.')
    await clickButton(popup, 'Back to login')
    const status = await callBackground(popup, 'getStatus')
    expect(status.result.settings).toMatchObject({ apiBaseUrl: svc.url, relayUrl: `${svc.url}/auth` })
  })

  it('passkeys: Firefox refuses WebAuthn on moz-extension:// pages, and the popup says so before any click', async () => {
    await clickButton(popup, 'Passkey')
    await popup.waitForFunction((t) => document.body.innerText.includes(t), { timeout: 15_000, polling: 100 }, PASSKEYS_UNAVAILABLE)
    // every passkey button is there, disabled, and described by the sentence
    const buttons = await popup.evaluate(() =>
      ['Log in with passkey', 'Send verification code'].map((name) => {
        const b = [...document.querySelectorAll('button')].find((x) => x.textContent?.trim() === name)
        const described = b?.getAttribute('aria-describedby') ?? b?.closest('fieldset')?.getAttribute('aria-describedby')
        return { name, disabled: b?.matches(':disabled') ?? null, says: described ? document.getElementById(described)?.textContent : null }
      }),
    )
    expect(buttons).toEqual([
      { name: 'Log in with passkey', disabled: true, says: PASSKEYS_UNAVAILABLE },
      { name: 'Send verification code', disabled: true, says: PASSKEYS_UNAVAILABLE },
    ])
    expect(await axeViolations(popup as never)).toEqual([])
    await shot(popup, 'popup-passkeys-light')
    const refused = await popup.evaluate(() =>
      navigator.credentials.get({ publicKey: { challenge: new Uint8Array(32) } }).then(
        () => 'resolved',
        (e: Error) => e.name,
      ),
    )
    expect(refused).toBe('SecurityError')
    expect(await popup.$eval('#status', (e) => e.getAttribute('data-logged-in'))).toBe('false')
  })

  it('signs up by email OTP with the code from the dev mailbox, and lists the accounts the service holds', async () => {
    const before = await messageCount(svc.url, email)
    await clickButton(popup, 'Email')
    await fill(popup, 'Email address', email)
    await clickButton(popup, 'Send code')
    await byText(popup, 'h2', 'Enter your code')
    const message = await waitForMessage(svc.url, email, before)
    await fill(popup, 'Code', otpCodeOf(message.text))
    await clickButton(popup, 'Log in')
    await popup.waitForSelector('#status[data-logged-in="true"]', { timeout: 20_000 })
    const status = await callBackground(popup, 'getStatus')
    expect(status.result.session.method).toBe('email')
    expect(status.result.session.expiresAt).toBeGreaterThan(Date.now())
    organizationId = status.result.session.organizationId
    await popup.waitForSelector('li.account', { timeout: 20_000 })
    const shown = (await popup.$$eval('li.account', (els) => els.map((e) => e.getAttribute('data-address') ?? ''))).sort()
    expect(shown.length).toBeGreaterThan(0)
    expect(shown).toEqual(await serviceAddresses())
    await shot(popup, 'popup-accounts')
  })

  it('a viem dApp finds Sigil by EIP-6963 and connects after approval in our window', async () => {
    dapp = await ff.browser.newPage()
    await dapp.goto(pages.url('/'))
    const rdns = await dapp.waitForFunction(() => (window as any).dapp.ready(), { timeout: 10_000, polling: 100 })
    expect(await rdns.jsonValue()).toMatch(/sigil/i)
    expect(await request('eth_accounts')).toEqual({ ok: [] })
    const { outcome, approval } = await withApproval(() => dapp.evaluate(() => (window as any).dapp.requestAccounts()))
    expect(await approval.$eval('[data-testid="approval-origin"]', (e) => e.textContent)).toBe(pages.origin)
    await shot(approval, 'approval-connect')
    await clickButton(approval, 'Approve')
    const accounts = ((await outcome) as { ok: string[] }).ok
    expect(accounts).toHaveLength(1)
    address = accounts[0] ?? ''
    expect(await serviceAddresses()).toContain(address)
    expect(await request('eth_accounts')).toEqual({ ok: [address] })
  })

  it('personal_sign is shown decoded in our window; approved, the signature verifies for the address', async () => {
    const message = 'hello from Firefox'
    const { outcome, approval } = await withApproval(() =>
      dapp.evaluate(
        (account, m) =>
          (window as any).wallet.signMessage({ account, message: m }).then(
            (ok: string) => ({ ok }),
            (e: any) => ({ code: e?.code, message: String(e) }),
          ),
        address,
        message,
      ),
    )
    expect(await approval.$eval('[data-testid="approval-message"]', (e) => e.textContent)).toBe(message)
    expect(await approval.$eval('[data-testid="approval-method"]', (e) => e.textContent)).toBe('personal_sign')
    await shot(approval, 'approval-personal-sign')
    await clickButton(approval, 'Approve')
    const signature = ((await outcome) as { ok: Hex }).ok
    expect(signature).toMatch(/^0x[0-9a-f]{130}$/)
    expect(await verifyMessage({ address: address as Hex, message, signature })).toBe(true)
    expect(await verifyMessage({ address: address as Hex, message: 'something else', signature })).toBe(false)
  })

  it('a reopened popup shows the balance the dev faucet gave; eth_sendTransaction approved in our window lands on the dev chain', async () => {
    expect((await svc.post('/dev/faucet', { caip2: 'eip155:31337', address, amount: '2' }, null)).status).toBe(200)
    const again = await openPopup(ff, popup)
    const eth = `li.account[data-address="${address}"] ul.balances li[data-symbol="ETH"]`
    await again.waitForSelector(eth, { timeout: 20_000 })
    expect(await again.$eval(eth, (e) => [e.getAttribute('data-balance'), e.querySelector('.token-value')?.textContent])).toEqual([
      parseEther('2').toString(),
      '2 ETH',
    ])
    await shot(again, 'popup-balances')
    await again.close()

    const to = getAddress(`0x${'5e'.repeat(20)}`)
    const value = parseEther('0.5')
    const { outcome, approval } = await withApproval(() =>
      dapp.evaluate((a, t, v) => (window as any).dapp.send(a, t, v, undefined), address, to, value.toString()),
    )
    expect(await approval.$eval('h1', (e) => e.textContent)).toBe('Send this transaction?')
    const shown = await approval.$eval('[aria-label="Transaction"]', (e) => e.textContent ?? '')
    expect(shown).toContain(to)
    expect(shown).toContain('0.5 ETH')
    await shot(approval, 'approval-send')
    await clickButton(approval, 'Approve')
    const hash = ((await outcome) as { ok: Hex }).ok
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await dapp.evaluate((h) => (window as any).dapp.receipt(h), hash)).toMatchObject({ ok: { status: 'success' } })
    const chain = createPublicClient({ transport: http(node.url) })
    const onChain = await chain.getTransaction({ hash })
    expect([getAddress(onChain.from), onChain.to && getAddress(onChain.to), onChain.value]).toEqual([getAddress(address), to, value])
    expect(await chain.getBalance({ address: to })).toBe(value)
  })

  it('Lock now rejects the pending request and closes its window; afterwards signing opens the login window and the popup calls are refused', async () => {
    const { outcome } = await withApproval(() => request('personal_sign', [stringToHex('pending at lock'), address]))
    // What the extension sees of its approval windows (puppeteer keeps closed Firefox tabs as targets).
    const popupWindows = () =>
      popup.evaluate(async () => (await (window as any).browser.windows.getAll({ windowTypes: ['popup'] })).length as number)
    expect(await popupWindows()).toBe(1)
    await popup.bringToFront()
    await clickButton(popup, 'Settings')
    await clickButton(popup, 'Lock now')
    await popup.waitForSelector('#status[data-logged-in="false"]', { timeout: 10_000 })
    const result = await outcome
    expect([4001, 4100]).toContain((result as { code: number }).code)
    await expect.poll(popupWindows, { timeout: 5_000 }).toBe(0)
    expect(await request('eth_accounts')).toEqual({ ok: [] })
    // A connected site's signature request while locked opens Sigil's login window; closing it is a rejection.
    const afterLock = request('personal_sign', [stringToHex('after lock'), address])
    await expect.poll(popupWindows, { timeout: 10_000 }).toBe(1)
    await popup.evaluate(async () => {
      const b = (window as any).browser
      for (const w of await b.windows.getAll({ windowTypes: ['popup'] })) await b.windows.remove(w.id)
    })
    expect(await afterLock).toMatchObject({ code: 4001 })
    expect(await callBackground(popup, 'listAccounts')).toMatchObject({ ok: false, error: { code: 'NOT_LOGGED_IN' } })
  })

  it('dark: the login screen and the passkey sentence read well and are axe clean', async () => {
    // BiDi cannot switch prefers-color-scheme per page: a second Firefox launched dark
    const dark = await launchFirefox({ colorScheme: 'dark' })
    try {
      const page = await openPopup(dark)
      await byText(page, 'h2', 'Log in or sign up')
      expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(true)
      expect(await axeViolations(page as never)).toEqual([])
      await shot(page, 'popup-login-dark')
      await clickButton(page, 'Passkey')
      await page.waitForFunction((t) => document.body.innerText.includes(t), { timeout: 15_000, polling: 100 }, PASSKEYS_UNAVAILABLE)
      expect(await axeViolations(page as never)).toEqual([])
      await shot(page, 'popup-passkeys-dark')
    } finally {
      await dark.close()
    }
  })

  it('a reopened popup shows the locked wallet, not the accounts', async () => {
    const again = await openPopup(ff, popup)
    expect(await again.$eval('#status', (e) => e.getAttribute('data-logged-in'))).toBe('false')
    expect(await again.$$('li.account')).toHaveLength(0)
    await byLabel(again, 'Email address')
    await again.close()
  })
})
