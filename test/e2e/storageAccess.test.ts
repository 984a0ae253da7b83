/**
 * Content scripts cannot read or write the extension's storage. The check runs in the
 * content script's own world (an isolated world), reached through CDP: `Runtime.enable` reports
 * every execution context of the page; ours is the isolated one named after the extension.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { CDPSession, Page } from 'playwright-core'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import { startPageServer, type PageServer } from './helpers/pageServer'

type Context = { id: number; name: string; origin: string; auxData?: { type?: string; frameId?: string } }

describe('storage is out of reach of content scripts (Chromium)', () => {
  let ext: LaunchedExtension
  let pages: PageServer
  let page: Page
  let cdp: CDPSession
  let contentWorld: number

  /** Evaluate `expression` (awaited) in the content script world; resolves to its value or `threw: <message>`. */
  async function inContentScript(expression: string): Promise<unknown> {
    const r = (await cdp.send('Runtime.evaluate', {
      expression: `(async () => { try { return await (${expression}) } catch (e) { return 'threw: ' + (e && e.message) } })()`,
      contextId: contentWorld,
      awaitPromise: true,
      returnByValue: true,
    })) as { result: { value?: unknown }; exceptionDetails?: unknown }
    if (r.exceptionDetails) throw new Error(JSON.stringify(r.exceptionDetails))
    return r.result.value
  }

  beforeAll(async () => {
    ext = await launchExtension()
    pages = await startPageServer({ '/': '<!doctype html><title>page</title><h1>page</h1>' })
    page = await ext.context.newPage()
    await page.goto(pages.url('/'))
    await page.waitForFunction(() => (window as any).ethereum?.isSigil === true)
    cdp = await ext.context.newCDPSession(page)
    const contexts: Context[] = []
    cdp.on('Runtime.executionContextCreated', (e: { context: Context }) => contexts.push(e.context))
    await cdp.send('Runtime.enable')
    const ours = (c: Context) => c.auxData?.type === 'isolated' && c.name === 'Sigil'
    contentWorld = await vi.waitFor(
      () => {
        const found = contexts.find(ours)
        if (!found) throw new Error(`no content script world among ${JSON.stringify(contexts)}`)
        return found.id
      },
      { timeout: 10_000 },
    )
    // the background has written settings (or can): make sure there is something to steal
    await ext.serviceWorker.evaluate(() => (globalThis as any).chrome.storage.local.set({ 'e2e.secret': 'grants' }))
  })

  afterAll(async () => {
    await ext?.close()
    await pages?.close()
  })

  it('the world is the content script (it has chrome.runtime of the extension)', async () => {
    expect(await inContentScript('chrome.runtime.id')).toBe(ext.extensionId)
  })

  it('chrome.storage.local.get / set / remove / clear throw in the content script; nothing is read or written', async () => {
    for (const call of [
      "chrome.storage.local.get('e2e.secret')",
      'chrome.storage.local.get(null)',
      "chrome.storage.local.set({ 'sigil.settings': { apiBaseUrl: 'https://evil.example' } })",
      "chrome.storage.local.remove('e2e.secret')",
      'chrome.storage.local.clear()',
      'chrome.storage.session.get(null)',
    ]) {
      const r = await inContentScript(call)
      expect(r, call).toMatch(/^threw: .*(access|trusted|context)/i)
    }
    const after = await ext.serviceWorker.evaluate(() => (globalThis as any).chrome.storage.local.get(null))
    expect(after['e2e.secret']).toBe('grants')
    expect(after['sigil.settings']).toBeUndefined()
  })
})
