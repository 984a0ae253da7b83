/**
 * The popup screens in a real Chromium, each checked with axe-core (no serious or
 * critical violations): wallet home, Receive, Connected sites (a real page connected, then
 * Disconnect), the connect approval window, Activity in plain words, and a validation error at its field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startTestService, type TestService } from '../integration/helpers/service'
import { axeViolations } from './helpers/axe'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import { type PageServer, startPageServer } from './helpers/pageServer'
import { awaitApproval, viemDappScript } from './helpers/viemDapp'
import { configureService, loginByEmailOtp, openPopup, shot } from './helpers/wallet'

describe('popup screens: wallet home, receive, connected sites, activity, field errors, axe', () => {
  let svc: TestService
  let ext: LaunchedExtension
  let page: Page
  let pages: PageServer
  const email = `screens-${Date.now()}@example.test`

  beforeAll(async () => {
    pages = await startPageServer({
      '/': `<!doctype html><html lang="en"><head><title>A dApp</title></head><body><h1>A dApp</h1><script>${await viemDappScript()}</script></body></html>`,
    })
    svc = await startTestService()
    ext = await launchExtension()
    page = await openPopup(ext)
    await configureService(page, svc.url)
    expect(await axeViolations(page)).toEqual([])
    await loginByEmailOtp(page, svc.url, email)
  }, 60_000)

  afterAll(async () => {
    await ext?.close()
    await svc?.stop()
    await pages?.close()
  })

  it('opens on the wallet: total, Send / Receive / Buy, named accounts with short addresses and Copy', async () => {
    const first = page.locator('li.account-group').first()
    await first.waitFor({ timeout: 20_000 })
    expect(await page.getByRole('heading', { name: 'Wallet' }).count()).toBe(1)
    expect(await page.getByLabel('Network').count()).toBe(1)
    for (const name of ['Send', 'Receive', 'Buy']) expect(await page.getByRole('button', { name, exact: true }).count()).toBe(1)
    expect(await first.getAttribute('aria-label')).toBe('Account 1')
    const address = (await first.locator('li.account').first().getAttribute('data-address')) ?? ''
    expect(await first.locator('li.account').first().locator('code.address').textContent()).toBe(
      `${address.slice(0, 6)}…${address.slice(-4)}`,
    )
    const copy = first.getByRole('button', { name: `Copy address ${address}` })
    await copy.click()
    await expect.poll(() => copy.textContent()).toBe('Copied')
    await expect.poll(() => copy.textContent(), { timeout: 4000 }).toBe('Copy')
    // rename, kept per user
    // one primary action; Rename, Hide and Export behind the account's "More"
    expect(await page.locator('.actions button.primary').allTextContents()).toEqual(['Send'])
    expect(await first.locator('svg.identicon').first().getAttribute('data-address')).toBe(address)
    const more = first.getByRole('button', { name: 'More for Account 1' })
    await more.click()
    expect(await more.getAttribute('aria-expanded')).toBe('true')
    expect(await first.locator('.more-menu .facts dd.address').first().textContent()).toBe(address)
    expect(await axeViolations(page)).toEqual([])
    await shot(page, 'popup-home-more')
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(await axeViolations(page)).toEqual([])
    await shot(page, 'popup-home-more-dark')
    await page.emulateMedia({ colorScheme: 'light' })
    await first.getByRole('button', { name: 'Rename Account 1' }).click()
    await page.getByLabel('Name of Account 1').fill('Savings')
    await page.getByRole('button', { name: 'Save name' }).click()
    await expect.poll(() => page.locator('li.account-group').first().getAttribute('aria-label')).toBe('Savings')
    expect(await axeViolations(page)).toEqual([])
    await shot(page, 'popup-home')
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(await axeViolations(page)).toEqual([])
    await shot(page, 'popup-home-dark')
    await page.emulateMedia({ colorScheme: 'light' })
  })

  it('Receive shows the QR code and the full address', async () => {
    await page.getByRole('button', { name: 'Receive', exact: true }).click()
    const box = page.locator('.receive-box')
    await box.locator('svg.qr').waitFor()
    const shown = await box.locator('.full-address').textContent()
    expect(shown).toMatch(/^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$/)
    expect(await box.locator('svg.qr').getAttribute('aria-label')).toBe(`QR code of address ${shown}`)
    expect(await axeViolations(page)).toEqual([])
    await shot(page, 'popup-receive')
  })

  it('Connected sites lists a site connected from its own page (connect window checked with axe); Disconnect removes it and tells the page', async () => {
    const dapp = await ext.context.newPage()
    await dapp.goto(pages.url('/'))
    await dapp.waitForFunction(() => typeof (window as any).dapp?.ready() === 'string')
    const { outcome, approval } = await awaitApproval(ext, () => dapp.evaluate(() => (window as any).dapp.requestAccounts()))
    expect(await approval.getByRole('heading', { level: 1 }).textContent()).toBe('Connect to this site?')
    expect(await axeViolations(approval)).toEqual([])
    await shot(approval, 'approval-connect')
    await approval.getByRole('button', { name: 'Approve' }).click()
    const connected = (await outcome) as { ok: string[] }
    expect(connected).toMatchObject({ ok: [expect.stringMatching(/^0x[0-9a-fA-F]{40}$/)] })
    const address = connected.ok[0] as string
    await page.bringToFront()
    await page.getByRole('button', { name: 'Sites' }).click()
    const site = page.locator(`li.site[data-origin="${pages.origin}"]`)
    await site.waitFor({ timeout: 10_000 })
    expect(await site.textContent()).toContain(`${address.slice(0, 6)}…`)
    expect(await axeViolations(page)).toEqual([])
    await shot(page, 'popup-connected-sites')
    await site.getByRole('button', { name: `Disconnect ${pages.origin}` }).click()
    await page.getByText(`Disconnected ${pages.origin}.`).waitFor()
    await page.getByText('No site is connected.').waitFor()
    // the page hears it and no longer sees the account
    await expect.poll(() => dapp.evaluate(() => (window as any).dapp.events())).toContainEqual(['accountsChanged', []])
    expect(await dapp.evaluate(() => (window as any).dapp.accounts())).toEqual({ ok: [] })
    await dapp.close()
  })

  it('Activity rows are sentences with time and status, never the wire type name', async () => {
    await page.getByRole('button', { name: 'Activity', exact: true }).click()
    const rows = page.locator('.history li')
    await rows.first().waitFor({ timeout: 20_000 })
    const texts = await rows.allTextContents()
    for (const t of texts) expect(t).not.toMatch(/ACTIVITY_TYPE|_v\d|sign raw payload/i)
    expect(texts.join('\n')).toContain('Logged in')
    expect(await rows.first().locator('time').count()).toBe(1)
    expect(await axeViolations(page)).toEqual([])
    await shot(page, 'popup-activity-plain')
  })

  it('a validation error shows at its field in words', async () => {
    await page.getByRole('button', { name: 'Wallet', exact: true }).click()
    await page.getByRole('button', { name: 'Buy', exact: true }).click()
    await page.getByLabel('Amount').fill('5')
    await page.getByRole('button', { name: 'Continue to provider' }).click()
    const error = page.locator('.field-with-error .field-error')
    await error.waitFor({ timeout: 15_000 })
    expect(await error.textContent()).toMatch(/^The minimum is more than 20 [A-Z]{3}\.$/)
    expect(await page.getByText('Some input is not valid').count()).toBe(0)
    expect(await axeViolations(page)).toEqual([])
    await shot(page, 'popup-field-error')
  })

  it('every control on the wallet home is reached by Tab with a visible focus ring', async () => {
    await page.getByRole('button', { name: 'Wallet', exact: true }).click()
    await page.locator('li.account').first().waitFor()
    const seen = new Set<string>()
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab')
      const focus = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null
        if (!el || el === document.body) return null
        const style = getComputedStyle(el)
        return { name: `${el.tagName} ${el.getAttribute('aria-label') ?? el.textContent ?? ''}`, outline: style.outlineStyle }
      })
      if (!focus) continue
      expect(focus.outline, focus.name).not.toBe('none')
      seen.add(focus.name)
    }
    for (const name of ['BUTTON Send', 'BUTTON Receive', 'BUTTON Buy', 'BUTTON More for', 'SELECT Network']) {
      expect(
        [...seen].some((s) => s.startsWith(name)),
        name,
      ).toBe(true)
    }
    // the account's More menu by keyboard: Enter opens it, Tab goes in, Escape closes it back on the button
    const more = page.locator('li.account-group').first().locator('button.more-toggle')
    await more.focus()
    await page.keyboard.press('Enter')
    expect(await more.getAttribute('aria-expanded')).toBe('true')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.closest('.more-menu') !== null)).toBe(true)
    await page.keyboard.press('Escape')
    expect(await more.getAttribute('aria-expanded')).toBe('false')
    expect(await more.evaluate((el) => el === document.activeElement)).toBe(true)
  })

  it('History and Settings pass axe too', async () => {
    for (const tab of ['History', 'Settings']) {
      await page.getByRole('button', { name: tab, exact: true }).click()
      await page.getByRole('heading', { level: 2 }).first().waitFor()
      expect(await axeViolations(page), tab).toEqual([])
    }
  })
})
