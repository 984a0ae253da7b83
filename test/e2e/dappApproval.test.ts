import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { getAddress, recoverMessageAddress, recoverTypedDataAddress, stringToHex } from 'viem'
import { startTestService, type TestService } from '../integration/helpers/service'
import { MAIL_TYPED_DATA, seaportOrder, usdcPermit } from '../helpers/typedData'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import { startPageServer, type PageServer } from './helpers/pageServer'
import { callBackground, configureService, loginByEmailOtp, openPopup, shot } from './helpers/wallet'
import { UNREACHABLE_MAINNET } from './helpers/networks'

type Outcome = { ok: unknown } | { code: number; message: string }

const typedData = MAIL_TYPED_DATA
/** A token the service's Ethereum network lists (its units are known without the node). */
const USDC = { address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', symbol: 'USDC', decimals: 6, name: 'USD Coin', stable: true }

describe('dApp connection and signing with approval in our window (Chromium)', () => {
  let svc: TestService
  let ext: LaunchedExtension
  let pages: PageServer
  let popup: Page
  let dapp: Page
  let address = ''

  /** Send a request from the dApp page; resolves with the result or the EIP-1193 error. */
  function request(method: string, params?: unknown): Promise<Outcome> {
    return dapp.evaluate(
      ([m, p]) =>
        (window as any).ethereum.request(p === undefined ? { method: m } : { method: m, params: p }).then(
          (ok: unknown) => ({ ok }),
          (e: { code: number; message: string }) => ({ code: e.code, message: e.message }),
        ),
      [method, params] as const,
    )
  }

  const accountsEvents = () => dapp.evaluate(() => (window as any).__accountsChanged as unknown[])

  /** Send a request that needs approval; returns the outcome promise and the approval window. */
  async function requestWithApproval(
    method: string,
    params: unknown[] | undefined,
  ): Promise<{ outcome: Promise<Outcome>; approval: Page }> {
    const opened = ext.context.waitForEvent('page', { predicate: (p) => p.url().includes('/approval.html?id='), timeout: 15_000 })
    const outcome = request(method, params)
    const approval = await opened
    await approval.locator('[data-testid="approval-origin"]').waitFor({ timeout: 15_000 })
    await expect.poll(() => approval.getByRole('button', { name: 'Approve' }).isEnabled()).toBe(true)
    return { outcome, approval }
  }

  beforeAll(async () => {
    // Ethereum is the service's only EVM network: the site's chain is 0x1, as the typed data's domains say
    svc = await startTestService({
      networks: [{ ...UNREACHABLE_MAINNET, tokens: [USDC] }],
    })
    ext = await launchExtension()
    pages = await startPageServer({ '/': '<!doctype html><html><head><title>dApp</title></head><body><h1>Test dApp</h1></body></html>' })
    popup = await openPopup(ext)
    await configureService(popup, svc.url)
    await loginByEmailOtp(popup, svc.url, `dapp-${Date.now()}@example.test`)
    const status = await callBackground(popup, 'getStatus')
    const { json } = await svc.post('/public/v1/query/list_wallet_accounts', {
      organizationId: status.result.session.organizationId,
      paginationOptions: { limit: '100' },
    })
    address = (json.accounts as Array<{ address: string; addressFormat: string }>).find(
      (a) => a.addressFormat === 'ADDRESS_FORMAT_ETHEREUM',
    )!.address
    dapp = await ext.context.newPage()
    await dapp.goto(pages.url('/'))
    await dapp.waitForFunction(() => (window as any).ethereum?.isSigil === true)
    await dapp.evaluate(() => {
      const w = window as any
      w.__accountsChanged = []
      w.ethereum.on('accountsChanged', (a: unknown) => w.__accountsChanged.push(a))
    })
  })

  afterAll(async () => {
    await ext?.close()
    await pages?.close()
    await svc?.stop()
  })

  it('eth_accounts is [] before connecting; eth_requestAccounts opens our window with the origin, approve → [address]', async () => {
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(await request('eth_accounts')).toEqual({ ok: [] })
    expect(await request('eth_chainId')).toEqual({ ok: '0x1' })
    const { outcome, approval } = await requestWithApproval('eth_requestAccounts', undefined)
    expect(await approval.locator('[data-testid="approval-origin"]').textContent()).toBe(pages.origin)
    expect(await approval.locator('[data-testid="approval-insecure"]').isVisible()).toBe(true) // the test page is http:
    expect(await approval.locator('[data-testid="approval-account"]').textContent()).toBe(address)
    expect(await approval.getByRole('heading', { level: 1 }).textContent()).toBe('Connect to this site?')
    await shot(approval, 'approval-connect')
    await approval.getByRole('button', { name: 'Approve' }).click()
    expect(await outcome).toEqual({ ok: [address] })
    expect(await request('eth_accounts')).toEqual({ ok: [address] })
    await expect.poll(() => accountsEvents()).toEqual([[address]])
  })

  it("personal_sign('hello sigil') shows the decoded text; approve → a signature that recovers to the address", async () => {
    const { outcome, approval } = await requestWithApproval('personal_sign', [stringToHex('hello sigil'), address])
    expect(await approval.locator('[data-testid="approval-message"]').textContent()).toBe('hello sigil')
    expect(await approval.locator('[data-testid="approval-method"]').textContent()).toBe('personal_sign')
    await shot(approval, 'approval-personal-sign')
    await approval.getByRole('button', { name: 'Approve' }).click()
    const result = await outcome
    expect(result).toMatchObject({ ok: expect.stringMatching(/^0x[0-9a-f]{128}(1b|1c)$/) })
    const signature = (result as { ok: `0x${string}` }).ok
    expect(await recoverMessageAddress({ message: 'hello sigil', signature })).toBe(address)
  })

  it('eth_signTypedData_v4 shows the primary type and fields; approve → recovers with recoverTypedDataAddress', async () => {
    const { outcome, approval } = await requestWithApproval('eth_signTypedData_v4', [address, JSON.stringify(typedData)])
    expect(await approval.locator('[data-testid="approval-primary-type"]').textContent()).toBe('Mail')
    expect(await approval.getByText('Hello, Bob!').count()).toBe(1)
    await shot(approval, 'approval-typed-data')
    await approval.getByRole('button', { name: 'Approve' }).click()
    const result = await outcome
    const signature = (result as { ok: `0x${string}` }).ok
    expect(signature).toMatch(/^0x[0-9a-f]{130}$/)
    expect(await recoverTypedDataAddress({ ...(typedData as any), signature })).toBe(address)
  })

  it('an EIP-2612 permit reads its amount in the token\'s units with its symbol ("12.5 USDC"), never the raw integer', async () => {
    const spender = getAddress(`0x${'5a'.repeat(20)}`)
    const permit = usdcPermit({ verifyingContract: USDC.address, owner: address, spender, value: '12500000', deadline: 1893456000 })
    const opened = ext.context.waitForEvent('page', { predicate: (p) => p.url().includes('/approval.html?id='), timeout: 15_000 })
    const outcome = request('eth_signTypedData_v4', [address, JSON.stringify(permit)])
    const approval = await opened
    await approval.locator('[data-testid="approval-origin"]').waitFor({ timeout: 15_000 })
    const summary = approval.locator('[data-testid="approval-summary"]')
    await expect.poll(() => summary.textContent()).toContain('12.5 USDC')
    expect(await summary.textContent()).not.toContain('12500000')
    await shot(approval, 'approval-permit-units')
    // Approve arms once every field has been in view
    await approval.locator('[aria-label="Message fields"] .field-row').last().scrollIntoViewIfNeeded()
    await expect.poll(() => approval.getByRole('button', { name: 'Approve' }).isEnabled()).toBe(true)
    await approval.getByRole('button', { name: 'Approve' }).click()
    const signature = ((await outcome) as { ok: `0x${string}` }).ok
    expect(await recoverTypedDataAddress({ ...(permit as any), signature })).toBe(address)
  })

  /** Whether the element is (at least partly) inside the window's view. */
  const inView = (locator: ReturnType<Page['locator']>) =>
    locator.evaluate((el) => {
      const r = el.getBoundingClientRect()
      return r.bottom > 0 && r.top < window.innerHeight
    })

  it('a Seaport order with 13 offer items: Approve stays disabled until the last field is scrolled into view; the recipient is shown', async () => {
    const recipient = getAddress(`0x${'bd'.repeat(20)}`)
    const order = seaportOrder(address, recipient, 13)
    const opened = ext.context.waitForEvent('page', { predicate: (p) => p.url().includes('/approval.html?id='), timeout: 15_000 })
    const outcome = request('eth_signTypedData_v4', [address, JSON.stringify(order)])
    const approval = await opened
    await approval.locator('[data-testid="approval-origin"]').waitFor({ timeout: 15_000 })
    const approve = approval.getByRole('button', { name: 'Approve' })
    const rows = approval.locator('[aria-label="Message fields"] .field-row')
    expect(await rows.count()).toBe(2 + 13 * 5 + 6 + 7) // every row, none cut at 64
    const recipientRow = rows.filter({ has: approval.locator('dt', { hasText: /^consideration\[0\]\.recipient$/ }) })
    expect(await approval.locator('[data-testid="approval-warnings"]').textContent()).toContain(`Consideration #1 goes to ${recipient}`)
    await approval.waitForTimeout(1_000) // well past the arm delay
    expect(await inView(rows.last())).toBe(false)
    expect(await inView(recipientRow)).toBe(false)
    expect(await approve.isDisabled()).toBe(true)
    await shot(approval, 'approval-seaport-top')
    // scroll down to the recipient: Approve is still disabled, the last field is not shown yet
    await recipientRow.scrollIntoViewIfNeeded()
    expect(await inView(recipientRow)).toBe(true)
    await approval.waitForTimeout(300)
    if (!(await inView(rows.last()))) expect(await approve.isDisabled()).toBe(true)
    // scroll on to the end with the mouse wheel, as the user would
    await approval.locator('[data-testid="approval-fields"]').hover()
    for (let i = 0; i < 40 && !(await inView(rows.last())); i++) await approval.mouse.wheel(0, 300)
    expect(await inView(rows.last())).toBe(true)
    expect(await recipientRow.locator('dd').textContent()).toBe(recipient)
    expect(await recipientRow.isVisible()).toBe(true)
    await expect.poll(() => approve.isEnabled()).toBe(true)
    await shot(approval, 'approval-seaport-end')
    await approve.click()
    const signature = ((await outcome) as { ok: `0x${string}` }).ok
    expect(await recoverTypedDataAddress({ ...(order as any), signature })).toBe(address)
  })

  it('typed data that violates its own types is refused with -32602 naming the field, without opening a window', async () => {
    const windows: string[] = []
    const onPage = (p: Page) => windows.push(p.url())
    ext.context.on('page', onPage)
    const order = seaportOrder(address, address, 13)
    const extraKey = { ...order, message: { ...order.message, recipient: address } }
    const outOfRange = { ...order, message: { ...order.message, orderType: 300 } }
    const badToken = {
      ...order,
      message: { ...order.message, offer: order.message.offer.map((o, i) => (i === 3 ? { ...o, token: '0x1234' } : o)) },
    }
    expect(await request('eth_signTypedData_v4', [address, JSON.stringify(extraKey)])).toEqual({
      code: -32602,
      message: 'Invalid params for eth_signTypedData_v4: message: unexpected field "recipient" (not in OrderComponents)',
    })
    expect(await request('eth_signTypedData_v4', [address, JSON.stringify(outOfRange)])).toMatchObject({
      code: -32602,
      message: expect.stringContaining('message.orderType: out of range for uint8'),
    })
    expect(await request('eth_signTypedData_v4', [address, badToken])).toMatchObject({
      code: -32602,
      message: expect.stringContaining('message.offer[3].token'),
    })
    await dapp.waitForTimeout(500)
    ext.context.off('page', onPage)
    expect(windows.filter((u) => u.includes('/approval.html'))).toEqual([])
  })

  it('Reject → 4001', async () => {
    const { outcome, approval } = await requestWithApproval('personal_sign', [stringToHex('second'), address])
    await approval.getByRole('button', { name: 'Reject' }).click()
    expect(await outcome).toEqual({ code: 4001, message: 'User rejected the request' })
    await dapp.waitForTimeout(1100) // the back-off after a 1st rejection (approval/backoff.ts)
  })

  it('closing the approval window → 4001', async () => {
    const { outcome, approval } = await requestWithApproval('personal_sign', [stringToHex('third'), address])
    await approval.close()
    expect(await outcome).toEqual({ code: 4001, message: 'User rejected the request' })
    await dapp.waitForTimeout(2100) // 2nd rejection in a row: 2 s
  })

  it('Escape rejects, and Enter does nothing until Approve is focused', async () => {
    const { outcome, approval } = await requestWithApproval('personal_sign', [stringToHex('keyboard'), address])
    await approval.getByRole('button', { name: 'Approve' }).waitFor()
    await approval.waitForTimeout(500)
    await approval.keyboard.press('Enter')
    await approval.waitForTimeout(300)
    expect(await approval.locator('[data-testid="approval-result"]').count()).toBe(0)
    await approval.keyboard.press('Escape')
    expect(await outcome).toEqual({ code: 4001, message: 'User rejected the request' })
    await dapp.waitForTimeout(4100) // 3rd rejection in a row: 4 s
  })

  it('Enter on the focused Approve button approves', async () => {
    const { outcome, approval } = await requestWithApproval('personal_sign', [stringToHex('enter'), address])
    const approve = approval.getByRole('button', { name: 'Approve' })
    await expect.poll(() => approve.isEnabled()).toBe(true)
    await approve.focus()
    await approval.keyboard.press('Enter')
    const signature = ((await outcome) as { ok: `0x${string}` }).ok
    expect(await recoverMessageAddress({ message: 'enter', signature })).toBe(address)
  })

  it('locking from the popup rejects the pending request; afterwards eth_accounts is [] and a signature request opens the login window', async () => {
    const { outcome, approval } = await requestWithApproval('personal_sign', [stringToHex('fourth'), address])
    await popup.bringToFront()
    await popup.getByRole('button', { name: 'Settings' }).click()
    await popup.getByRole('button', { name: 'Lock now' }).click()
    await popup.locator('#status[data-logged-in="false"]').waitFor()
    const result = await outcome
    expect(result).toMatchObject({ code: expect.any(Number) })
    expect([4001, 4100]).toContain((result as { code: number }).code)
    await expect.poll(() => approval.isClosed(), { timeout: 5_000 }).toBe(true)
    expect(await request('eth_accounts')).toEqual({ ok: [] })
    await expect.poll(() => accountsEvents()).toEqual([[address], []])
    // A connected site's signature request while locked opens Sigil's login window (not 4100 at once); closing it is a rejection.
    const loginOpened = ext.context.waitForEvent('page', { predicate: (p) => p.url().endsWith('/popup.html'), timeout: 15_000 })
    const afterLock = request('personal_sign', [stringToHex('after lock'), address])
    const login = await loginOpened
    await login.close()
    expect(await afterLock).toMatchObject({ code: 4001 })
  })
})
