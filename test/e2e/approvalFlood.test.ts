/**
 * Approval flooding: before, 8 subdomains opened 8 focused windows at once and a page
 * re-prompted 107–257 ms after each close. Now one approval window exists at a time (the rest
 * queue and it shows them in turn), an origin that was just rejected is refused with 4001
 * without a window, and a page firing 100 requests gets at most 10 queued, the rest refused at once
 * (before their preparation: before, 90 refusals took 1.3–2.3 s because each first read the
 * wallet's accounts from the service; the service's requests are counted through a proxy).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startTestService, type TestService } from '../integration/helpers/service'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import { startPageServer, type PageServer } from './helpers/pageServer'
import { type Proxy, startProxy } from './helpers/proxy'
import { callBackground, configureService, loginByEmailOtp, openPopup } from './helpers/wallet'

type Outcome = { ok: unknown } | { code: number; message: string }
const SITES = 8
/** How many requests of one site may wait (background/approval/approvals.ts MAX_PENDING_PER_ORIGIN). */
const CAP = 10

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
  /** The extension reaches the service through this proxy, which records every request. */
  let service: Proxy
  /** Service requests of one connect request of a new site, measured in the first test. */
  let perConnect = 0
  let ext: LaunchedExtension
  let pages: PageServer
  let popup: Page
  const sites: Page[] = []
  /** The page whose request was rejected last (its back-off is the freshest). */
  let lastRejected: Page | undefined

  const approvalWindows = () => ext.context.pages().filter((p) => p.url().includes('/approval.html?id='))

  beforeAll(async () => {
    // The service names the proxy's origin in its signed identity, so the proxy starts first.
    service = await startProxy(() => svc.url)
    svc = await startTestService({ serviceOrigins: [service.url] })
    ext = await launchExtension()
    pages = await startPageServer({ '/': '<!doctype html><title>flood</title><h1>flood</h1>' })
    popup = await openPopup(ext)
    await configureService(popup, service.url, { relayUrl: `${svc.url}/auth` })
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
    await service?.close()
  })

  it(`${SITES} subdomains asking at once: one approval window, showing each site's request in turn`, async () => {
    let maxOpen = 0
    const sampler = setInterval(() => {
      maxOpen = Math.max(maxOpen, approvalWindows().filter((p) => !p.isClosed()).length)
    }, 25)
    const opened = ext.context.waitForEvent('page', { predicate: (p) => p.url().includes('/approval.html?id='), timeout: 15_000 })
    const seenBefore = service.seen.length
    const outcomes = sites.map((page) => request(page, 'eth_requestAccounts'))
    const shownOrigins: string[] = []
    try {
      const approval = await opened
      for (let i = 0; i < SITES; i++) {
        const origin = approval.locator('[data-testid="approval-origin"]')
        // the same window moves on to the next site's request after each answer
        await expect
          .poll(async () => (await origin.count()) > 0 && !shownOrigins.includes((await origin.textContent()) ?? ''), { timeout: 15_000 })
          .toBe(true)
        shownOrigins.push((await origin.textContent()) ?? '')
        expect(approvalWindows().filter((p) => !p.isClosed())).toHaveLength(1)
        await approval.getByRole('button', { name: 'Reject', exact: true }).click()
      }
      await approval.waitForEvent('close', { timeout: 10_000 })
    } finally {
      clearInterval(sampler)
    }
    for (const outcome of await Promise.all(outcomes)) expect(outcome).toEqual({ code: 4001, message: 'User rejected the request' })
    perConnect = (service.seen.length - seenBefore) / SITES
    expect(perConnect).toBeGreaterThan(0)
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

  it(`a page firing 100 requests: at most ${CAP} wait, the rest are refused at once with -32002; one window; the browser stays usable`, async () => {
    const port = new URL(pages.origin).port
    const page = await ext.context.newPage()
    await page.goto(`http://hundred.localhost:${port}/`)
    await page.waitForFunction(() => (window as any).ethereum?.isSigil === true)
    let maxOpen = 0
    const sampler = setInterval(() => {
      maxOpen = Math.max(maxOpen, approvalWindows().filter((p) => !p.isClosed()).length)
    }, 25)
    const opened = ext.context.waitForEvent('page', { predicate: (p) => p.url().includes('/approval.html?id='), timeout: 15_000 })
    const seenBefore = service.seen.length
    const t0 = Date.now()
    // The page fires 100 and reports each refusal as it comes back (the queued ones stay open).
    const refusedMs = page.evaluate((n) => {
      const w = window as any
      w.__settled = []
      const started = performance.now()
      const all = Array.from({ length: n }, () =>
        w.ethereum.request({ method: 'eth_requestAccounts' }).then(
          () => w.__settled.push({ ok: true }),
          (e: { code: number; message: string }) => w.__settled.push({ code: e.code, message: e.message, ms: performance.now() - started }),
        ),
      )
      void all
      return new Promise<number>((resolve) => {
        const check = () => (w.__settled.length >= n - 10 ? resolve(performance.now() - started) : setTimeout(check, 10))
        check()
      })
    }, 100)
    try {
      const approval = await opened
      const ms = await refusedMs
      const settled = () => page.evaluate(() => (window as any).__settled as Array<{ code?: number; message?: string }>)
      const refused = await settled()
      expect(refused).toHaveLength(100 - CAP)
      for (const r of refused)
        expect(r).toMatchObject({ code: -32002, message: expect.stringContaining('Too many requests from this site are waiting') })
      await expect
        .poll(() => approval.locator('[data-testid="approval-queue-count"]').textContent(), { timeout: 10_000 })
        .toBe(`${CAP - 1} more requests waiting`)
      // only the admitted requests were prepared: the refused ones cost the service nothing
      // (before: every one of the 100 read the wallet's accounts first)
      const floodReads = service.seen.length - seenBefore
      expect(floodReads).toBeLessThanOrEqual(CAP * perConnect)
      // the browser stays usable: another tab and the wallet's popup answer at once
      const t1 = Date.now()
      expect(await sites[0]!.evaluate(() => (window as any).ethereum.request({ method: 'eth_chainId' }))).toMatch(/^0x/)
      expect((await callBackground(popup, 'getStatus')).ok).toBe(true)
      const usableMs = Date.now() - t1
      expect(usableMs).toBeLessThan(2000)
      expect(approvalWindows().filter((p) => !p.isClosed())).toHaveLength(1)
      await approval.getByRole('button', { name: `Reject all (${CAP})` }).click()
      await approval.waitForEvent('close', { timeout: 10_000 })
      await expect.poll(async () => (await settled()).length, { timeout: 10_000 }).toBe(100)
      const last = (await settled()).slice(100 - CAP)
      for (const r of last) expect(r).toMatchObject({ code: 4001, message: 'User rejected the request' })
      console.info(
        `flood: 100 requests from one page, ${CAP} queued, ${100 - CAP} refused in ${Math.round(ms)} ms with ${floodReads} service ` +
          `requests (${perConnect} per connect), at most ${maxOpen} window; ` +
          `another tab and the popup answered in ${usableMs} ms; total ${Date.now() - t0} ms`,
      )
    } finally {
      clearInterval(sampler)
    }
    expect(maxOpen).toBe(1)
  })
})
