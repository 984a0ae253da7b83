import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startTestService, type TestService } from '../integration/helpers/service'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import { startPageServer, type PageServer } from './helpers/pageServer'
import {
  callBackground,
  configureService,
  loginByEmailOtp,
  logoutViaSettings,
  messageCount,
  openPopup,
  otpCodeOf,
  shot,
  waitForMessage,
} from './helpers/wallet'
import { UNREACHABLE_MAINNET } from './helpers/networks'

type Outcome = { ok: unknown } | { code: number; message: string }

/**
 * eth_requestAccounts while logged out opens Sigil's window on the login
 * screen; after the login the request goes on to its approval window; closing the login window
 * rejects with 4001.
 */
describe('connecting while logged out (Chromium)', () => {
  let svc: TestService
  let ext: LaunchedExtension
  let pages: PageServer
  let popup: Page
  let dapp: Page
  const email = `connect-${Date.now()}@example.test`
  let address = ''

  function request(method: string): Promise<Outcome> {
    return dapp.evaluate(
      (m) =>
        (window as any).ethereum.request({ method: m }).then(
          (ok: unknown) => ({ ok }),
          (e: { code: number; message: string }) => ({ code: e.code, message: e.message }),
        ),
      method,
    )
  }

  /** Send eth_requestAccounts and wait for Sigil's login window. */
  async function connectWhileLoggedOut(): Promise<{ outcome: Promise<Outcome>; login: Page }> {
    const opened = ext.context.waitForEvent('page', { predicate: (p) => p.url().endsWith('/popup.html'), timeout: 15_000 })
    const outcome = request('eth_requestAccounts')
    const login = await opened
    await login.getByTestId('login-wanted').waitFor({ timeout: 15_000 })
    return { outcome, login }
  }

  beforeAll(async () => {
    svc = await startTestService({
      networks: [UNREACHABLE_MAINNET],
    })
    ext = await launchExtension()
    pages = await startPageServer({ '/': '<!doctype html><html><head><title>dApp</title></head><body><h1>Test dApp</h1></body></html>' })
    popup = await openPopup(ext)
    await configureService(popup, svc.url)
    await loginByEmailOtp(popup, svc.url, email)
    const status = await callBackground(popup, 'getStatus')
    const { json } = await svc.post('/public/v1/query/list_wallet_accounts', {
      organizationId: status.result.session.organizationId,
      paginationOptions: { limit: '100' },
    })
    address = (json.accounts as Array<{ address: string; addressFormat: string }>).find(
      (a) => a.addressFormat === 'ADDRESS_FORMAT_ETHEREUM',
    )!.address
    await logoutViaSettings(popup)
    dapp = await ext.context.newPage()
    await dapp.goto(pages.url('/'))
    await dapp.waitForFunction(() => (window as any).ethereum?.isSigil === true)
  })

  afterAll(async () => {
    await ext?.close()
    await pages?.close()
    await svc?.stop()
  })

  it('opens the login window, and after the login the connect request goes on to its approval', async () => {
    const { outcome, login } = await connectWhileLoggedOut()
    const origin = new URL(pages.url('/')).origin
    expect(await login.getByTestId('login-wanted').textContent()).toBe(`${origin} wants to connect. Log in to continue.`)
    // the last account's email is already there
    expect(await login.getByLabel('Email address', { exact: true }).inputValue()).toBe(email)
    await shot(login, 'popup-connect-while-locked')
    const before = await messageCount(svc.url, email)
    await login.getByRole('button', { name: 'Send code' }).click()
    await login.getByRole('heading', { name: 'Enter your code' }).waitFor()
    const message = await waitForMessage(svc.url, email, before)
    await login.getByLabel('Code', { exact: true }).fill(otpCodeOf(message.text))
    const approvalOpened = ext.context.waitForEvent('page', { predicate: (p) => p.url().includes('/approval.html?id='), timeout: 20_000 })
    await login.getByRole('button', { name: 'Log in' }).click()
    const approval = await approvalOpened
    await approval.locator('[data-testid="approval-origin"]').waitFor({ timeout: 15_000 })
    expect(await approval.locator('[data-testid="approval-origin"]').textContent()).toContain(origin)
    // the login window is closed by the background once the login is done
    await expect.poll(() => login.isClosed(), { timeout: 10_000 }).toBe(true)
    await approval.getByRole('button', { name: 'Approve' }).click()
    expect(await outcome).toEqual({ ok: [address] })
    // the popup tab open all along (logged out) shows the login made in the other window, without a reload
    await popup.locator('#status[data-logged-in="true"]').waitFor({ timeout: 10_000 })
    expect(await popup.locator('#status').textContent()).toContain(`Signed in as ${email}`)
    await popup.getByRole('heading', { name: 'Wallet' }).waitFor()
  })

  it('closing the login window rejects the request with 4001', async () => {
    await popup.locator('#status[data-logged-in="true"]').waitFor({ timeout: 15_000 })
    await logoutViaSettings(popup)
    const { outcome, login } = await connectWhileLoggedOut()
    await login.close()
    expect(await outcome).toMatchObject({ code: 4001 })
    expect((await callBackground(popup, 'getStatus')).result.loggedIn).toBe(false)
  })
})
