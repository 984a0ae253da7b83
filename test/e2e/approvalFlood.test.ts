/**
 * Approval flooding: before, 8 subdomains opened 8 focused windows at once and a page
 * re-prompted 107–257 ms after each close. Now one approval window exists at a time (the rest
 * queue) and an origin that was just rejected is refused with 4001 without a window.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startTestService, type TestService } from '../integration/helpers/service'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import { startPageServer, type PageServer } from './helpers/pageServer'
import { configureService, loginByEmailOtp, openPopup } from './helpers/wallet'

type Outcome = { ok: unknown } | { code: number; message: string }
const SITES = 8

function request(page: Page, method: string): Promise<Outcome> {
  return page.evaluate(
    (m) =>
      (window as any).ethereum.request({ method: m }).then(
        (ok: unknown) => ({ ok }),
        (e: { code: number; message: string }) => ({ code: e.code, message: e.message }),
      ),
    method,
  )
}

describe('approval flood control (Chromium)', () => {
  let svc: TestService
  let ext: LaunchedExtension
  let pages: PageServer
  const sites: Page[] = []
  /** The page whose request was rejected last (its back-off is the freshest). */
  let lastRejected: Page | undefined

  const approvalWindows = () => ext.context.pages().filter((p) => p.url().includes('/approval.html?id='))

  beforeAll(async () => {
    svc = await startTestService()
    ext = await launchExtension()
    pages = await startPageServer({ '/': '<!doctype html><title>flood</title><h1>flood</h1>' })
    const popup = await openPopup(ext)
    await configureService(popup, svc.url)
    await loginByEmailOtp(popup, svc.url, `flood-${Date.now()}@example.test`)
    const port = new URL(pages.origin).port
    for (let i = 0; i < SITES; i++) {
      const page = await ext.context.newPage()
      await page.goto(`http://s${i}.localhost:${port}/`)
      await page.waitForFunction(() => (window as any).ethereum?.isSigil === true)
      sites.push(page)
    }
  })

  afterAll(async () => {
    await ext?.close()
    await pages?.close()
    await svc?.stop()
  })

  it(`${SITES} subdomains asking at once: one approval window at a time, each showing its own site`, async () => {
    let maxOpen = 0
    const sampler = setInterval(() => {
      maxOpen = Math.max(maxOpen, approvalWindows().filter((p) => !p.isClosed()).length)
    }, 25)
    const outcomes = sites.map((page) => request(page, 'eth_requestAccounts'))
    const shownOrigins: string[] = []
    try {
      for (let i = 0; i < SITES; i++) {
        const approval = await ext.context.waitForEvent('page', {
          predicate: (p) => p.url().includes('/approval.html?id='),
          timeout: 15_000,
        })
        const origin = approval.locator('[data-testid="approval-origin"]')
        await origin.waitFor({ timeout: 15_000 })
        shownOrigins.push((await origin.textContent()) ?? '')
        expect(approvalWindows().filter((p) => !p.isClosed())).toHaveLength(1)
        await approval.getByRole('button', { name: 'Reject' }).click()
        if (i < SITES - 1) await approval.waitForEvent('close', { timeout: 10_000 })
      }
    } finally {
      clearInterval(sampler)
    }
    for (const outcome of await Promise.all(outcomes)) expect(outcome).toEqual({ code: 4001, message: 'User rejected the request' })
    expect(maxOpen).toBe(1)
    const port = new URL(pages.origin).port
    lastRejected = sites.find((p) => new URL(p.url()).origin === shownOrigins.at(-1))
    expect([...shownOrigins].sort()).toEqual(sites.map((_, i) => `http://s${i}.localhost:${port}`).sort())
    console.info(`flood: ${SITES} requests, at most ${maxOpen} approval window open at once`)
  })

  it('a re-prompt right after a reject is refused with 4001 and opens no window; after the back-off it prompts again', async () => {
    const page = lastRejected!
    const before = new Set(approvalWindows())
    const t0 = Date.now()
    const again = await request(page, 'eth_requestAccounts')
    expect(again).toMatchObject({ code: 4001, message: expect.stringContaining('too soon') })
    await page.waitForTimeout(300)
    expect(approvalWindows().filter((p) => !before.has(p))).toHaveLength(0)
    console.info(`flood: re-prompt right after the reject answered 4001 in ${Date.now() - t0} ms, no window`)
    await page.waitForTimeout(1100)
    const opened = ext.context.waitForEvent('page', { predicate: (p) => p.url().includes('/approval.html?id='), timeout: 15_000 })
    const outcome = request(page, 'eth_requestAccounts')
    const approval = await opened
    await approval.locator('[data-testid="approval-origin"]').waitFor({ timeout: 15_000 })
    await approval.close()
    expect(await outcome).toEqual({ code: 4001, message: 'User rejected the request' })
    // 2nd rejection in a row: 2 s, so 1.1 s later it is still refused
    await page.waitForTimeout(1100)
    expect(await request(page, 'eth_requestAccounts')).toMatchObject({ code: 4001, message: expect.stringContaining('too soon') })
  })
})
