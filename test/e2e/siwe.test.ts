/**
 * Sign-In with Ethereum from a real dApp page: the page writes its EIP-4361 message with the
 * `siwe` package (domain = its host, uri = its origin, chainId = the wallet's chain, a fresh nonce),
 * asks for the signature with viem over Sigil's EIP-6963 provider, and verifies the answer with
 * `SiweMessage.verify`, as a site's backend would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startTestService, type TestService } from '../integration/helpers/service'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import { startPageServer, type PageServer } from './helpers/pageServer'
import { axeViolations } from './helpers/axe'
import { dappPage, overflowing } from './helpers/viemDapp'
import { configureService, loginByEmailOtp, openPopup, shot } from './helpers/wallet'
import { UNREACHABLE_MAINNET } from './helpers/networks'

type Outcome = { ok: unknown } | { code: number; message: string }
type Signed = { ok: { text: string; signature: string; verified: boolean } }

/** The dApp: EIP-6963 discovery, viem's wallet client, and the `siwe` package's messages and verification. */
const SIWE_DAPP = `
import { SiweMessage, generateNonce } from 'siwe'
import { createWalletClient, custom } from 'viem'
const found = []
window.addEventListener('eip6963:announceProvider', (e) => found.push(e.detail))
window.dispatchEvent(new Event('eip6963:requestProvider'))
const failure = (e) => {
  const coded = typeof e?.walk === 'function' ? e.walk((x) => typeof x?.code === 'number') : e
  return { code: coded?.code ?? e?.code, message: coded?.message ?? String(e) }
}
window.siwe = {
  ready() {
    const sigil = found.find((d) => d.info.name === 'Sigil')
    if (!sigil) return false
    window.wallet = createWalletClient({ transport: custom(sigil.provider) })
    return true
  },
  connect: () => window.wallet.requestAddresses().then((ok) => ({ ok }), failure),
  async signIn(address, over) {
    const chainId = await window.wallet.getChainId()
    const text = new SiweMessage({
      domain: location.host,
      address,
      statement: 'Sign in to the SIWE test dApp.',
      uri: location.origin,
      version: '1',
      chainId,
      nonce: generateNonce(),
      issuedAt: new Date().toISOString(),
      resources: ['https://docs.example/terms', 'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi'],
      ...over,
    }).prepareMessage()
    try {
      const signature = await window.wallet.signMessage({ account: address, message: text })
      const checked = await new SiweMessage(text).verify({ signature })
      return { ok: { text, signature, verified: checked.success } }
    } catch (e) {
      return failure(e)
    }
  },
}
`

