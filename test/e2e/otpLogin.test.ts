import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startTestService, type TestService } from '../integration/helpers/service'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import {
  callBackground,
  configureService,
  keyCount,
  loginByEmailOtp,
  messageCount,
  openPopup,
  otpCodeOf,
  shot,
  waitForMessage,
} from './helpers/wallet'

/**
 * The Ethereum and Solana addresses the service lists for an organization (stamped by the root
 * admin: a parent acts on sub-orgs): the ones the popup shows with balances and Receive.
 */
async function serviceAddresses(svc: TestService, organizationId: string): Promise<string[]> {
  const { status, json } = await svc.post('/public/v1/query/list_wallet_accounts', { organizationId, paginationOptions: { limit: '100' } })
  expect(status).toBe(200)
  return (json.accounts as Array<{ address: string; addressFormat: string }>)
    .filter((a) => a.addressFormat === 'ADDRESS_FORMAT_ETHEREUM' || a.addressFormat === 'ADDRESS_FORMAT_SOLANA')
    .map((a) => a.address)
    .sort()
}

async function popupAddresses(page: Page): Promise<string[]> {
  await page.locator('li.account').first().waitFor({ timeout: 20_000 })
  return (await page.locator('li.account').evaluateAll((els) => els.map((e) => e.getAttribute('data-address') ?? ''))).sort()
}

