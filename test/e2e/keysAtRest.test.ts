/**
 * Keys at rest, against real Chromium and the real service: (1) no P-256 private key in clear
 * anywhere in the browser profile (after login, after a browser restart, after logout), since
 * Chromium writes a structured-cloned CryptoKey's PKCS#8 into the IndexedDB LevelDB files;
 * (2) a browser restart ends the session and leaves no key slot; (3) logout deletes the
 * session's API key at the service.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startTestService, type TestService } from '../integration/helpers/service'
import { launchExtension, relaunchExtension, type LaunchedExtension } from './helpers/browser'
import { callBackground, configureService, keyCount, loginByEmailOtp, logoutViaSettings, openPopup } from './helpers/wallet'

/** DER prefix of a P-256 PKCS#8 private key (with public key), up to the 32-byte scalar. */
const PKCS8_PREFIX = Buffer.from('308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420', 'hex')
/** The same without the public key (the other form WebCrypto and BoringSSL accept). */
const PKCS8_SHORT_PREFIX = Buffer.from('308141020100301306072a8648ce3d020106082a8648ce3d030107042730250201010420', 'hex')

type Found = { file: string; offset: number }

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = []
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...(await filesUnder(path)))
    else if (entry.isFile()) out.push(path)
  }
  return out
}

/** Every place in the profile where a P-256 PKCS#8 private key is followed by its 32-byte scalar. */
async function clearPrivateKeys(profile: string): Promise<{ files: number; found: Found[] }> {
  const files = await filesUnder(profile)
  const found: Found[] = []
  for (const file of files) {
    let bytes: Buffer
    try {
      bytes = await readFile(file)
    } catch {
      continue // a lock file or a file removed meanwhile
    }
    for (const prefix of [PKCS8_PREFIX, PKCS8_SHORT_PREFIX]) {
      for (let i = bytes.indexOf(prefix); i !== -1; i = bytes.indexOf(prefix, i + 1)) {
        if (i + prefix.length + 32 <= bytes.length) found.push({ file: file.slice(profile.length), offset: i })
      }
    }
  }
  return { files: files.length, found }
}

type ApiKey = { apiKeyId: string; credential: { publicKey: string }; expirationSeconds?: string }

/** The user's API keys as the service's admin sees them. */
async function apiKeysOf(svc: TestService, organizationId: string, userId: string): Promise<ApiKey[]> {
  const { status, json } = await svc.post('/public/v1/query/get_user', { organizationId, userId })
  expect(status).toBe(200)
  return json.user.apiKeys as ApiKey[]
}

describe('keys at rest and revocation', () => {
  let svc: TestService
  let ext: LaunchedExtension
  let page: Page
  const email = `keys-${Date.now()}@example.test`
  let organizationId = ''
  let userId = ''

  beforeAll(async () => {
    svc = await startTestService()
    ext = await launchExtension()
    page = await openPopup(ext)
    await configureService(page, svc.url)
  })

  afterAll(async () => {
    await ext?.close()
    await svc?.stop()
  })

  async function login(): Promise<ApiKey[]> {
    await loginByEmailOtp(page, svc.url, email)
    const status = await callBackground(page, 'getStatus')
    organizationId = status.result.session.organizationId
    userId = status.result.session.userId
    const sessionKeys = (await apiKeysOf(svc, organizationId, userId)).filter((k) => k.expirationSeconds !== undefined)
    expect(sessionKeys.length).toBeGreaterThan(0)
    return sessionKeys
  }

  it('after an OTP login the profile holds no private key in clear (only the sealed slot)', async () => {
    await login()
    expect.soft(await keyCount(ext)).toBe(1)
    const scan = await clearPrivateKeys(ext.userDataDir)
    console.log(`[keys-at-rest] after login: ${scan.files} files scanned, ${scan.found.length} clear PKCS#8 keys`, scan.found)
    expect(scan.files).toBeGreaterThan(10)
    expect.soft(scan.found).toEqual([])
  })

  it('a browser restart ends the session, deletes the key slot, and leaves no key in clear', async () => {
    await ext.closeKeepingProfile()
    const closed = await clearPrivateKeys(ext.userDataDir)
    console.log(`[keys-at-rest] browser closed: ${closed.files} files scanned, ${closed.found.length} clear PKCS#8 keys`, closed.found)
    expect.soft(closed.found).toEqual([])
    ext = await relaunchExtension(ext)
    page = await openPopup(ext)
    await page.locator('#status[data-logged-in="false"]').waitFor({ timeout: 20_000 })
    const status = await callBackground(page, 'getStatus')
    expect(status.result.loggedIn).toBe(false)
    let slots = await keyCount(ext)
    for (let waited = 0; slots > 0 && waited < 10_000; waited += 250) {
      await new Promise((r) => setTimeout(r, 250))
      slots = await keyCount(ext)
    }
    console.log(`[keys-at-rest] key slots after restart: ${slots}`)
    expect.soft(slots).toBe(0)
    const scan = await clearPrivateKeys(ext.userDataDir)
    console.log(`[keys-at-rest] after restart: ${scan.files} files scanned, ${scan.found.length} clear PKCS#8 keys`, scan.found)
    expect.soft(scan.found).toEqual([])
  })

  it('logout deletes the session API key at the service and leaves no key in clear', async () => {
    // Keys listed before this login: the one of the session the browser restart cut (unreadable now, not revoked).
    const earlier = await apiKeysOf(svc, organizationId, userId)
    const sessionKeys = (await login()).filter((k) => !earlier.some((e) => e.apiKeyId === k.apiKeyId))
    expect(sessionKeys).toHaveLength(1)
    await logoutViaSettings(page)
    const after = await apiKeysOf(svc, organizationId, userId)
    const live = sessionKeys.filter((k) => after.some((a) => a.apiKeyId === k.apiKeyId))
    console.log(
      `[keys-at-rest] API keys of the user before login ${earlier.length}, after logout ${after.length}; session key still live:`,
      live,
    )
    expect.soft(live).toEqual([])
    expect.soft(await keyCount(ext)).toBe(0)
    const scan = await clearPrivateKeys(ext.userDataDir)
    console.log(`[keys-at-rest] after logout: ${scan.files} files scanned, ${scan.found.length} clear PKCS#8 keys`, scan.found)
    expect.soft(scan.found).toEqual([])
  })
})
