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
  shot,
  waitForMessage,
} from './helpers/wallet'

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

  it('signs up with a new passkey and opens a session in a new sub-organization', async () => {
    await page.getByRole('button', { name: 'Passkey', exact: true }).click()
    await page.getByLabel('Name (optional)').fill('Passkey Pat')
    await shot(page, 'popup-login-passkey')
    await page.getByRole('button', { name: 'Create account with passkey' }).click()
    await page.locator('#status[data-logged-in="true"]').waitFor({ timeout: 20_000 })
    const status = await callBackground(page, 'getStatus')
    expect(status.result.session).toMatchObject({ method: 'passkey', username: 'Passkey Pat' })
    expect(status.result.session.organizationId).not.toBe(svc.admin.organizationId)
    const { json } = await svc.post('/public/v1/query/get_user', {
      organizationId: status.result.session.organizationId,
      userId: status.result.session.userId,
    })
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
    await page.getByRole('button', { name: 'Lost your passkey? Recover by email' }).click()
    await page.getByLabel('Email address', { exact: true }).fill(email)
    const before = await messageCount(svc.url, email)
    await page.getByRole('button', { name: 'Send recovery email' }).click()
    const message = await waitForMessage(svc.url, email, before)
    const bundle = message.text.split('\n').map((l) => l.trim()).find((l) => /^[1-9A-HJ-NP-Za-km-z]{60,}$/.test(l))
    expect(bundle).toBeDefined()
    await page.getByLabel('Recovery code').fill(bundle!)
    await shot(page, 'popup-recovery')
    await page.getByRole('button', { name: 'Add a new passkey and log in' }).click()
    await page.locator('#status[data-logged-in="true"]').waitFor({ timeout: 30_000 })
    const recovered = (await callBackground(page, 'getStatus')).result.session
    expect(recovered).toMatchObject({ method: 'passkey', organizationId: original.organizationId, userId: original.userId })
    await logoutViaSettings(page)
    await passkeyLogin(page)
    expect((await callBackground(page, 'getStatus')).result.session.organizationId).toBe(original.organizationId)
  })
})
