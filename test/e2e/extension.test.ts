import { mkdir, stat } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXTENSION_ID } from '../../src/api/identity'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import { startPageServer, type PageServer } from './helpers/pageServer'

const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url))
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

// The listener is registered by an inline head script, then the page asks for providers.
const DAPP_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>dapp</title>
<script>
  window.__announced = [];
  window.addEventListener('eip6963:announceProvider', (e) => window.__announced.push(e.detail));
  window.__ethereumAtHead = typeof window.ethereum;
  window.dispatchEvent(new Event('eip6963:requestProvider'));
</script></head><body><h1>dapp</h1></body></html>`

type PageWindow = {
  __announced: Array<{
    info: { uuid: string; name: string; icon: string; rdns: string }
    provider: { isSigil?: boolean; request(a: { method: string }): Promise<unknown> }
  }>
  __ethereumAtHead: string
  ethereum?: unknown
}

describe('Sigil extension in Chromium', () => {
  let ext: LaunchedExtension
  let server: PageServer

  beforeAll(async () => {
    ext = await launchExtension()
    server = await startPageServer({ '/dapp.html': DAPP_PAGE })
  })

  afterAll(async () => {
    await server?.close()
    await ext?.close()
  })

  it('loads the service worker with the pinned extension id', async () => {
    expect(ext.serviceWorker.url()).toMatch(/\/background\.js$/)
    expect(ext.extensionId).toBe(EXTENSION_ID)
    const runtimeId = await ext.serviceWorker.evaluate(
      () => (globalThis as unknown as { chrome: { runtime: { id: string } } }).chrome.runtime.id,
    )
    expect(runtimeId).toBe(EXTENSION_ID)
  })

  it('renders the popup with the status from the background, and saves a screenshot', async () => {
    const page = await ext.context.newPage()
    try {
      await page.setViewportSize({ width: 380, height: 480 })
      await page.goto(`chrome-extension://${ext.extensionId}/popup.html`)
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Sigil')
      const status = page.locator('#status[data-state="ready"]')
      await status.waitFor({ timeout: 10_000 })
      expect(await status.textContent()).toBe('Not signed in')
      await page.getByRole('button', { name: 'Settings' }).click()
      expect(await page.locator('#extension-id').textContent()).toBe(EXTENSION_ID)
      expect(await page.locator('main').count()).toBe(1)
      await mkdir(ARTIFACTS, { recursive: true })
      const file = `${ARTIFACTS}popup-home.png`
      await page.screenshot({ path: file })
      expect((await stat(file)).size).toBeGreaterThan(1000)
    } finally {
      await page.close()
    }
  })

  it('announces via EIP-6963 and answers through content → background', async () => {
    const page = await ext.context.newPage()
    try {
      await page.goto(server.url('/dapp.html'))
      const out = await page.evaluate(async () => {
        const w = window as unknown as PageWindow
        const detail = w.__announced[0]
        if (!detail) return null
        const chainId = await detail.provider.request({ method: 'eth_chainId' })
        const unknown = await detail.provider.request({ method: 'eth_bogusMethod' }).then(
          () => null,
          (e: { code?: unknown; message?: unknown }) => ({ code: e.code, message: e.message, isError: e instanceof Error }),
        )
        return {
          count: w.__announced.length,
          info: { ...detail.info },
          frozen: Object.isFrozen(detail) && Object.isFrozen(detail.info),
          isSigil: detail.provider.isSigil,
          sameAsWindowEthereum: w.ethereum === detail.provider,
          ethereumAtHead: w.__ethereumAtHead,
          chainId,
          unknown,
        }
      })
      expect(out).not.toBeNull()
      expect(out!.count).toBe(1)
      expect(out!.info.uuid).toMatch(UUID_V4)
      expect(out!.info.name).toBe('Sigil')
      expect(out!.info.icon.startsWith('data:image/')).toBe(true)
      expect(out!.info.rdns).toBe('app.sigil')
      expect(out!.frozen).toBe(true)
      expect(out!.isSigil).toBe(true)
      expect(out!.sameAsWindowEthereum).toBe(true)
      expect(out!.ethereumAtHead).toBe('object')
      expect(out!.chainId).toBe('0x1')
      expect(out!.unknown).toEqual({ code: 4200, message: 'Unsupported method: eth_bogusMethod', isError: true })
    } finally {
      await page.close()
    }
  })
})
