import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startTestService, type TestService } from '../integration/helpers/service'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import {
  addVirtualAuthenticator,
  callBackground,
  configureService,
  loginByEmailOtp,
  logoutViaSettings,
  messageCount,
  openPopup,
  otpCodeOf,
  shot,
  signUpWithPasskey,
  waitForMessage,
} from './helpers/wallet'

/** Recovery screen: request the email, paste its bundle, register a new passkey and log in. */
async function recoverByEmail(page: Page, serviceUrl: string, email: string, screenshot?: string): Promise<void> {
  await page.getByRole('button', { name: 'Lost your passkey? Recover by email' }).click()
  await page.getByLabel('Email address', { exact: true }).fill(email)
  const before = await messageCount(serviceUrl, email)
  await page.getByRole('button', { name: 'Send recovery email' }).click()
  const message = await waitForMessage(serviceUrl, email, before)
  const bundle = message.text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => /^[1-9A-HJ-NP-Za-km-z]{60,}$/.test(l))
  expect(bundle).toBeDefined()
  await page.getByLabel('Recovery code').fill(bundle!)
  if (screenshot) await shot(page, screenshot)
  await page.getByRole('button', { name: 'Add a new passkey and log in' }).click()
  await page.locator('#status[data-logged-in="true"]').waitFor({ timeout: 30_000 })
}

async function passkeyLogin(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Passkey', exact: true }).click()
  await page.getByRole('button', { name: 'Log in with passkey' }).click()
  await page.locator('#status[data-logged-in="true"]').waitFor({ timeout: 20_000 })
}

describe('passkey sign-up and login (CDP virtual authenticator)', () => {
  let svc: TestService
  let ext: LaunchedExtension
  let page: Page

  beforeAll(async () => {
    svc = await startTestService()
    ext = await launchExtension()
    page = await openPopup(ext)
    await configureService(page, svc.url)
    await addVirtualAuthenticator(ext, page)
  })

  afterAll(async () => {
    await ext?.close()
    await svc?.stop()
  })

  const email = `passkey-${Date.now()}@example.test`

  it('signs up with a passkey and a verified email, opening a session in a new sub-organization', async () => {
    await signUpWithPasskey(page, svc.url, email, {
      name: 'Passkey Pat',
      shots: { email: 'popup-passkey-signup-email', code: 'popup-passkey-signup-code', verified: 'popup-passkey-signup-verified' },
    })
    const status = await callBackground(page, 'getStatus')
    expect(status.result.session).toMatchObject({ method: 'passkey', username: 'Passkey Pat' })
    expect(status.result.session.organizationId).not.toBe(svc.admin.organizationId)
    expect(status.result.pendingPasskeySignup).toBeNull()
    const { json } = await svc.post('/public/v1/query/get_user', {
      organizationId: status.result.session.organizationId,
      userId: status.result.session.userId,
    })
    expect(json.user.userEmail).toBe(email)
    expect(json.user.authenticators).toHaveLength(1)
    await page.locator('li.account').first().waitFor({ timeout: 20_000 })
  })

  it('logs out and logs in again with the passkey (X-Stamp-Webauthn over the parent organization)', async () => {
    const before = (await callBackground(page, 'getStatus')).result.session
    await logoutViaSettings(page)
    await passkeyLogin(page)
    const after = (await callBackground(page, 'getStatus')).result.session
    expect(after.organizationId).toBe(before.organizationId)
    expect(after.userId).toBe(before.userId)
    const reply = await callBackground(page, 'listAccounts')
    expect(reply.ok).toBe(true)
  })

  it('recovers THAT passkey account by email with a new passkey, then logs in with a passkey again', async () => {
    const original = (await callBackground(page, 'getStatus')).result.session
    await logoutViaSettings(page)
    await recoverByEmail(page, svc.url, email, 'popup-recovery-passkey-account')
    const recovered = (await callBackground(page, 'getStatus')).result.session
    expect(recovered).toMatchObject({ method: 'passkey', organizationId: original.organizationId, userId: original.userId })
    const { json } = await svc.post('/public/v1/query/get_user', { organizationId: original.organizationId, userId: original.userId })
    expect(json.user.authenticators).toHaveLength(2)
    await logoutViaSettings(page)
    await passkeyLogin(page)
    expect((await callBackground(page, 'getStatus')).result.session).toMatchObject({
      organizationId: original.organizationId,
      userId: original.userId,
    })
  })
})

describe('email recovery adds a working passkey', () => {
  let svc: TestService
  let ext: LaunchedExtension
  let page: Page
  const email = `recover-${Date.now()}@example.test`

  beforeAll(async () => {
    svc = await startTestService()
    ext = await launchExtension()
    page = await openPopup(ext)
    await configureService(page, svc.url)
    await addVirtualAuthenticator(ext, page)
  })

  afterAll(async () => {
    await ext?.close()
    await svc?.stop()
  })

  it('recovers an OTP account with the emailed bundle, registers a passkey and logs in with it', async () => {
    await loginByEmailOtp(page, svc.url, email)
    const original = (await callBackground(page, 'getStatus')).result.session
    await logoutViaSettings(page)
    await recoverByEmail(page, svc.url, email, 'popup-recovery')
    const recovered = (await callBackground(page, 'getStatus')).result.session
    expect(recovered).toMatchObject({ method: 'passkey', organizationId: original.organizationId, userId: original.userId })
    await logoutViaSettings(page)
    await passkeyLogin(page)
    expect((await callBackground(page, 'getStatus')).result.session.organizationId).toBe(original.organizationId)
  })

  it('passkey sign-up for an email that already has an account says so and offers the email-code login', async () => {
    await logoutViaSettings(page)
    await page.getByRole('button', { name: 'Passkey', exact: true }).click()
    await page.getByLabel(/^Email address/).fill(email)
    let before = await messageCount(svc.url, email)
    await page.getByRole('button', { name: 'Send verification code' }).click()
    let message = await waitForMessage(svc.url, email, before)
    await page.getByLabel('Verification code').fill(otpCodeOf(message.text))
    await page.getByRole('button', { name: 'Verify email' }).click()
    await page.getByText(`An account with ${email} already exists. Log in with an email code instead.`).waitFor({ timeout: 20_000 })
    await shot(page, 'popup-passkey-signup-exists')
    expect((await callBackground(page, 'getStatus')).result.pendingPasskeySignup).toBeNull()
    before = await messageCount(svc.url, email)
    await page.getByRole('button', { name: 'Log in with email code' }).click()
    await page.getByRole('heading', { name: 'Enter your code' }).waitFor()
    message = await waitForMessage(svc.url, email, before)
    await page.getByLabel('Code', { exact: true }).fill(otpCodeOf(message.text))
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.locator('#status[data-logged-in="true"]').waitFor({ timeout: 20_000 })
    const { json } = await svc.post('/public/v1/query/list_suborgs', {
      organizationId: svc.admin.organizationId,
      filterType: 'EMAIL',
      filterValue: email,
    })
    expect(json.organizationIds).toEqual([(await callBackground(page, 'getStatus')).result.session.organizationId])
  })
})