describe('Sign-In with Ethereum (EIP-4361) through personal_sign (Chromium)', () => {
  let svc: TestService
  let ext: LaunchedExtension
  let pages: PageServer
  let dapp: Page
  let address = ''
  let host = ''

  /** Start a sign-in from the page (with `over` replacing fields of its message). */
  const signIn = (over: Record<string, unknown> = {}) =>
    dapp.evaluate(([a, o]) => (window as any).siwe.signIn(a, o) as Promise<Outcome>, [address, over] as const)

  /** Start `fn` and return our approval window once it shows the request. */
  async function approvalFor<T>(fn: () => Promise<T>): Promise<{ outcome: Promise<T>; approval: Page }> {
    const opened = ext.context.waitForEvent('page', { predicate: (p) => p.url().includes('/approval.html?id='), timeout: 20_000 })
    const outcome = fn()
    const approval = await opened
    await approval.locator('[data-testid="approval-origin"]').waitFor({ timeout: 20_000 })
    return { outcome, approval }
  }

  /** Light and dark screenshots of `page`, each checked with axe. */
  async function lightAndDark(page: Page, name: string) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await shot(page, `${name}-${scheme}`)
      expect(await axeViolations(page), `${name} (${scheme})`).toEqual([])
    }
    expect(await overflowing(page)).toEqual([])
  }

  /** The sign-in window's field rows as [label, value]. */
  const rowsOf = (approval: Page) =>
    approval
      .locator('[data-testid="signin-rows"] .field-row')
      .evaluateAll((rows) => rows.map((r) => [r.querySelector('dt')?.textContent, r.querySelector('dd')?.textContent]))

  beforeAll(async () => {
    svc = await startTestService({ networks: [UNREACHABLE_MAINNET] })
    ext = await launchExtension()
    pages = await startPageServer({ '/': await dappPage(SIWE_DAPP, 'SIWE dApp') })
    host = new URL(pages.origin).host
    const popup = await openPopup(ext)
    await configureService(popup, svc.url)
    await loginByEmailOtp(popup, svc.url, `siwe-${Date.now()}@example.test`)
    dapp = await ext.context.newPage()
    await dapp.goto(pages.url('/'))
    await dapp.waitForFunction(() => (window as any).siwe?.ready() === true)
    const { outcome, approval } = await approvalFor(() => dapp.evaluate(() => (window as any).siwe.connect() as Promise<Outcome>))
    await approval.getByRole('button', { name: 'Approve' }).click() // waits until it is enabled (armed)
    const connected = (await outcome) as { ok: string[] }
    address = connected.ok[0] ?? ''
  })

  afterAll(async () => {
    await ext?.close()
    await pages?.close()
    await svc?.stop()
  })

  it('shows "Sign in to <host>" with the statement, fields and resources; approved, SiweMessage.verify accepts the signature', async () => {
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)
    const { outcome, approval } = await approvalFor(() => signIn())
    expect(await approval.getByRole('heading', { level: 1 }).textContent()).toBe(`Sign in to ${host}`)
    expect(await approval.locator('[data-testid="approval-account"]').textContent()).toBe(address)
    expect(await approval.locator('[data-testid="signin-statement"]').textContent()).toBe('Sign in to the SIWE test dApp.')
    const rows = await rowsOf(approval)
    expect(rows.map(([k]) => k)).toEqual(['URI', 'Version', 'Chain ID', 'Nonce', 'Issued At'])
    expect(rows.slice(0, 3)).toEqual([
      ['URI', pages.origin],
      ['Version', '1'],
      ['Chain ID', '1'],
    ])
    expect(rows[3]?.[1]).toMatch(/^[a-zA-Z0-9]{8,}$/)
    expect(await approval.locator('[data-testid="signin-resources"] li').allTextContents()).toEqual([
      'https://docs.example/terms',
      'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
    ])
    expect(await approval.locator('[data-testid="signin-mismatch"]').count()).toBe(0)
    // the exact text signed, behind a disclosure
    await approval.locator('[data-testid="signin-text"] summary').click()
    expect(await approval.locator('[data-testid="signin-text"] pre').textContent()).toContain(
      `${host} wants you to sign in with your Ethereum account:\n${address}`,
    )
    await lightAndDark(approval, 'approval-siwe')
    const approve = approval.getByRole('button', { name: 'Approve' })
    await expect.poll(() => approve.isEnabled()).toBe(true)
    await approve.click()
    const signed = (await outcome) as Signed
    expect(signed.ok.verified).toBe(true)
    expect(signed.ok.signature).toMatch(/^0x[0-9a-f]{130}$/)
  })

  it('a message for another site: the blocking warning shows, Approve waits for the override, then the signature verifies', async () => {
    await dapp.waitForTimeout(200)
    const { outcome, approval } = await approvalFor(() => signIn({ domain: 'bank.example', uri: 'https://bank.example/login' }))
    expect(await approval.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in to bank.example')
    const panel = approval.locator('[data-testid="signin-mismatch"]')
    expect(await panel.isVisible()).toBe(true)
    expect(await panel.textContent()).toContain(
      `This site (${pages.origin}) is asking you to sign in to bank.example. It may be trying to steal your login there.`,
    )
    expect(await panel.textContent()).toContain('https://bank.example/login')
    expect(await approval.getByRole('alert').textContent()).toContain('It may be trying to steal your login there.') // announced
    const approve = approval.getByRole('button', { name: 'Approve' })
    await approval.waitForTimeout(1000) // well past the arm delay
    expect(await approve.isDisabled()).toBe(true)
    await lightAndDark(approval, 'approval-siwe-mismatch')
    await approval.getByLabel('I understand, sign in anyway').check()
    await expect.poll(() => approve.isEnabled()).toBe(true)
    await approve.click()
    const signed = (await outcome) as Signed
    expect(signed.ok.verified).toBe(true)
    expect(signed.ok.text.startsWith('bank.example wants you to sign in')).toBe(true)
  })

  it('an expired message is refused with -32602 naming expirationTime, and no window opens', async () => {
    await dapp.waitForTimeout(200)
    const windows: string[] = []
    const onPage = (p: Page) => windows.push(p.url())
    ext.context.on('page', onPage)
    const expired = new Date(Date.now() - 60_000).toISOString()
    const outcome = await signIn({ expirationTime: expired })
    expect(outcome).toMatchObject({ code: -32602 })
    expect((outcome as { message: string }).message).toContain(`Sign-in message: expirationTime ${expired} has passed`)
    await dapp.waitForTimeout(500)
    ext.context.off('page', onPage)
    expect(windows.filter((u) => u.includes('/approval.html'))).toEqual([])
  })
})
