/**
 * "Continue with <provider>" in the built extension (Chromium), end to end and
 * offline: the relay announces the service's dev identity provider; the button opens the browser's
 * own sign-in window (identity.launchWebAuthFlow), a person types an email on the provider's page,
 * the code comes back to the background, which exchanges it (PKCE) for an ID token whose nonce is
 * sha256 of its new session key; the first time the account is created with that OAuth identity,
 * the next time the same account is found; the session then works like an OTP session.
 */
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminTurnkeyClient, startTestService, type TestService } from '../integration/helpers/service'
import { axeViolations } from './helpers/axe'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import { callBackground, configureService, logoutViaSettings, openPopup, shot } from './helpers/wallet'

describe('OAuth sign-up and login through the dev identity provider (Chromium)', () => {
  let svc: TestService
  let ext: LaunchedExtension
  let page: Page
  const email = `oauth-${Date.now()}@example.test`
  let organizationId = ''

  beforeAll(async () => {
    svc = await startTestService()
    ext = await launchExtension()
    page = await openPopup(ext)
    await configureService(page, svc.url)
    await page.reload()
    await page.locator('#status[data-state="ready"]').waitFor({ timeout: 15_000 })
  })

  afterAll(async () => {
    await ext?.close()
    await svc?.stop()
  })

  /** Clicks "Continue with Sigil dev" and signs in as `who` in the browser's sign-in window. */
  async function continueWithDev(who: string, screenshot?: string): Promise<void> {
    const button = page.getByRole('button', { name: 'Continue with Sigil dev' })
    await button.waitFor({ timeout: 15_000 })
    const signIn = ext.context.waitForEvent('page', { predicate: (p) => p.url().includes('/dev/oidc/authorize'), timeout: 20_000 })
    await button.click()
    const idp = await signIn
    await idp.getByLabel('Email').fill(who)
    if (screenshot) await shot(idp, screenshot)
    await idp.getByRole('button', { name: 'Continue' }).click()
    await page.locator('#status[data-logged-in="true"]').waitFor({ timeout: 30_000 })
  }

  it('the login screen offers "Continue with Sigil dev" (axe: no serious violations)', async () => {
    await page.getByRole('button', { name: 'Continue with Sigil dev' }).waitFor({ timeout: 15_000 })
    await shot(page, 'popup-login-oauth')
    expect(await axeViolations(page)).toEqual([])
  })

  it('signs up: a new sub-organization whose root user holds the OAuth identity; the session works', async () => {
    const admin = adminTurnkeyClient(svc)
    const before = (await admin.getSubOrgIds({ organizationId: svc.admin.organizationId })).organizationIds.length
    await continueWithDev(email, 'oauth-dev-provider-page')
    const status = await callBackground(page, 'getStatus')
    expect(status.result.session).toMatchObject({ method: 'oauth', username: email })
    organizationId = status.result.session.organizationId
    expect((await admin.getSubOrgIds({ organizationId: svc.admin.organizationId })).organizationIds.length).toBe(before + 1)
    const users = await admin.getUsers({ organizationId })
    expect(users.users[0]?.oauthProviders.map((p) => [p.providerName, p.issuer, p.audience])).toEqual([
      ['Sigil dev', `${svc.url}/dev/oidc`, 'sigil-dev'],
    ])
    // The session key the service registered is the extension's own (a LOGIN credential).
    const keys = await admin.getApiKeys({ organizationId, userId: status.result.session.userId })
    expect(keys.apiKeys.map((k) => k.credential.type)).toContain('CREDENTIAL_TYPE_LOGIN')
    await page.locator('li.account').first().waitFor({ timeout: 20_000 })
    await shot(page, 'popup-oauth-logged-in')
  })

  it('logs out, and the same identity logs in to the same account (no second sign-up)', async () => {
    await logoutViaSettings(page)
    const admin = adminTurnkeyClient(svc)
    const before = (await admin.getSubOrgIds({ organizationId: svc.admin.organizationId })).organizationIds.length
    await continueWithDev(email)
    const status = await callBackground(page, 'getStatus')
    expect(status.result.session.organizationId).toBe(organizationId)
    expect((await admin.getSubOrgIds({ organizationId: svc.admin.organizationId })).organizationIds.length).toBe(before)
  })

  it('an unknown provider is refused by the background, naming the field', async () => {
    await logoutViaSettings(page)
    const r = await callBackground(page, 'oauthLogin', { issuer: 'https://evil.example' })
    expect(r.ok).toBe(false)
    expect(r.error.field).toBe('issuer')
  })
})
