import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { recoverMessageAddress } from 'viem'
import { startTestService, type TestService } from '../integration/helpers/service'
import { axeViolations } from './helpers/axe'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import { startPageServer, type PageServer } from './helpers/pageServer'
import { type Proxy, startProxy } from './helpers/proxy'
import { viemDappScript } from './helpers/viemDapp'
import { callBackground, configureService, loginByEmailOtp, messageCount, openPopup, shot } from './helpers/wallet'

type Outcome = { ok: unknown } | { code: number; message: string }

const SESSION_SECONDS = 20
const PASSWORD = 'a long wallet password'

/**
 * Sessions that last as long as the user chose (Chromium): with "Lock after 120 min" and 20-second
 * session keys the wallet stays logged in past three key lifetimes with no email; the wallet
 * password set from the offer after login unlocks a locked wallet without an email, a wrong one
 * is refused in the background and slows down, and sends nothing to the service or the relay
 * (the extension reaches both only through counting proxies); a connected site's personal_sign after a lock opens Sigil's window,
 * which unlocks with the password, and the signature follows the approval.
 */
describe('sessions that last (Chromium)', () => {
  let svc: TestService
  let service: Proxy
  let relay: Proxy
  let ext: LaunchedExtension
  let pages: PageServer
  let popup: Page
  let dapp: Page
  const email = `renew-${Date.now()}@example.test`

  async function both(page: Page, name: string): Promise<void> {
    await page.emulateMedia({ colorScheme: 'light' })
    await shot(page, `${name}-light`)
    expect(await axeViolations(page)).toEqual([])
    await page.emulateMedia({ colorScheme: 'dark' })
    await shot(page, `${name}-dark`)
    expect(await axeViolations(page)).toEqual([])
    await page.emulateMedia({ colorScheme: 'light' })
  }

  /** The viem page's `window.dapp.requestAccounts()`, or its wallet client's `signMessage`, as a result or an error code. */
  function connectWithViem(): Promise<Outcome> {
    return dapp.evaluate(() => (window as any).dapp.requestAccounts())
  }
  function signWithViem(account: string, message: string): Promise<Outcome> {
    return dapp.evaluate(
      ([a, m]) =>
        (window as any).wallet.signMessage({ account: a, message: m }).then(
          (ok: unknown) => ({ ok }),
          (e: any) => ({ code: e?.walk?.((x: any) => typeof x?.code === 'number')?.code ?? e?.code, message: String(e?.message) }),
        ),
      [account, message] as const,
    )
  }

  beforeAll(async () => {
    // The service must name the proxy's origin in its signed identity, so the proxy starts first
    // and forwards to the service's address once it is known.
    service = await startProxy(() => svc.url)
    svc = await startTestService({ serviceOrigins: [service.url] })
    relay = await startProxy(`${svc.url}/auth`)
    ext = await launchExtension()
    const script = await viemDappScript()
    pages = await startPageServer({
      '/': `<!doctype html><html><head><title>viem dApp</title></head><body><h1>viem dApp</h1><script>${script}</script></body></html>`,
    })
    popup = await openPopup(ext)
    await configureService(popup, service.url, { relayUrl: relay.url })
    await loginByEmailOtp(popup, svc.url, email)
    // Both proxies are on the extension's path: the email login went through the relay.
    expect(relay.seen.map((s) => s.path)).toContain('/v1/otp_login_v2')
    expect(await callBackground(popup, 'savePreferences', { autoLockMinutes: 120, sessionSeconds: SESSION_SECONDS })).toMatchObject({
      ok: true,
    })
  }, 120_000)

  afterAll(async () => {
    await ext?.close()
    await pages?.close()
    await service?.close()
    await relay?.close()
    await svc?.stop()
  })

  it('offers a wallet password after the first login and sets it', async () => {
    await popup.reload()
    await popup.getByRole('heading', { name: 'Unlock without an email next time' }).waitFor({ timeout: 15_000 })
    await both(popup, 'popup-password-offer')
    await popup.getByLabel('New wallet password').fill(PASSWORD)
    await popup.getByLabel('Repeat the password').fill(PASSWORD)
    await popup.getByRole('button', { name: 'Set password' }).click()
    await popup.getByRole('heading', { name: 'Unlock without an email next time' }).waitFor({ state: 'detached', timeout: 30_000 })
    expect((await callBackground(popup, 'passwordStatus')).result).toMatchObject({ hasPassword: true, offer: false })
  }, 60_000)

  it('stays logged in past three session lifetimes without any email, renewing the session key', async () => {
    const mails = await messageCount(svc.url, email)
    const ends = new Set<number>()
    const until = Date.now() + 3 * SESSION_SECONDS * 1000 + 8_000
    while (Date.now() < until) {
      const status = (await callBackground(popup, 'getStatus')).result
      expect(status.loggedIn).toBe(true)
      ends.add(status.session.expiresAt)
      await popup.waitForTimeout(2_000)
    }
    // A new session end each renewal (at 2/3 of 20 s): at least three renewals in three lifetimes.
    expect(ends.size).toBeGreaterThanOrEqual(4)
    expect(await messageCount(svc.url, email)).toBe(mails)
    // Still usable at the service.
    expect(await callBackground(popup, 'listAccounts')).toMatchObject({ ok: true })
  }, 120_000)

  it('after a lock, a wrong password is refused and slows down; the right one unlocks with no email', async () => {
    const mails = await messageCount(svc.url, email)
    await callBackground(popup, 'lock')
    await popup.reload()
    await popup.getByRole('heading', { name: 'Unlock' }).waitFor({ timeout: 15_000 })
    await both(popup, 'popup-unlock')
    const stampLogins = () => service.seen.filter((s) => s.path === '/public/v1/submit/stamp_login').length
    const logins = stampLogins()
    const toService = service.seen.length
    const toRelay = relay.seen.length
    for (let i = 0; i < 3; i++) {
      await popup.getByLabel('Wallet password').fill('not the password')
      await popup.getByRole('button', { name: 'Unlock' }).click()
      await popup.getByText('That is not the wallet password.').waitFor({ timeout: 15_000 })
    }
    await shot(popup, 'popup-unlock-wrong')
    await popup.getByLabel('Wallet password').fill(PASSWORD)
    await popup.getByRole('button', { name: 'Unlock' }).click()
    await popup.getByText(/Too many wrong passwords/).waitFor({ timeout: 15_000 })
    // Three wrong passwords and one slowed-down attempt were refused in the extension: not one
    // request reached the service or the relay.
    expect(service.seen.slice(toService).map((s) => s.path)).toEqual([])
    expect(relay.seen.slice(toRelay).map((s) => s.path)).toEqual([])
    expect(stampLogins()).toBe(logins)
    await popup.waitForTimeout(1_200)
    await popup.getByRole('button', { name: 'Unlock' }).click()
    await popup.locator('#status[data-logged-in="true"]').waitFor({ timeout: 20_000 })
    expect((await callBackground(popup, 'getStatus')).result.session).toMatchObject({ username: email, method: 'password' })
    expect(await messageCount(svc.url, email)).toBe(mails)
    // The right password did reach the service: one stamp_login, stamped by the device key, answered.
    const stamped = service.seen.slice(toService).filter((s) => s.path === '/public/v1/submit/stamp_login')
    expect(stamped).toHaveLength(1)
    const stamp = JSON.parse(Buffer.from(stamped[0]!.headers['x-stamp'] ?? '', 'base64url').toString('utf8')) as { publicKey: string }
    const worker = ext.context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://')) ?? ext.serviceWorker
    const vault = await worker.evaluate(
      async () => (await (globalThis as any).chrome.storage.local.get('sigil.vault'))['sigil.vault'] as { publicKeyHex: string },
    )
    expect(stamp.publicKey).toBe(vault.publicKeyHex)
    expect(JSON.parse(stamped[0]!.response ?? '{}')).toMatchObject({ activity: { status: 'ACTIVITY_STATUS_COMPLETED' } })
    expect(stampLogins()).toBe(logins + 1)
  }, 90_000)

  it('a connected site’s personal_sign after a lock opens Sigil’s window; unlocking there lets the request go on', async () => {
    dapp = await ext.context.newPage()
    await dapp.goto(pages.url('/'))
    await dapp.waitForFunction(() => typeof (window as any).dapp?.ready() === 'string')
    const connectOpened = ext.context.waitForEvent('page', { predicate: (p) => p.url().includes('/approval.html?id='), timeout: 20_000 })
    const connecting = connectWithViem()
    const connectWindow = await connectOpened
    await connectWindow.getByRole('button', { name: 'Approve' }).click()
    const connected = await connecting
    expect(connected).toMatchObject({ ok: [expect.stringMatching(/^0x/)] })
    const address = (connected as { ok: string[] }).ok[0]!

    await callBackground(popup, 'lock')
    const mails = await messageCount(svc.url, email)
    const loginOpened = ext.context.waitForEvent('page', { predicate: (p) => p.url().endsWith('/popup.html'), timeout: 15_000 })
    const signing = signWithViem(address, 'hello')
    const login = await loginOpened
    await login.getByRole('heading', { name: 'Unlock' }).waitFor({ timeout: 15_000 })
    const approvalOpened = ext.context.waitForEvent('page', { predicate: (p) => p.url().includes('/approval.html?id='), timeout: 20_000 })
    await login.getByLabel('Wallet password').fill(PASSWORD)
    await login.getByRole('button', { name: 'Unlock' }).click()
    const approval = await approvalOpened
    await approval.locator('[data-testid="approval-origin"]').waitFor({ timeout: 15_000 })
    await approval.getByRole('button', { name: 'Approve' }).click()
    const signed = await signing
    expect(signed).toMatchObject({ ok: expect.stringMatching(/^0x[0-9a-f]{130}$/) })
    expect(await recoverMessageAddress({ message: 'hello', signature: (signed as { ok: `0x${string}` }).ok })).toBe(address)
    expect(await messageCount(svc.url, email)).toBe(mails)
  }, 90_000)
})
