import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startTestService, type TestService } from '../integration/helpers/service'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import {
  addVirtualAuthenticator,
  callBackground,
  configureService,
  logoutViaSettings,
  messageCount,
  openPopup,
  shot,
  signUpWithPasskey,
  waitForMessage,
} from './helpers/wallet'

/**
 * Two passkey accounts on ONE virtual authenticator. Recovering A logs
 * in to A (the login asks for the passkey just registered, not any), the popup names the
 * recovered account, and the next unlock uses A's passkey first.
 */
describe('the account the user means, with two passkeys on one authenticator', () => {
  let svc: TestService
  let ext: LaunchedExtension
  let page: Page
  const stamp = Date.now()
  const emailA = `alice-${stamp}@example.test`
  const emailB = `bob-${stamp}@example.test`
  const sessions: Record<'a' | 'b', { organizationId: string; userId: string }> = {} as never

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

  it('signs up A, then B, each with a passkey on the same authenticator', async () => {
    await signUpWithPasskey(page, svc.url, emailA, { name: 'Alice' })
    sessions.a = (await callBackground(page, 'getStatus')).result.session
    await logoutViaSettings(page)
    await signUpWithPasskey(page, svc.url, emailB, { name: 'Bob' })
    sessions.b = (await callBackground(page, 'getStatus')).result.session
    expect(sessions.b.organizationId).not.toBe(sessions.a.organizationId)
    await logoutViaSettings(page)
  })

  it('recovering A opens A (not B) and shows its email and first address', async () => {
    await page.getByRole('button', { name: 'Lost your passkey? Recover by email' }).click()
    await page.getByLabel('Email address', { exact: true }).fill(emailA)
    const before = await messageCount(svc.url, emailA)
    await page.getByRole('button', { name: 'Send recovery email' }).click()
    const message = await waitForMessage(svc.url, emailA, before)
    const bundle = message.text
      .split('\n')
      .map((l) => l.trim())
      .find((l) => /^[1-9A-HJ-NP-Za-km-z]{60,}$/.test(l))
    await page.getByLabel('Recovery code').fill(bundle ?? '')
    await page.getByRole('button', { name: 'Add a new passkey and log in' }).click()
    const notice = page.getByTestId('recovered-account')
    await notice.waitFor({ timeout: 30_000 })
    const session = (await callBackground(page, 'getStatus')).result.session
    expect(session).toMatchObject({ organizationId: sessions.a.organizationId, userId: sessions.a.userId })
    const { json } = await svc.post('/public/v1/query/list_wallet_accounts', {
      organizationId: sessions.a.organizationId,
      paginationOptions: { limit: '100' },
    })
    const first = (json.accounts as Array<{ address: string }>)[0]?.address ?? ''
    expect(first).not.toBe('')
    expect(await notice.textContent()).toBe(`Recovered ${emailA} · ${first}`)
    await shot(page, 'popup-recovery-right-account')
  })

  it('after logout, the login screen unlocks A with its passkey first (B stays closed)', async () => {
    await logoutViaSettings(page)
    await page.getByRole('heading', { name: 'Unlock Sigil' }).waitFor()
    await page.getByText(`Welcome back, ${emailA}.`).waitFor()
    await shot(page, 'popup-unlock-passkey')
    const messagesBefore = await messageCount(svc.url, emailA)
    await page.getByRole('button', { name: 'Unlock with passkey' }).click()
    await page.locator('#status[data-logged-in="true"]').waitFor({ timeout: 20_000 })
    expect((await callBackground(page, 'getStatus')).result.session).toMatchObject({
      organizationId: sessions.a.organizationId,
      method: 'passkey',
    })
    // one touch: no new email code
    expect(await messageCount(svc.url, emailA)).toBe(messagesBefore)
  })
})
