/**
 * E2E helpers for the wallet popup: open it as a tab, point it at a test service through the
 * settings screen, read OTP codes from the dev mailbox, call the background as the popup does,
 * and save screenshots under test/e2e/artifacts/.
 */
import { mkdir } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { DEFAULT_WALLET } from '../../../src/api/defaultWallet'
import { newApiKey } from '../../integration/helpers/keys'
import { submitBody, type TestService } from '../../integration/helpers/service'
import type { LaunchedExtension } from './browser'

/** Where screenshots go (gitignored). */
export const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url))

/** Save a screenshot of the popup as `<name>.png`. */
export async function shot(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true })
  await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true })
}

/** Open the popup as a tab (toolchain.md §4) and wait for the background's status. */
export async function openPopup(ext: LaunchedExtension): Promise<Page> {
  const page = await ext.context.newPage()
  await page.setViewportSize({ width: 380, height: 600 })
  await page.goto(`chrome-extension://${ext.extensionId}/popup.html`)
  await page.locator('#status[data-state="ready"]').waitFor({ timeout: 15_000 })
  return page
}

/** Call the background's popup table from the popup page (the router's allowed sender). */
export async function callBackground(page: Page, method: string, params?: unknown): Promise<any> {
  return page.evaluate(
    ([m, p]) => {
      const msg: Record<string, unknown> = { kind: 'popup', method: m }
      if (p !== undefined) msg.params = p
      return (globalThis as any).chrome.runtime.sendMessage(msg)
    },
    [method, params] as const,
  )
}

/**
 * Connect the extension to `serviceUrl` (relay at `/auth`) through the logged-out settings
 * screen: check it, see its fingerprint, trust it. Returns the fingerprint shown.
 */
export async function configureService(
  page: Page,
  serviceUrl: string,
  opts: { screenshot?: string; relayUrl?: string } = {},
): Promise<string> {
  await page.getByRole('button', { name: 'Settings' }).click()
  await page.getByLabel('Service URL').fill(serviceUrl)
  await page.getByLabel('Relay URL').fill(opts.relayUrl ?? `${serviceUrl}/auth`)
  await page.getByRole('button', { name: 'Check service' }).click()
  const fingerprint = (await page.locator('#candidate-fingerprint').textContent({ timeout: 15_000 })) ?? ''
  if (opts.screenshot) await shot(page, opts.screenshot)
  await page.getByRole('button', { name: 'Trust and connect' }).click()
  await page.getByText('Connected.').waitFor()
  await page.getByRole('button', { name: 'Back to login' }).click()
  return fingerprint
}

type DevMessage = { channel: string; to: string; subject: string; text: string; createdAt: string }

