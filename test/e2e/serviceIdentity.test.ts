/**
 * A relay and service in the middle, replayed against the built extension
 * in Chromium with the real service: the extension pins the service's identity key at the
 * connect step; logins make the session key in the extension (OTP v2 with the code encrypted
 * to the signed target bundle, verified tokens and session JWTs); every use of the service
 * first checks its signed identity against the pinned key and the URL's origin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { EXTENSION_ORIGIN } from '../../src/api/identity'
import { SERVICE_IDENTITY_PATH } from '../../src/api/serviceIdentity'
import { bytesToHex } from '../../src/crypto/encoding'
import { signClientSignature } from '../../src/crypto/jwt'
import { generateP256KeyPair, p256PublicKeyFromPrivate } from '../../src/crypto/p256'
import { serviceFingerprint, signServiceIdentity } from '../../src/crypto/serviceIdentity'
import { createTargetBundle } from '../../src/crypto/signedBundle'
import { startTestService, type TestService } from '../integration/helpers/service'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import { type Proxy, startProxy } from './helpers/proxy'
import {
  callBackground,
  configureService,
  loginByEmailOtp,
  logoutViaSettings,
  openPopup,
  otpCodeOf,
  shot,
  waitForMessage,
} from './helpers/wallet'

const ATTACKER_ADDRESS = `0x${'ee'.repeat(20)}`

describe('service identity pinned: relay and service in the middle', () => {
  let svc: TestService
  let ext: LaunchedExtension
  let page: Page
  const proxies: Proxy[] = []
  const attacker = generateP256KeyPair()
  const attackerPub = p256PublicKeyFromPrivate(attacker.privateKey, false)

  beforeAll(async () => {
    svc = await startTestService()
    ext = await launchExtension()
    page = await openPopup(ext)
  })

  afterAll(async () => {
    await ext?.close()
    for (const p of proxies) await p.close()
    await svc?.stop()
  })

  async function proxy(target: string, hooks: Parameters<typeof startProxy>[1] = {}): Promise<Proxy> {
    const p = await startProxy(target, hooks)
    proxies.push(p)
    return p
  }

  it('the connect step shows the fingerprint of the key the service signs with, and pins it', async () => {
    const doc = (await (await fetch(svc.url + SERVICE_IDENTITY_PATH)).json()) as { publicKey: string }
    const shown = await configureService(page, svc.url, { screenshot: 'popup-settings-connect' })
    expect(shown).toBe(serviceFingerprint(doc.publicKey))
    const status = await callBackground(page, 'getStatus')
    expect(status.result.settings).toMatchObject({ apiBaseUrl: svc.url, identityKey: doc.publicKey })
    expect(status.result.service.fingerprint).toBe(shown)
  })

  it('relay in the middle swapping the OTP target key: refused at the pinned-key check, the code never leaves', async () => {
    const relay = await proxy(`${svc.url}/auth`, {
      rewrite: (path, json) =>
        path === '/v1/otp_init_v2'
          ? {
              ...(json as object),
              otpEncryptionTargetBundle: createTargetBundle({ targetPublicKey: attackerPub, signerPrivateKey: attacker.privateKey }),
            }
          : undefined,
    })
    // The relay forwards the real service's identity, so connecting to it passes: the same fingerprint.
    await configureService(page, svc.url, { relayUrl: relay.url })
    await page.getByRole('button', { name: 'Email', exact: true }).click()
    await page.getByLabel('Email address', { exact: true }).fill(`mitm-${Date.now()}@example.test`)
    await page.getByRole('button', { name: 'Send code' }).click()
    await page.getByText(/not signed by the service this wallet is connected to/).waitFor({ timeout: 15_000 })
    await shot(page, 'popup-relay-mitm-refused')
    expect(relay.seen.map((s) => s.path)).not.toContain('/v1/otp_verify_v2')
    expect((await callBackground(page, 'getStatus')).result.loggedIn).toBe(false)
    await page.reload()
    await page.locator('#status[data-state="ready"]').waitFor()
  })

  it('relay in the middle recording everything: the login works and nothing it saw logs in', async () => {
    const relay = await proxy(`${svc.url}/auth`)
    await configureService(page, svc.url, { relayUrl: relay.url })
    const email = `recorded-${Date.now()}@example.test`
    await loginByEmailOtp(page, svc.url, email)
    const code = otpCodeOf((await waitForMessage(svc.url, email)).text)
    const traffic = JSON.stringify(relay.seen)
    expect(traffic).not.toContain(code) // the code crossed only encrypted to the service's signed key
    expect(traffic).not.toContain('credentialBundle') // no key travelled, encrypted or not
    const loginCall = relay.seen.find((s) => s.path === '/v1/otp_login_v2')
    expect(loginCall).toBeDefined()
    const captured = JSON.parse(loginCall!.body) as { verificationToken: string; organizationId: string; publicKey: string }
    const status = await callBackground(page, 'getStatus')
    expect(status.result.session.organizationId).toBe(captured.organizationId)

    // The attacker replays the captured token with its own key: refused (bound to the extension's key, and spent).
    const ownPub = bytesToHex(p256PublicKeyFromPrivate(attacker.privateKey, true))
    const tokenId = JSON.parse(Buffer.from(captured.verificationToken.split('.')[1]!, 'base64url').toString()).id as string
    const headers = { 'Content-Type': 'application/json', Origin: EXTENSION_ORIGIN }
    const v2 = await fetch(`${svc.url}/auth/v1/otp_login_v2`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        verificationToken: captured.verificationToken,
        publicKey: ownPub,
        organizationId: captured.organizationId,
        clientSignature: signClientSignature({
          privateKey: attacker.privateKey,
          message: JSON.stringify({ login: { publicKey: ownPub }, tokenId, type: 'USAGE_TYPE_LOGIN' }),
        }),
      }),
    })
    expect(v2.status).toBeGreaterThanOrEqual(400)
    const v1 = await fetch(`${svc.url}/auth/v1/otp_login`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ verificationToken: captured.verificationToken, publicKey: ownPub, organizationId: captured.organizationId }),
    })
    expect(v1.status).toBeGreaterThanOrEqual(400)
    // Re-sending the captured encrypted code gets no new token either (the OTP is spent).
    const verifyCall = relay.seen.find((s) => s.path === '/v1/otp_verify_v2')!
    const again = await fetch(`${svc.url}/auth/v1/otp_verify_v2`, { method: 'POST', headers, body: verifyCall.body })
    expect(again.status).toBeGreaterThanOrEqual(400)
  })

  it('service in the middle at the connect step: refused before anything is pinned', async () => {
    await logoutViaSettings(page)
    await configureService(page, svc.url)
    const middle = await proxy(svc.url)
    await page.getByRole('button', { name: 'Settings' }).click()
    await page.getByLabel('Service URL').fill(middle.url)
    await page.getByLabel('Relay URL').fill(`${svc.url}/auth`)
    await page.getByRole('button', { name: 'Check service' }).click()
    await page.getByText(/another address \(it may be a proxy in the middle\)/).waitFor({ timeout: 15_000 })
    await shot(page, 'popup-service-mitm-refused')
    expect(await page.getByRole('button', { name: 'Trust and connect' }).count()).toBe(0)
    expect((await callBackground(page, 'getStatus')).result.settings.apiBaseUrl).toBe(svc.url)
    await page.getByRole('button', { name: 'Back to login' }).click()
  })

  it('service in the middle written straight into settings: refused before any address is shown', async () => {
    await loginByEmailOtp(page, svc.url, `victim-${Date.now()}@example.test`)
    const real = await callBackground(page, 'listAccounts')
    expect(real.ok).toBe(true)

    const rewrite = (path: string, json: unknown) => {
      if (path !== '/public/v1/query/list_wallet_accounts') return undefined
      const j = json as { accounts: Array<{ address: string }> }
      return { ...j, accounts: j.accounts.map((a) => ({ ...a, address: ATTACKER_ADDRESS })) }
    }
    const transparent = await proxy(svc.url, { rewrite })
    // A proxy with its own identity (its own key, its own origin) fares no better.
    const ownKey = generateP256KeyPair()
    const ownPubHex = bytesToHex(p256PublicKeyFromPrivate(ownKey.privateKey, false))
    const impostor = await proxy(svc.url, {
      rewrite,
      answer: (path) =>
        path === SERVICE_IDENTITY_PATH
          ? signServiceIdentity(
              {
                v: 1,
                kind: 'sigil-service-identity',
                origins: [impostorUrl()],
                keys: { identity: ownPubHex, signer: ownPubHex, notarizer: ownPubHex },
                issuedAt: Date.now(),
              },
              ownKey.privateKey,
            )
          : undefined,
    })
    function impostorUrl() {
      return impostor.url
    }
    for (const middle of [transparent, impostor]) {
      await setServiceUrlInStorage(middle.url)
      const reply = await callBackground(page, 'listAccounts')
      expect(reply).toMatchObject({ ok: false, error: { code: 'SERVICE_UNVERIFIED' } })
      expect(JSON.stringify(reply)).not.toContain(ATTACKER_ADDRESS.slice(2))
      // Only the identity document was asked for (once per check; the open popup may check again):
      // no stamped request reached the proxy.
      expect(middle.seen.length).toBeGreaterThanOrEqual(1)
      expect(new Set(middle.seen.map((s) => s.path))).toEqual(new Set([SERVICE_IDENTITY_PATH]))
      expect(middle.seen.some((s) => 'x-stamp' in s.headers)).toBe(false)
    }
    await setServiceUrlInStorage(svc.url)
    expect((await callBackground(page, 'listAccounts')).ok).toBe(true)
  })

  /** Tamper with the stored settings from inside the extension (what a storage write would do). */
  async function setServiceUrlInStorage(url: string): Promise<void> {
    const worker = ext.context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://')) ?? ext.serviceWorker
    await worker.evaluate(async (u) => {
      const c = (globalThis as any).chrome
      const got = await c.storage.local.get('sigil.settings')
      const rec = got['sigil.settings']
      rec.settings.apiBaseUrl = u
      await c.storage.local.set({ 'sigil.settings': rec })
    }, url)
  }
})