describe('email OTP sign-up, accounts, logout, login, worker restart, lock', () => {
  let svc: TestService
  let ext: LaunchedExtension
  let page: Page
  const email = `otp-${Date.now()}@example.test`
  let organizationId = ''

  beforeAll(async () => {
    svc = await startTestService()
    ext = await launchExtension()
    page = await openPopup(ext)
  })

  afterAll(async () => {
    await ext?.close()
    await svc?.stop()
  })

  it('starts logged out, and the settings screen points it at the test service', async () => {
    expect(await page.locator('#status').textContent()).toBe('Not signed in')
    await shot(page, 'popup-login')
    await configureService(page, svc.url, { screenshot: 'popup-settings-logged-out' })
    const status = await callBackground(page, 'getStatus')
    expect(status.result.settings).toMatchObject({ apiBaseUrl: svc.url, relayUrl: `${svc.url}/auth` })
  })

  it('signs up by email OTP with the code from /dev/messages and shows the accounts list_wallet_accounts returns', async () => {
    await loginByEmailOtp(page, svc.url, email, { form: 'popup-login-email', code: 'popup-otp-code' })
    const status = await callBackground(page, 'getStatus')
    expect(status.ok).toBe(true)
    expect(status.result.session.method).toBe('email')
    expect(status.result.session.expiresAt).toBeGreaterThan(Date.now())
    organizationId = status.result.session.organizationId
    const shown = await popupAddresses(page)
    expect(shown.length).toBeGreaterThan(0)
    expect(shown).toEqual(await serviceAddresses(svc, organizationId))
    await shot(page, 'popup-accounts')
  })

  it('shows a QR code and adds an account (Ethereum and Solana) at the next default paths', async () => {
    const first = page.locator('li.account').first()
    await first.getByRole('button', { name: /^Receive to Account/ }).click()
    await expect(first.locator('svg.qr').getAttribute('aria-label')).resolves.toMatch(/^QR code of address /)
    expect(await first.locator('svg.qr path').getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/)
    await shot(page, 'popup-accounts-qr')
    const before = await serviceAddresses(svc, organizationId)
    await page.getByRole('button', { name: 'Add account' }).click()
    await page.getByText(/^Added an account: 0x/).waitFor({ timeout: 20_000 })
    const after = await serviceAddresses(svc, organizationId)
    expect(after.length).toBe(before.length + 2)
    const { json } = await svc.post('/public/v1/query/list_wallet_accounts', { organizationId })
    const paths = (json.accounts as Array<{ path: string; addressFormat: string }>).map((a) => a.path)
    expect(paths).toContain("m/44'/60'/0'/0/1")
    expect(paths).toContain("m/44'/501'/1'/0'")
    await expect.poll(() => popupAddresses(page), { timeout: 10_000 }).toEqual(after)
  })

  it('keeps the session when the service worker is stopped and restarted', async () => {
    const cdp = await ext.context.newCDPSession(page)
    await cdp.send('ServiceWorker.enable')
    await cdp.send('ServiceWorker.stopAllWorkers')
    await new Promise((r) => setTimeout(r, 500))
    const reply = await callBackground(page, 'accountBook')
    expect(reply.ok).toBe(true)
    const addresses = reply.result.groups
      .flatMap((g: { addresses: Array<{ address: string }> }) => g.addresses.map((a) => a.address))
      .sort()
    expect(addresses).toEqual(await serviceAddresses(svc, organizationId))
  })

  it('logs out: keys wiped, the background refuses to stamp', async () => {
    // Read through the extension's worker, which may still be starting again after the restart above.
    await expect.poll(() => keyCount(ext), { timeout: 10_000 }).toBe(1)
    await page.getByRole('button', { name: 'Settings' }).click()
    await shot(page, 'popup-settings')
    await page.getByRole('button', { name: 'Log out' }).click()
    await page.locator('#status[data-logged-in="false"]').waitFor()
    expect(await page.getByText('Logged out.').count()).toBe(1)
    // The key leaves its last slot once the service has revoked it (core.ts wipe → revoke), which a
    // loaded machine may finish after the popup shows the logout.
    await expect.poll(() => keyCount(ext), { timeout: 10_000 }).toBe(0)
    const refused = await callBackground(page, 'listAccounts')
    expect(refused).toMatchObject({ ok: false, error: { code: 'NOT_LOGGED_IN' } })
  })

  it('logs in again by OTP into the same organization, then lock refuses to stamp', async () => {
    await loginByEmailOtp(page, svc.url, email)
    const status = await callBackground(page, 'getStatus')
    expect(status.result.session.organizationId).toBe(organizationId)
    expect(await popupAddresses(page)).toEqual(await serviceAddresses(svc, organizationId))
    await page.getByRole('button', { name: 'Settings' }).click()
    await page.getByRole('button', { name: 'Lock now' }).click()
    await page.locator('#status[data-logged-in="false"]').waitFor()
    await expect.poll(() => keyCount(ext), { timeout: 10_000 }).toBe(0)
    expect(await callBackground(page, 'listActivities')).toMatchObject({ ok: false, error: { code: 'NOT_LOGGED_IN' } })
  })

  it('signs up a phone number by SMS OTP into its own organization', async () => {
    const phone = `+1555${String(Date.now()).slice(-7)}`
    const before = await messageCount(svc.url, phone)
    await page.getByRole('button', { name: 'SMS', exact: true }).click()
    // without the country code: the rule in words, under the phone field
    await page.getByLabel('Phone number').fill(phone.slice(2))
    await page.getByRole('button', { name: 'Send code' }).click()
    const error = page.locator('.field-with-error .field-error')
    await error.waitFor({ timeout: 10_000 })
    expect(await error.textContent()).toBe('Include the country code, e.g. +1 for the US: +14155550123.')
    expect(await page.locator('.field-with-error').getByLabel('Phone number').count()).toBe(1)
    expect(await page.getByRole('alert').count()).toBe(1)
    await shot(page, 'popup-login-sms-field-error')
    await page.getByLabel('Phone number').fill(phone)
    await shot(page, 'popup-login-sms')
    await page.getByRole('button', { name: 'Send code' }).click()
    await page.getByRole('heading', { name: 'Enter your code' }).waitFor()
    const message = await waitForMessage(svc.url, phone, before)
    expect(message.channel).toBe('sms')
    await page.getByLabel('Code', { exact: true }).fill(otpCodeOf(message.text))
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.locator('#status[data-logged-in="true"]').waitFor({ timeout: 20_000 })
    const session = (await callBackground(page, 'getStatus')).result.session
    expect(session.method).toBe('sms')
    expect(session.organizationId).not.toBe(organizationId)
    expect(await popupAddresses(page)).toEqual(await serviceAddresses(svc, session.organizationId))
  })
})
