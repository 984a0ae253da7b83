/**
 * Phishing protection (issue 36), in Chromium against the built extension and a real service: a
 * viem page served from a hostname on MetaMask's bundled phishing list (Chromium resolves it to
 * 127.0.0.1) asks to connect; our window opens on a full-page warning bound to that request.
 * "Back to safety" rejects it (4001 in the page); passing the warning explicitly shows the normal
 * connect approval of the same request. Light and dark, axe clean.
 */
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BUNDLED_LIST } from '../../src/extension/background/dapp/phishing'
import { startTestService, type TestService } from '../integration/helpers/service'
import { axeViolations } from './helpers/axe'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import { UNREACHABLE_MAINNET } from './helpers/networks'
import { startPageServer, type PageServer } from './helpers/pageServer'
import { DAPP_SOURCE, dappPage } from './helpers/viemDapp'
import { configureService, loginByEmailOtp, openPopup, shot } from './helpers/wallet'

/** A hostname on the bundled list (and on no allowlist). */
const LISTED = 'moonbirds.tv'

describe('a site on the phishing list gets a full-page warning before its request (Chromium)', () => {
  let svc: TestService
  let ext: LaunchedExtension
  let pages: PageServer
  let dapp: Page
  let origin = ''

  const requestAccounts = () => dapp.evaluate(() => (window as any).dapp.requestAccounts()) as Promise<{ ok?: string[]; code?: number }>
  async function openWindow(): Promise<{ outcome: Promise<{ ok?: string[]; code?: number }>; approval: Page }> {
    const opened = ext.context.waitForEvent('page', { predicate: (p) => p.url().includes('/approval.html?id='), timeout: 20_000 })
    const outcome = requestAccounts()
    const approval = await opened
    await approval.locator('[data-testid="approval-origin"], [data-testid="phishing-warning"]').first().waitFor({ timeout: 20_000 })
    return { outcome, approval }
  }

  beforeAll(async () => {
    expect(BUNDLED_LIST.blacklist).toContain(LISTED)
    svc = await startTestService({ networks: [UNREACHABLE_MAINNET] })
    pages = await startPageServer({ '/': await dappPage(DAPP_SOURCE, 'Moonbirds mint') })
    const port = new URL(pages.url('/')).port
    origin = `http://${LISTED}:${port}`
    ext = await launchExtension(undefined, [
      `--host-resolver-rules=MAP ${LISTED} 127.0.0.1`,
      `--unsafely-treat-insecure-origin-as-secure=${origin}`,
    ])
    const popup = await openPopup(ext)
    await configureService(popup, svc.url)
    await loginByEmailOtp(popup, svc.url, `phishing-${Date.now()}@example.test`)
    dapp = await ext.context.newPage()
    await dapp.goto(`${origin}/`)
    await dapp.waitForFunction(() => typeof (window as any).dapp?.ready() === 'string', undefined, { timeout: 20_000 })
  }, 180_000)

  afterAll(async () => {
    await ext?.close()
    await pages?.close()
    await svc?.stop()
  })

  it('the warning comes first, says why, and "Back to safety" rejects the request with 4001', async () => {
    const { outcome, approval } = await openWindow()
    const warning = approval.getByTestId('phishing-warning')
    await warning.waitFor()
    expect(await approval.getByRole('heading', { name: 'Deceptive site ahead' }).isVisible()).toBe(true)
    expect(await approval.getByTestId('phishing-origin').textContent()).toBe(origin)
    expect(await approval.getByTestId('phishing-reason').textContent()).toContain("MetaMask's phishing list")
    // nothing of the request can be approved from here
    expect(await approval.getByRole('button', { name: 'Approve' }).count()).toBe(0)
    for (const scheme of ['light', 'dark'] as const) {
      await approval.emulateMedia({ colorScheme: scheme })
      expect(await axeViolations(approval), scheme).toEqual([])
      await shot(approval, scheme === 'light' ? 'approval-phishing-warning' : 'approval-phishing-warning-dark')
    }
    await approval.getByRole('button', { name: 'Back to safety' }).click()
    expect(await outcome).toMatchObject({ code: 4001, message: expect.stringContaining('User rejected the request') })
    await dapp.waitForTimeout(1100) // the back-off after a 1st rejection (approval/backoff.ts)
  })

  it('closing the window on the warning rejects the request with 4001', async () => {
    const { outcome, approval } = await openWindow()
    await approval.getByTestId('phishing-warning').waitFor()
    await approval.close()
    expect(await outcome).toMatchObject({ code: 4001, message: expect.stringContaining('User rejected the request') })
    await dapp.waitForTimeout(2100) // 2nd rejection in a row: 2 s
  })

  it('passed explicitly ("I understand the risk, continue"), the same request shows its connect approval and connects', async () => {
    const { outcome, approval } = await openWindow()
    await approval.getByTestId('phishing-warning').waitFor()
    await approval.getByRole('button', { name: 'I understand the risk, continue' }).click()
    expect(await approval.getByTestId('phishing-warning').count()).toBe(0)
    expect(await approval.locator('[data-testid="approval-origin"]').textContent()).toContain(LISTED)
    const approve = approval.getByRole('button', { name: 'Approve' })
    await expect.poll(() => approve.isEnabled(), { timeout: 10_000 }).toBe(true)
    await approve.click()
    const result = await outcome
    expect(result.ok?.[0]).toMatch(/^0x[0-9a-fA-F]{40}$/)
  })
})
