/**
 * Tokens a user adds appear at once (issue 36), in Chromium against the built extension, the real
 * service and a dev EVM node (anvil): a wagmi page calls `watchAsset` for a dev ERC-20,
 * the user approves in our window, and the popup's home screen lists the token with its balance
 * read on chain; "Import token" by contract address reads the symbol and decimals on chain, refuses
 * an address that is not a token (naming the field), and the imported token shows on the home
 * screen too; an imported token is sent from the popup like the network's own (the recipient's
 * balance read on chain rises by the amount). Light and dark, axe clean.
 */
import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { type Abi, createPublicClient, encodeDeployData, erc20Abi, getAddress, type Hex, http, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveNetworks } from '../../src/chains/networks'
import { type RunningEvmNode, startEvmNode } from '../../src/devchain/evm'
import { sendFromDevFunder } from '../integration/helpers/devchain'
import { freePort } from '../integration/helpers/process'
import { startTestService, type TestService } from '../integration/helpers/service'
import { axeViolations } from './helpers/axe'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import { startPageServer, type PageServer } from './helpers/pageServer'
import { awaitApproval, DAPP_SOURCE, dappPage } from './helpers/viemDapp'
import { configureService, loginByEmailOtp, openPopup, shot } from './helpers/wallet'

const TOKEN = JSON.parse(readFileSync(new URL('../fixtures/contracts/TestToken.json', import.meta.url), 'utf8')) as {
  TestToken: { abi: Abi; bytecode: Hex }
}

/** The viem dApp, with EIP-747 through wagmi's `watchAsset` action (Sigil found by wagmi's EIP-6963 connector). */
const SOURCE = `${DAPP_SOURCE}
import { connect, createConfig, http as wagmiHttp, watchAsset } from '@wagmi/core'
import { defineChain } from 'viem'
const dev = defineChain({ id: window.__chain.id, name: 'Sigil dev EVM', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [window.__chain.url] } } })
const config = createConfig({ chains: [dev], transports: { [dev.id]: wagmiHttp(window.__chain.url) } })
window.dapp.watchAsset = (options) =>
  outcome(
    connect(config, { connector: config.connectors.find((c) => c.name === 'Sigil') })
      .catch(() => null)
      .then(() => watchAsset(config, { type: 'ERC20', options })),
  )
`

