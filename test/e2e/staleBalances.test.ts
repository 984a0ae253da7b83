/**
 * Error states with a way out, in Chromium: the service stopped mid-session leaves the last known
 * balances on screen marked stale with the time they were read, advice naming the service URL
 * (never "check the URLs in Settings"), Receive still showing the address and its QR code; Retry
 * after the service restarts brings fresh balances back. Light and dark, axe clean.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_EVM_CAIP2, DEV_SOLANA_CAIP2, resolveNetworks } from '../../src/chains/networks'
import { type RunningEvmNode, startEvmNode } from '../../src/devchain/evm'
import { sendFromDevFunder } from '../integration/helpers/devchain'
import { freePort } from '../integration/helpers/process'
import { startTestService, type TestService } from '../integration/helpers/service'
import { axeViolations } from './helpers/axe'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import { configureService, loginByEmailOtp, openPopup, shot } from './helpers/wallet'

describe('stale balances with the service stopped; Retry after it restarts', () => {
  let node: RunningEvmNode
  let svc: TestService | undefined
  let ext: LaunchedExtension
  let page: Page
  let port = 0
  const dataDir = mkdtempSync(join(tmpdir(), 'sigil-stale-'))
  const email = `stale-${Date.now()}@example.test`
  const start = async () =>
    startTestService({
      dataDir,
      port,
      networks: resolveNetworks(`${DEV_EVM_CAIP2}=${node.url},${DEV_SOLANA_CAIP2}=http://127.0.0.1:9`),
    })

  beforeAll(async () => {
    node = await startEvmNode({ port: await freePort() })
    port = await freePort()
    svc = await start()
    ext = await launchExtension()
    page = await openPopup(ext)
    await configureService(page, svc.url)
    await loginByEmailOtp(page, svc.url, email)
  }, 90_000)

  afterAll(async () => {
    await ext?.close()
    await svc?.stop()
    await node?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('keeps the last balances (stale, as of the time read), Receive works offline, Retry brings fresh balances back', async () => {
    const total = page.locator('#wallet-total')
    const account = page.locator('li.account-group li.account[data-address^="0x"]').first()
    await account.waitFor({ timeout: 20_000 })
    const address = (await account.getAttribute('data-address')) ?? ''
    await sendFromDevFunder(node.url, { to: address, value: '0x16345785d8a0000' }) // 0.1 ETH
    await page.getByRole('button', { name: 'Refresh' }).click()
    await expect.poll(() => total.textContent(), { timeout: 15_000 }).toBe('0.1 ETH')
    expect(await page.locator('#wallet-stale').count()).toBe(0)

    const url = svc?.url ?? ''
    await svc?.stop()
    svc = undefined
    await page.getByRole('button', { name: 'Refresh' }).click()
    const banner = page.locator('#wallet-stale')
    await banner.waitFor({ timeout: 20_000 })
    await expect.poll(() => banner.locator('p').textContent(), { timeout: 20_000 }).toMatch(/Showing the last known balances · as of/)
    const text = (await banner.textContent()) ?? ''
    expect(text).toContain(`Sigil service at ${url} is not answering.`)
    expect(text).not.toMatch(/Settings/)
    expect(await total.textContent()).toBe('0.1 ETH')
    expect(await page.locator('.total .stale-tag').textContent()).toMatch(/^stale · as of \d{1,2}:\d{2}/)
    // The accounts stay: Receive shows the address and its QR code without the service.
    expect(await page.locator(`li.account[data-address="${address}"]`).count()).toBe(1)
    await page.getByRole('button', { name: 'Receive', exact: true }).click()
    const box = page.locator('.receive-box')
    await box.locator('svg.qr').waitFor()
    await page.getByLabel('Account to receive to').selectOption({ value: address })
    expect(await box.locator('.full-address').textContent()).toBe(address)
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme })
      await shot(page, `popup-stale-${colorScheme}`)
      expect(await axeViolations(page), colorScheme).toEqual([])
    }
    await page.emulateMedia({ colorScheme: 'light' })
    await page.getByRole('button', { name: 'Receive', exact: true }).click()

    // The service comes back; the balance moved meanwhile; Retry shows the fresh one, not stale.
    await sendFromDevFunder(node.url, { to: address, value: '0x16345785d8a0000' })
    svc = await start()
    expect(svc.url).toBe(url)
    await banner.getByRole('button', { name: 'Retry' }).click()
    await expect.poll(() => total.textContent(), { timeout: 20_000 }).toBe('0.2 ETH')
    await expect.poll(() => page.locator('#wallet-stale').count()).toBe(0)
    expect(await page.locator('.total .stale-tag').count()).toBe(0)
  })
})
