/**
 * The request queue in Chromium: a viem page asks for three signatures at once; one approval
 * window opens, counts the requests waiting behind the shown one, and shows them one after
 * another after each answer; the page gets all three results, each verified with viem. The
 * window names the account ("Account 1"). "Reject all" answers a queue with 4001 each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { verifyMessage, verifyTypedData } from 'viem'
import { startTestService, type TestService } from '../integration/helpers/service'
import { MAIL_TYPED_DATA } from '../helpers/typedData'
import { axeViolations } from './helpers/axe'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import { startPageServer, type PageServer } from './helpers/pageServer'
import { awaitApproval, viemDappScript } from './helpers/viemDapp'
import { configureService, loginByEmailOtp, openPopup, shot } from './helpers/wallet'
import { UNREACHABLE_MAINNET } from './helpers/networks'

type Outcome = { ok: unknown } | { code: number; message: string }

describe('approval request queue (Chromium, viem page)', () => {
  let svc: TestService
  let ext: LaunchedExtension
  let pages: PageServer
  let dapp: Page
  let address: `0x${string}`
  /** Every approval window opened in this browser. */
  const approvalWindows: Page[] = []

  const page = <T>(fn: (...a: any[]) => Promise<T>, ...args: unknown[]) => dapp.evaluate(fn as any, args) as Promise<T>

  /** The page asks for three signatures at once with viem (two messages, one typed data). */
  function threeAtOnce(): Promise<Outcome[]> {
    return page(
      ([account, typedData]: [string, string]) => {
        const w = (window as any).wallet
        const outcome = (p: Promise<unknown>) =>
          p.then(
            (ok) => ({ ok }),
            (e: any) => ({ code: e?.walk?.((x: any) => typeof x?.code === 'number')?.code ?? e?.code, message: String(e?.message) }),
          )
        return Promise.all([
          outcome(w.signMessage({ account, message: 'first message' })),
          outcome(w.signMessage({ account, message: 'second message' })),
          outcome(w.request({ method: 'eth_signTypedData_v4', params: [account, typedData] })),
        ])
      },
      address,
      JSON.stringify(MAIL_TYPED_DATA),
    )
  }

  const counter = (approval: Page) => approval.locator('[data-testid="approval-queue-count"]').textContent()
  const approveEnabled = (approval: Page) => approval.getByRole('button', { name: 'Approve' }).isEnabled()

  beforeAll(async () => {
    svc = await startTestService({
      networks: [UNREACHABLE_MAINNET],
    })
    const script = await viemDappScript()
    pages = await startPageServer({
      '/': `<!doctype html><html><head><title>viem dApp</title></head><body><h1>viem dApp</h1><script>${script}</script></body></html>`,
    })
    ext = await launchExtension()
    ext.context.on('page', (p) => {
      if (p.url().includes('/approval.html?id=')) approvalWindows.push(p)
    })
    const popup = await openPopup(ext)
    await configureService(popup, svc.url)
    await loginByEmailOtp(popup, svc.url, `queue-${Date.now()}@example.test`)
    dapp = await ext.context.newPage()
    await dapp.goto(pages.url('/'))
    await dapp.waitForFunction(() => typeof (window as any).dapp?.ready() === 'string')
    const { outcome, approval } = await awaitApproval(ext, () => page(() => (window as any).dapp.requestAccounts()))
    // the connect window offers the account by its name
    expect(await approval.locator('[data-testid="approval-account-picker"]').textContent()).toContain('Account 1')
    await approval.getByRole('button', { name: 'Approve' }).click()
    const connected = (await outcome) as { ok: `0x${string}`[] }
    address = connected.ok[0]!
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)
    await approval.waitForEvent('close', { timeout: 10_000 })
  }, 120_000)

  afterAll(async () => {
    await ext?.close()
    await pages?.close()
    await svc?.stop()
  })

  it('three requests at once: one window, "2 more requests waiting", approved one after another in it; the page gets three valid signatures', async () => {
    const before = approvalWindows.length
    const t0 = Date.now()
    const { outcome, approval } = await awaitApproval(ext, threeAtOnce)
    await expect.poll(() => counter(approval), { timeout: 10_000 }).toBe('2 more requests waiting')
    expect(await approval.locator('[data-testid="approval-queue-count"]').getAttribute('aria-live')).toBe('polite')
    expect(await approval.locator('[data-testid="approval-account-name"]').textContent()).toBe('Account 1')
    expect(await approval.locator('[data-testid="approval-origin"]').textContent()).toBe(pages.origin)
    await shot(approval, 'approval-queue-light')
    expect(await axeViolations(approval)).toEqual([])
    await approval.emulateMedia({ colorScheme: 'dark' })
    await shot(approval, 'approval-queue-dark')
    expect(await axeViolations(approval)).toEqual([])
    await approval.emulateMedia({ colorScheme: 'light' })

    const methods: string[] = []
    for (const next of ['1 more request waiting', '', null]) {
      await expect.poll(() => approveEnabled(approval), { timeout: 10_000 }).toBe(true)
      methods.push((await approval.locator('[data-testid="approval-method"]').textContent()) ?? '')
      // every request names the account it signs with
      expect(await approval.locator('[data-testid="approval-account-name"]').textContent()).toBe('Account 1')
      if (methods.at(-1) === 'eth_signTypedData_v4') await approval.locator('.end-of-fields').scrollIntoViewIfNeeded()
      await expect.poll(() => approveEnabled(approval), { timeout: 10_000 }).toBe(true)
      await approval.getByRole('button', { name: 'Approve' }).click()
      if (next === null) break
      // the same window moves on: the counter drops and Approve is armed anew for the next request
      await expect.poll(() => counter(approval), { timeout: 10_000 }).toBe(next)
    }
    await approval.waitForEvent('close', { timeout: 10_000 })
    expect([...methods].sort()).toEqual(['eth_signTypedData_v4', 'personal_sign', 'personal_sign'])
    const [first, second, typed] = (await outcome) as Array<{ ok: `0x${string}` }>
    expect(await verifyMessage({ address, message: 'first message', signature: first!.ok })).toBe(true)
    expect(await verifyMessage({ address, message: 'second message', signature: second!.ok })).toBe(true)
    expect(await verifyTypedData({ address, ...(MAIL_TYPED_DATA as any), signature: typed!.ok })).toBe(true)
    expect(approvalWindows.length - before).toBe(1)
    console.info(`queue: 3 requests answered in one window in ${Date.now() - t0} ms`)
  })

  it('"Reject all" answers the shown and the waiting requests with 4001 each and closes the window', async () => {
    const before = approvalWindows.length
    const { outcome, approval } = await awaitApproval(ext, threeAtOnce)
    await expect.poll(() => counter(approval), { timeout: 10_000 }).toBe('2 more requests waiting')
    await approval.getByRole('button', { name: 'Reject all (3)' }).click()
    expect(await approval.locator('[data-testid="approval-result"]').textContent()).toBe('Rejected 3 requests.')
    await approval.waitForEvent('close', { timeout: 10_000 })
    for (const o of (await outcome) as Array<{ code: number }>) expect(o.code).toBe(4001)
    expect(approvalWindows.length - before).toBe(1)
  })
})
