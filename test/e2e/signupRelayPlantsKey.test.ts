/**
 * A relay in the middle planting a key in a sign-up, in the built extension (Chromium): a user
 * changes only the Relay URL (the service key is the same, so the popup says "Same service key as
 * now") to a relay in the middle
 * that forwards everything to the real relay but adds its own API key to the OAuth sign-up body
 * (`/v1/signup_v2`, which has no verification token and so no client signature). The extension
 * reads the new account with its session key, finds the key it did not make, refuses to open the
 * account and says so; through the real relay the same sign-up opens the account.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex } from '../../src/crypto/encoding'
import { generateP256KeyPair } from '../../src/crypto/p256'
import { adminTurnkeyClient, startTestService, type TestService } from '../integration/helpers/service'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import { callBackground, configureService, openPopup, shot } from './helpers/wallet'

/** A relay in the middle: forwards to `target`, appending `apiKey` to every sign-up's API keys. */
async function plantingRelay(target: string, apiKey: unknown): Promise<{ url: string; signups: number; close(): Promise<void> }> {
  const state = { signups: 0 }
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    let body = Buffer.concat(chunks).toString('utf8')
    const path = req.url ?? '/'
    if (path === '/v1/signup_v2') {
      const json = JSON.parse(body) as { apiKeys?: unknown[] }
      body = JSON.stringify({ ...json, apiKeys: [...(json.apiKeys ?? []), apiKey] })
      state.signups++
    }
    const headers: Record<string, string> = {}
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'OPTIONS'
    const upstream = await fetch(target + path, { method: req.method ?? 'GET', headers, ...(hasBody ? { body } : {}) })
    const out: Record<string, string> = {}
    upstream.headers.forEach((v, k) => {
      if (k !== 'content-length' && k !== 'content-encoding' && k !== 'transfer-encoding') out[k] = v
    })
    res.writeHead(upstream.status, out)
    res.end(await upstream.text())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    get signups() {
      return state.signups
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

describe('a relay in the middle planting its own key in an OAuth sign-up (Chromium)', () => {
  let svc: TestService
  let ext: LaunchedExtension
  let page: Page
  let relay: Awaited<ReturnType<typeof plantingRelay>>
  const attacker = bytesToHex(generateP256KeyPair().publicKey)

  beforeAll(async () => {
    svc = await startTestService()
    relay = await plantingRelay(`${svc.url}/auth`, { apiKeyName: 'relay', publicKey: attacker, curveType: 'API_KEY_CURVE_P256' })
    ext = await launchExtension()
    page = await openPopup(ext)
    await configureService(page, svc.url)
  })

  afterAll(async () => {
    await ext?.close()
    await relay?.close()
    await svc?.stop()
  })

  /** Clicks "Continue with Sigil dev" and signs in as `who` in the browser's sign-in window. */
  async function continueWithDev(who: string): Promise<void> {
    await page.reload()
    await page.locator('#status[data-state="ready"]').waitFor({ timeout: 15_000 })
    const button = page.getByRole('button', { name: 'Continue with Sigil dev' })
    await button.waitFor({ timeout: 15_000 })
    const signIn = ext.context.waitForEvent('page', { predicate: (p) => p.url().includes('/dev/oidc/authorize'), timeout: 20_000 })
    await button.click()
    const idp = await signIn
    await idp.getByLabel('Email').fill(who)
    await idp.getByRole('button', { name: 'Continue' }).click()
  }

  it('only the Relay URL changes: the popup says the service key is the same', async () => {
    await page.getByRole('button', { name: 'Settings' }).click()
    await page.getByLabel('Service URL').fill(svc.url)
    await page.getByLabel('Relay URL').fill(relay.url)
    await page.getByRole('button', { name: 'Check service' }).click()
    await page.getByText('Same service key as now.').waitFor({ timeout: 15_000 })
    await page.getByRole('button', { name: 'Trust and connect' }).click()
    await page.getByText('Connected.').waitFor()
    await page.getByRole('button', { name: 'Back to login' }).click()
    expect((await callBackground(page, 'getStatus')).result.settings).toMatchObject({ apiBaseUrl: svc.url, relayUrl: relay.url })
  })

  it('the sign-up through it is refused: the popup says why, no account is opened, its session key is revoked', async () => {
    const admin = adminTurnkeyClient(svc)
    const before = (await admin.getSubOrgIds({ organizationId: svc.admin.organizationId })).organizationIds
    await continueWithDev(`planted-${Date.now()}@example.test`)
    await page
      .getByRole('alert')
      .filter({ hasText: 'The relay added a credential you did not create to your new account' })
      .waitFor({ timeout: 30_000 })
    await shot(page, 'popup-signup-relay-planted-key')
    expect(relay.signups).toBe(1)
    const status = await callBackground(page, 'getStatus')
    expect(status.result.loggedIn).toBe(false)
    expect(status.result.session ?? null).toBeNull()
    // The relay did make the account, with its key; the extension's own key is gone from it.
    const after = (await admin.getSubOrgIds({ organizationId: svc.admin.organizationId })).organizationIds
    const made = after.filter((id) => !before.includes(id))
    expect(made).toHaveLength(1)
    const { users } = await admin.getUsers({ organizationId: made[0]! })
    expect(users[0]?.apiKeys.map((k) => k.credential.publicKey)).toEqual([attacker])
  })

  it('the same sign-up through the real relay opens the account', async () => {
    await configureService(page, svc.url)
    const email = `honest-${Date.now()}@example.test`
    await continueWithDev(email)
    await page.locator('#status[data-logged-in="true"]').waitFor({ timeout: 30_000 })
    const status = await callBackground(page, 'getStatus')
    expect(status.result.session).toMatchObject({ method: 'oauth', username: email })
  })
})