describe('watched and imported tokens on the home screen (Chromium, real service, dev EVM node)', () => {
  let node: RunningEvmNode
  let svc: TestService
  let ext: LaunchedExtension
  let pages: PageServer
  let dapp: Page
  let popup: Page
  let address: `0x${string}`
  let wtk: `0x${string}`
  let itk: `0x${string}`
  const page = <T>(fn: (...a: any[]) => Promise<T>, ...args: unknown[]) => dapp.evaluate(fn as any, args) as Promise<T>
  const row = (symbol: string) => popup.locator(`ul.balances li[data-symbol="${symbol}"]`).first()

  beforeAll(async () => {
    node = await startEvmNode({ port: await freePort() })
    svc = await startTestService({ networks: resolveNetworks(`eip155:31337=${node.url}`) })
    pages = await startPageServer({ '/': await dappPage(SOURCE, 'Token dApp', { __chain: { id: 31337, url: node.url } }) })
    ext = await launchExtension()
    popup = await openPopup(ext)
    await configureService(popup, svc.url)
    await loginByEmailOtp(popup, svc.url, `watch-asset-${Date.now()}@example.test`)
    dapp = await ext.context.newPage()
    await dapp.goto(pages.url('/'))
    await dapp.waitForFunction(() => typeof (window as any).dapp?.ready() === 'string')
    const { outcome, approval } = await awaitApproval(ext, () => page(() => (window as any).dapp.requestAccounts()))
    await approval.getByRole('button', { name: 'Approve' }).click()
    address = getAddress(((await outcome) as { ok: string[] }).ok[0] as string)
    const token = async (name: string, symbol: string, decimals: number, amount: string) =>
      getAddress(
        (
          await sendFromDevFunder(node.url, {
            data: encodeDeployData({
              abi: TOKEN.TestToken.abi,
              bytecode: TOKEN.TestToken.bytecode,
              args: [name, symbol, decimals, parseUnits(amount, decimals), address],
            }),
            gas: '0x300000',
          })
        ).contractAddress as string,
      ) as `0x${string}`
    wtk = await token('Watch Token', 'WTK', 18, '1234.5')
    itk = await token('Import Token', 'ITK', 6, '42.25')
  }, 180_000)

  afterAll(async () => {
    await ext?.close()
    await pages?.close()
    await svc?.stop()
    await node?.close()
  })

  it('a token added with wallet_watchAsset from a wagmi page shows on the home screen with its balance', async () => {
    let early: unknown
    const { outcome, approval } = await awaitApproval(ext, () => {
      const p = page(([a]) => (window as any).dapp.watchAsset({ address: a, symbol: 'WTK', decimals: 18 }), wtk)
      void p.then((o) => {
        early = o
      })
      return p
    }).catch((e: unknown) => {
      throw new Error(`no approval window; the page got ${JSON.stringify(early)}: ${String(e)}`)
    })
    expect(await approval.locator('body').textContent()).toContain('WTK')
    await approval.getByRole('button', { name: 'Approve' }).click()
    expect(await outcome).toEqual({ ok: true })
    await popup.getByRole('button', { name: 'Refresh' }).click()
    await expect.poll(() => row('WTK').getAttribute('data-balance'), { timeout: 20_000 }).toBe(parseUnits('1234.5', 18).toString())
    expect(await row('WTK').locator('.amount').textContent()).toBe('1234.5')
    expect(await popup.locator('ul.balances li[data-symbol="ITK"]').count()).toBe(0)
    expect(await axeViolations(popup)).toEqual([])
    await shot(popup, 'popup-home-watched-token')
    await popup.emulateMedia({ colorScheme: 'dark' })
    expect(await axeViolations(popup), 'dark').toEqual([])
    await shot(popup, 'popup-home-watched-token-dark')
    await popup.emulateMedia({ colorScheme: 'light' })
  })

  it('Import token reads symbol and decimals on chain, refuses a non-token naming the field, and the token shows at once', async () => {
    await popup.getByRole('button', { name: 'Import token' }).click()
    await popup.getByRole('heading', { name: /Import token on/ }).waitFor()
    const input = popup.getByLabel('Token contract address')
    // An account, not a contract: refused under the field, nothing stored.
    await input.fill(address)
    await popup.getByRole('button', { name: 'Find token' }).click()
    const fieldError = popup.locator('.field-error')
    await fieldError.waitFor({ timeout: 15_000 })
    expect(await fieldError.textContent()).toMatch(
      new RegExp(`^${address.toLowerCase()} is not an ERC-20 token on .+ \\(it has no decimals and symbol\\)$`),
    )
    await input.fill(itk)
    await popup.getByRole('button', { name: 'Find token' }).click()
    const preview = popup.getByTestId('token-preview')
    await preview.waitFor({ timeout: 15_000 })
    expect(await preview.locator('[data-field="symbol"]').textContent()).toBe('ITK')
    expect(await preview.locator('[data-field="decimals"]').textContent()).toBe('6')
    expect(await preview.locator('[data-field="contract"]').textContent()).toBe(itk.toLowerCase())
    for (const colorScheme of ['light', 'dark'] as const) {
      await popup.emulateMedia({ colorScheme })
      expect(await axeViolations(popup), colorScheme).toEqual([])
      await shot(popup, colorScheme === 'light' ? 'popup-import-token' : 'popup-import-token-dark')
    }
    await popup.emulateMedia({ colorScheme: 'light' })
    await popup.getByRole('button', { name: 'Import ITK' }).click()
    await expect.poll(() => row('ITK').getAttribute('data-balance'), { timeout: 20_000 }).toBe('42250000')
    expect(await row('ITK').locator('.amount').textContent()).toBe('42.25')
    expect(await row('WTK').getAttribute('data-balance')).toBe(parseUnits('1234.5', 18).toString())
  })

  it('an imported token is sent from the popup: reviewed in its units, confirmed, and the recipient holds it on chain', async () => {
    const bob = getAddress(`0x${'b0'.repeat(20)}`)
    await popup.getByRole('button', { name: `Fund from faucet ${address}` }).click()
    await expect.poll(() => row('ETH').getAttribute('data-balance'), { timeout: 30_000 }).not.toBe('0')
    await popup.getByRole('button', { name: 'Send', exact: true }).first().click()
    await popup.getByLabel('Recipient').waitFor({ timeout: 20_000 })
    const option = await popup.getByLabel('Asset').locator('option', { hasText: /^ITK / }).getAttribute('value')
    await popup.getByLabel('Asset').selectOption(option ?? '')
    await popup.getByLabel('Recipient').fill(bob)
    await popup.getByLabel('Amount').fill('0.25')
    await popup.getByRole('button', { name: 'Review' }).click()
    await popup.getByRole('heading', { name: 'Review' }).waitFor({ timeout: 20_000 })
    expect(await popup.locator('[data-field="amount"]').textContent()).toContain('0.25 ITK')
    expect(await popup.locator('[data-field="fee"]').textContent()).toMatch(/ETH/)
    await popup.getByRole('button', { name: 'Confirm and send' }).click()
    await popup.locator('#send-status[data-state="confirmed"], #send-status[data-state="failed"]').waitFor({ timeout: 30_000 })
    expect(await popup.locator('#send-status').getAttribute('data-state')).toBe('confirmed')
    const chain = createPublicClient({ transport: http(node.url) })
    expect(await chain.readContract({ address: itk, abi: erc20Abi, functionName: 'balanceOf', args: [bob] })).toBe(250_000n)
    expect(await chain.readContract({ address: itk, abi: erc20Abi, functionName: 'balanceOf', args: [address] })).toBe(42_000_000n)
  })
})
