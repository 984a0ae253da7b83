/**
 * SPL tokens in the popup, in a real Chromium against the service and the Solana dev runtime:
 * "Fund from faucet" on the dev Solana network gives SOL and 100 dev USDC, shown on the account;
 * Send of USDC to a new address reviews the creation of its token account (rent paid by the
 * sender), lands, and the recipient holds the tokens on chain; the account's balance updates.
 * Screens in light and dark, each axe clean.
 */
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_SOLANA_CAIP2, DEV_SOLANA_MINT, resolveNetworks } from '../../src/chains/networks'
import { associatedTokenAddress } from '../../src/chains/splToken'
import { type RunningSolanaRpc, startSolanaRpc } from '../../src/devchain/solana/server'
import { startTestService, type TestService } from '../integration/helpers/service'
import { axeViolations } from './helpers/axe'
import { type LaunchedExtension, launchExtension } from './helpers/browser'
import { callBackground, configureService, loginByEmailOtp, openPopup, shot } from './helpers/wallet'

/** A fresh address: it has no USDC account until the send creates one. */
const RECIPIENT = 'GvZEwtCHZ7YtCkQCaLRVEXsyVvDTq8pVmKVYPpcmBS5Y'

let chain: RunningSolanaRpc
let svc: TestService
let ext: LaunchedExtension
let page: Page
let sol = ''

async function node(method: string, params: unknown[]): Promise<any> {
  const res = await fetch(chain.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return ((await res.json()) as { result: unknown }).result
}

const shownBalance = (symbol: string) =>
  page
    .locator(`li.account[data-address="${sol}"] ul.balances li[data-symbol="${symbol}"]`)
    .getAttribute('data-balance', { timeout: 500 })
    .catch(() => null)

/** Screenshots of the page in light and dark, each checked with axe. */
async function shotBoth(name: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    expect(await axeViolations(page), `${name} ${colorScheme}`).toEqual([])
    await shot(page, `${name}-${colorScheme}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

beforeAll(async () => {
  chain = await startSolanaRpc({ port: 0 })
  svc = await startTestService({ networks: resolveNetworks(`${DEV_SOLANA_CAIP2}=${chain.url}`), devFaucet: true })
  ext = await launchExtension()
  page = await openPopup(ext)
})

afterAll(async () => {
  await ext?.close()
  await svc?.stop()
  await chain?.close()
})

describe('SPL tokens in the popup', () => {
  it('the faucet gives SOL and dev USDC, and the Solana account shows both', async () => {
    await configureService(page, svc.url)
    await loginByEmailOtp(page, svc.url, `spl-${Date.now()}@example.test`)
    const { result } = await callBackground(page, 'listAccounts')
    sol = result.wallets
      .flatMap((w: { accounts: Array<{ address: string; addressFormat: string }> }) => w.accounts)
      .find((a: { addressFormat: string }) => a.addressFormat === 'ADDRESS_FORMAT_SOLANA').address
    await page.getByLabel('Network').selectOption(DEV_SOLANA_CAIP2)
    await page.getByRole('button', { name: 'Wallet', exact: true }).click()
    await expect.poll(() => shownBalance('USDC'), { timeout: 20_000 }).toBe('0')
    await page.getByRole('button', { name: `Fund from faucet ${sol}` }).click()
    await expect.poll(() => shownBalance('USDC'), { timeout: 30_000 }).toBe('100000000')
    expect(await shownBalance('SOL')).toBe('1000000000')
    await page.getByText('Funded 1 SOL and 100 USDC').waitFor({ timeout: 10_000 })
    expect(await page.locator(`li.account[data-address="${sol}"] ul.balances li[data-symbol="USDC"] .token-value`).textContent()).toBe(
      '100 USDC',
    )
    await shotBoth('popup-solana-tokens')
  })

  it('Send of USDC to a new address: the form checks the amount in USDC, Review says it creates the recipient’s account, and it lands', async () => {
    await page.getByRole('button', { name: 'Send', exact: true }).click()
    await page.getByLabel('Recipient').waitFor({ timeout: 20_000 })
    const usdc = await page
      .getByLabel('Asset')
      .locator('option', { hasText: /^USDC / })
      .getAttribute('value')
    expect(usdc).toBe(DEV_SOLANA_MINT)
    await page.getByLabel('Asset').selectOption(usdc ?? '')
    await page.getByLabel('Recipient').fill(RECIPIENT)
    await page.getByLabel('Amount').fill('1.2345678')
    await page.getByRole('button', { name: 'Review' }).click()
    await expect.poll(() => page.locator('#amount-error').textContent({ timeout: 2000 })).toBe('At most 6 decimal places')
    await page.getByLabel('Amount').fill('100.5')
    await expect.poll(() => page.locator('#amount-error').textContent({ timeout: 2000 })).toBe('More than your balance of 100 USDC')
    await shotBoth('popup-send-spl-error')
    await page.getByLabel('Amount').fill('12.5')
    await page.getByRole('button', { name: 'Review' }).click()
    await page.getByRole('heading', { name: 'Review' }).waitFor({ timeout: 20_000 })
    expect(await page.locator('[data-field="amount"]').textContent()).toBe('12.5 USDC')
    expect(await page.locator('[data-field="fee"]').textContent()).toBe('0.000005 SOL')
    expect(await page.locator('[data-field="creates-account"]').textContent()).toBe(
      'Creates the recipient’s USDC account; you pay its rent of 0.00203928 SOL',
    )
    await shotBoth('popup-send-spl-review')
    await page.getByRole('button', { name: 'Confirm and send' }).click()
    await page.locator('#send-status[data-state="confirmed"], #send-status[data-state="failed"]').waitFor({ timeout: 30_000 })
    expect(await page.locator('#send-status').getAttribute('data-state')).toBe('confirmed')
    await shotBoth('popup-send-spl-status')
    const held = await node('getTokenAccountBalance', [associatedTokenAddress(RECIPIENT, DEV_SOLANA_MINT)])
    expect(held.value).toMatchObject({ amount: '12500000', uiAmountString: '12.5' })
    await page.getByRole('button', { name: 'New send' }).click()
    await page.getByRole('button', { name: 'Wallet', exact: true }).click()
    await expect.poll(() => shownBalance('USDC'), { timeout: 20_000 }).toBe('87500000')
  })
})