/** Wait for the newest dev-mailbox message to `to` that was not in `seen`. */
export async function waitForMessage(serviceUrl: string, to: string, seenCount = 0, timeoutMs = 15_000): Promise<DevMessage> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const res = await fetch(`${serviceUrl}/dev/messages`)
    const { messages } = (await res.json()) as { messages: DevMessage[] }
    const mine = messages.filter((m) => m.to.toLowerCase() === to.toLowerCase())
    if (mine.length > seenCount && mine[0]) return mine[0]
    if (Date.now() > deadline) throw new Error(`no message to ${to} within ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

/** How many dev-mailbox messages went to `to`. */
export async function messageCount(serviceUrl: string, to: string): Promise<number> {
  const res = await fetch(`${serviceUrl}/dev/messages`)
  const { messages } = (await res.json()) as { messages: DevMessage[] }
  return messages.filter((m) => m.to.toLowerCase() === to.toLowerCase()).length
}

/** The OTP code in a message text. */
export function otpCodeOf(text: string): string {
  const m = /code is:?\s*([A-Za-z0-9]+)/.exec(text)
  if (!m?.[1]) throw new Error('no code in message')
  return m[1]
}

/** Log in (or sign up) by email OTP through the popup UI; returns when the wallet shows. */
export async function loginByEmailOtp(
  page: Page,
  serviceUrl: string,
  email: string,
  shots: { form?: string; code?: string } = {},
): Promise<void> {
  const before = await messageCount(serviceUrl, email)
  await page.getByRole('button', { name: 'Email', exact: true }).click()
  await page.getByLabel('Email address', { exact: true }).fill(email)
  if (shots.form) await shot(page, shots.form)
  await page.getByRole('button', { name: 'Send code' }).click()
  await page.getByRole('heading', { name: 'Enter your code' }).waitFor()
  const message = await waitForMessage(serviceUrl, email, before)
  await page.getByLabel('Code', { exact: true }).fill(otpCodeOf(message.text))
  if (shots.code) await shot(page, shots.code)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.locator('#status[data-logged-in="true"]').waitFor({ timeout: 20_000 })
}

/**
 * An account for `email` made by the operator (the root organization, whose contacts count as
 * verified) with one more credential of the test's own, `owner`, for the user's root user: a test
 * that needs to act inside the user's organization beside the extension (custody: the
 * operator's admin key only reads there). The extension then logs into it by email code.
 */
export async function createAccountWithOwnerKey(svc: TestService, email: string) {
  const owner = newApiKey('test owner')
  const r = await svc.post(
    '/public/v1/submit/create_sub_organization',
    submitBody('ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', svc.admin.organizationId, {
      subOrganizationName: email,
      rootUsers: [{ userName: email, userEmail: email, apiKeys: [owner.param], authenticators: [], oauthProviders: [] }],
      rootQuorumThreshold: 1,
      wallet: DEFAULT_WALLET,
    }),
  )
  if (r.status !== 200) throw new Error(`create_sub_organization: ${JSON.stringify(r.json)}`)
  return { organizationId: r.json.activity.result.createSubOrganizationResultV8.subOrganizationId as string, owner }
}

/** Count keys in the extension's IndexedDB key store, evaluated in the service worker. */
export async function keyCount(ext: LaunchedExtension): Promise<number> {
  const worker = ext.context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://')) ?? ext.serviceWorker
  return worker.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const req = indexedDB.open('sigil-keys', 1)
        req.onupgradeneeded = () => req.result.createObjectStore('keys')
        req.onerror = () => reject(req.error)
        req.onsuccess = () => {
          const tx = req.result.transaction('keys', 'readonly')
          const c = tx.objectStore('keys').count()
          c.onsuccess = () => resolve(c.result)
          c.onerror = () => reject(c.error)
        }
      }),
  )
}

/** Add a CDP virtual authenticator (toolchain.md §5) to the popup page. */
export async function addVirtualAuthenticator(ext: LaunchedExtension, page: Page): Promise<void> {
  const cdp = await ext.context.newCDPSession(page)
  await cdp.send('WebAuthn.enable', { enableUI: false })
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      ctap2Version: 'ctap2_1',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
}

/** Log out through the settings tab. */
export async function logoutViaSettings(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Settings' }).click()
  await page.getByRole('button', { name: 'Log out' }).click()
  await page.locator('#status[data-logged-in="false"]').waitFor()
}

/** Passkey sign-up through the popup: email, code from the dev mailbox, then the passkey. */
export async function signUpWithPasskey(
  page: Page,
  serviceUrl: string,
  email: string,
  opts: { name?: string; shots?: { email?: string; code?: string; verified?: string } } = {},
): Promise<void> {
  await page.getByRole('button', { name: 'Passkey', exact: true }).click()
  await page.getByLabel(/^Email address/).fill(email)
  if (opts.name) await page.getByLabel('Name (optional)').fill(opts.name)
  if (opts.shots?.email) await shot(page, opts.shots.email)
  const before = await messageCount(serviceUrl, email)
  await page.getByRole('button', { name: 'Send verification code' }).click()
  await page.getByRole('heading', { name: 'Verify your email' }).waitFor()
  const message = await waitForMessage(serviceUrl, email, before)
  await page.getByLabel('Verification code').fill(otpCodeOf(message.text))
  if (opts.shots?.code) await shot(page, opts.shots.code)
  await page.getByRole('button', { name: 'Verify email' }).click()
  await page.getByRole('heading', { name: 'Email verified' }).waitFor({ timeout: 20_000 })
  if (opts.shots?.verified) await shot(page, opts.shots.verified)
  await page.getByRole('button', { name: 'Create account with passkey' }).click()
  await page.locator('#status[data-logged-in="true"]').waitFor({ timeout: 20_000 })
}
