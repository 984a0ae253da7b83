import type { Page } from 'playwright-core'
import { createPublicClient, type Hex, http, parseEther, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { transferCalldata } from '../../src/chains/erc20'
import { DEV_SOLANA_CAIP2, resolveNetworks } from '../../src/chains/networks'
import { DEV_FUNDER } from '../../src/devchain/evm'
import { type RunningDevChains, startDevChains } from '../../src/devchain/index'
import { DEV_FAUCET_ADDRESS } from '../../src/devchain/solana/runtime'
import { deployTestToken, sendFromDevFunder } from '../integration/helpers/devchain'
import { axeViolations } from './helpers/axe'
import { freePort } from '../integration/helpers/process'
import { startTestService, type TestService } from '../integration/helpers/service'
import { type LaunchedExtension, launchExtension } from './helpers/browser'
import { callBackground, configureService, loginByEmailOtp, openPopup, shot } from './helpers/wallet'
import { ERC20_ARTIFACT, ERC20_BALANCE_OF_ABI } from '../fixtures/contracts/erc20'

const EVM = 'eip155:31337'
/** A network whose node is down (nothing listens on its port). */
const OFFLINE = 'eip155:31338'
const BOB = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'
const SOL_BOB = 'GvZEwtCHZ7YtCkQCaLRVEXsyVvDTq8pVmKVYPpcmBS5Y'
const _artifact = ERC20_ARTIFACT
const ERC20 = ERC20_BALANCE_OF_ABI

let chains: RunningDevChains
let svc: TestService
let ext: LaunchedExtension
let page: Page
let token: Hex
let eth = ''
let sol = ''

const evm = () => createPublicClient({ transport: http(chains.evm.url) })
async function solBalance(address: string): Promise<bigint> {
  const res = await fetch(chains.solana.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getBalance', params: [address] }),
  })
  return BigInt(((await res.json()) as { result: { value: number } }).result.value)
}

/** The balance the accounts screen shows for `address` and `symbol` (atomic units), or null. */
const shownBalance = (address: string, symbol: string) =>
  page
    .locator(`li.account[data-address="${address}"] ul.balances li[data-symbol="${symbol}"]`)
    .getAttribute('data-balance', { timeout: 500 })
    .catch(() => null)

/** Fill the Send form, review, confirm, and wait for a terminal status; returns it. */
async function sendFromPopup(opts: { to: string; amount: string; asset?: string; review: string; status: string; form?: string }) {
  await page.getByRole('button', { name: 'Wallet', exact: true }).click()
  await page.getByRole('button', { name: 'Send', exact: true }).click()
  await page.getByLabel('Recipient').waitFor({ timeout: 20_000 })
  if (opts.asset) {
    const value = await page
      .getByLabel('Asset')
      .locator('option', { hasText: new RegExp(`^${opts.asset} `) })
      .getAttribute('value')
    await page.getByLabel('Asset').selectOption(value ?? '')
  }
  await page.getByLabel('Recipient').fill(opts.to)
  await page.getByLabel('Amount').fill(opts.amount)
  if (opts.form) await shot(page, opts.form)
  await page.getByRole('button', { name: 'Review' }).click()
  await page.getByRole('heading', { name: 'Review' }).waitFor({ timeout: 20_000 })
  await shot(page, opts.review)
  const review = {
    to: await page.locator('[data-field="to"]').textContent(),
    amount: await page.locator('[data-field="amount"]').textContent(),
    fee: await page.locator('[data-field="fee"]').textContent(),
    network: await page.locator('[data-field="network"]').textContent(),
  }
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await page.locator('#send-status[data-state="confirmed"], #send-status[data-state="failed"]').waitFor({ timeout: 30_000 })
  await shot(page, opts.status)
  const status = await page.locator('#send-status').getAttribute('data-state')
  const txHash = await page.locator('[data-field="tx-hash"]').textContent()
  await page.getByRole('button', { name: 'New send' }).click()
  return { review, status, txHash }
}

beforeAll(async () => {
  chains = await startDevChains({ evmPort: await freePort(), solanaPort: 0 })
  token = await deployTestToken(chains.evm.url)
  svc = await startTestService({
    networks: resolveNetworks(
      `${EVM}=${chains.evm.url},${DEV_SOLANA_CAIP2}=${chains.solana.url},${OFFLINE}=http://127.0.0.1:${await freePort()}`,
      `${EVM}=${token}:TST:18:Sigil Test Token`,
    ),
  })
  ext = await launchExtension()
  page = await openPopup(ext)
})

afterAll(async () => {
  await ext?.close()
  await svc?.stop()
  await chains?.close()
})

/** An address as History shortens it: its first 6 and last 4 characters. */
const short = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`

describe('send from the popup on the dev chains', () => {
  it('signs up, funds from the faucet and shows the balances on the selected network', async () => {
    await configureService(page, svc.url)
    await loginByEmailOtp(page, svc.url, `send-${Date.now()}@example.test`)
    const { result } = await callBackground(page, 'listAccounts')
    const accounts = result.wallets.flatMap((w: { accounts: Array<{ address: string; addressFormat: string }> }) => w.accounts)
    eth = accounts.find((a: { addressFormat: string }) => a.addressFormat === 'ADDRESS_FORMAT_ETHEREUM').address
    sol = accounts.find((a: { addressFormat: string }) => a.addressFormat === 'ADDRESS_FORMAT_SOLANA').address
    expect(await page.getByLabel('Network').inputValue()).toBe(EVM)
    await expect.poll(() => shownBalance(eth, 'ETH'), { timeout: 20_000 }).toBe('0')
    await page.getByRole('button', { name: `Fund from faucet ${eth}` }).click()
    await expect.poll(() => shownBalance(eth, 'ETH'), { timeout: 30_000 }).toBe(parseEther('1').toString())
    expect(await shownBalance(eth, 'TST')).toBe('0')
    expect(await page.locator(`li.account[data-address="${eth}"] ul.balances li[data-symbol="ETH"] .token-value`).textContent()).toBe(
      '1 ETH',
    )
    // the wallet home's total on the network and its assets
    expect(await page.locator('#wallet-total').textContent()).toBe('1 ETH')
    expect(await page.locator('ul.balances[aria-label="Assets"] li[data-symbol="ETH"] .token-value').textContent()).toBe('1 ETH')
    expect(await axeViolations(page)).toEqual([])
    await shot(page, 'popup-accounts-balances')
  })

  it('shows balances on a reopened popup (measured) and keeps the selected network', async () => {
    const t0 = Date.now()
    const again = await openPopup(ext)
    await again.locator(`li.account[data-address="${eth}"] ul.balances li[data-symbol="ETH"]`).waitFor({ timeout: 20_000 })
    const wall = Date.now() - t0
    const mark = await again.evaluate(() => performance.getEntriesByName('sigil-balances-shown')[0]?.startTime ?? -1)
    console.log(`[send e2e] popup open → balances shown: ${wall} ms wall, ${Math.round(mark)} ms after navigation start`)
    expect(mark).toBeGreaterThan(0)
    await again.close()
  })

  it('refuses a mistyped checksum, then sends ETH with a fee estimate and review, confirmed on chain', async () => {
    await page.getByRole('button', { name: 'Send', exact: true }).click()
    await page.getByLabel('Recipient').fill(BOB.replace('aA', 'Aa'))
    await page.getByLabel('Amount').fill('0.25')
    await page.getByRole('button', { name: 'Review' }).click()
    await expect.poll(() => page.locator('#recipient-error').textContent({ timeout: 2000 })).toMatch(/checksum/)
    await page.getByRole('button', { name: 'Wallet', exact: true }).click()
    const before = await evm().getBalance({ address: BOB })
    const sent = await sendFromPopup({
      to: BOB,
      amount: '0.25',
      form: 'popup-send',
      review: 'popup-send-review',
      status: 'popup-send-status',
    })
    expect(sent.status).toBe('confirmed')
    expect(sent.review).toMatchObject({ to: BOB, amount: '0.25 ETH', network: 'Sigil dev EVM' })
    expect(sent.review.fee).toMatch(/^\d+(\.\d+)? ETH/)
    expect((await evm().getBalance({ address: BOB })) - before).toBe(parseEther('0.25'))
    const receipt = await evm().getTransactionReceipt({ hash: sent.txHash as Hex })
    expect(receipt.from.toLowerCase()).toBe(eth.toLowerCase())
  })

  it('sends the ERC-20, confirmed; the recipient holds it on chain', async () => {
    await sendFromDevFunder(chains.evm.url, { to: token, data: transferCalldata(eth, parseUnits('100', 18)), gas: '0x100000' })
    await page.getByRole('button', { name: 'Wallet', exact: true }).click()
    await page.getByRole('button', { name: 'Refresh' }).click()
    await expect.poll(() => shownBalance(eth, 'TST'), { timeout: 20_000 }).toBe(parseUnits('100', 18).toString())
    const sent = await sendFromPopup({
      to: BOB,
      amount: '12.5',
      asset: 'TST',
      review: 'popup-send-review-erc20',
      status: 'popup-send-status-erc20',
    })
    expect(sent.status).toBe('confirmed')
    expect(sent.review.amount).toBe('12.5 TST')
    expect(await evm().readContract({ address: token, abi: ERC20, functionName: 'balanceOf', args: [BOB] })).toBe(parseUnits('12.5', 18))
  })

  it('switches to Solana, funds, sends SOL with the message fee, confirmed; the recipient holds it on chain', async () => {
    await page.getByLabel('Network').selectOption(DEV_SOLANA_CAIP2)
    await page.getByRole('button', { name: 'Wallet', exact: true }).click()
    await page.getByRole('button', { name: `Fund from faucet ${sol}` }).click()
    await expect.poll(() => shownBalance(sol, 'SOL'), { timeout: 30_000 }).toBe('1000000000')
    const sent = await sendFromPopup({ to: SOL_BOB, amount: '0.5', review: 'popup-send-review-sol', status: 'popup-send-status-sol' })
    expect(sent.status).toBe('confirmed')
    expect(sent.review).toMatchObject({ to: SOL_BOB, amount: '0.5 SOL', fee: '0.000005 SOL', network: 'Sigil dev Solana' })
    expect(await solBalance(SOL_BOB)).toBe(500_000_000n)
    const status = await callBackground(page, 'networks')
    expect(status.result.selected.caip2).toBe(DEV_SOLANA_CAIP2)
  })

  it('refuses 0.0001 SOL to a new address at review, under Amount, with the node’s rent minimum; nothing is signed', async () => {
    const fresh = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'
    const before = await solBalance(sol)
    await page.getByRole('button', { name: 'Wallet', exact: true }).click()
    await page.getByRole('button', { name: 'Send', exact: true }).click()
    await page.getByLabel('Recipient').waitFor({ timeout: 20_000 })
    await page.getByLabel('Recipient').fill(fresh)
    await page.getByLabel('Amount').fill('0.0001')
    await page.getByRole('button', { name: 'Review' }).click()
    const error = page.locator('.field-error')
    await error.waitFor({ timeout: 20_000 })
    expect(await error.textContent()).toBe('A new Solana account needs at least 0.00089088 SOL (rent exemption); send at least that much.')
    expect(await page.getByLabel('Amount').getAttribute('aria-invalid')).toBe('true')
    expect(await page.getByRole('heading', { name: 'Review' }).count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Confirm and send' }).count()).toBe(0)
    await shot(page, 'popup-send-sol-below-rent')
    expect(await axeViolations(page)).toEqual([])
    await page.emulateMedia({ colorScheme: 'dark' })
    await shot(page, 'popup-send-sol-below-rent-dark')
    expect(await axeViolations(page)).toEqual([])
    await page.emulateMedia({ colorScheme: 'light' })
    // Nothing reached the chain: the sender paid no fee and the address still holds nothing.
    expect(await solBalance(sol)).toBe(before)
    expect(await solBalance(fresh)).toBe(0n)
    // Editing the amount clears the refusal; the minimum itself goes on to Review.
    await page.getByLabel('Amount').fill('0.00089088')
    expect(await error.count()).toBe(0)
    await page.getByRole('button', { name: 'Review' }).click()
    await page.getByRole('heading', { name: 'Review' }).waitFor({ timeout: 20_000 })
    expect(await page.locator('[data-field="amount"]').textContent()).toBe('0.00089088 SOL')
    await page.getByRole('button', { name: 'Back' }).click()
  })

  it('lists the sends on the History screen with their statuses', async () => {
    await page.getByRole('button', { name: 'History' }).click()
    await page.locator('ul.tx-history li').first().waitFor({ timeout: 20_000 })
    expect(await page.locator('ul.tx-history li').first().getAttribute('data-status')).toMatch(/confirmed|finalized/)
    expect(await page.locator('ul.tx-history li .transfer').first().textContent()).toMatch(/^Sent 0\.5 SOL to /)
    // the one send, and what the faucet's airdrop brought in from the chain, as received
    expect(await page.locator('ul.tx-history li .transfer[data-direction="OUT"]').allTextContents()).toEqual([
      `Sent 0.5 SOL to ${short(SOL_BOB)}`,
    ])
    expect(await page.locator('ul.tx-history li .transfer[data-direction="IN"]').allTextContents()).toContain(
      `Received 1 SOL from ${short(DEV_FAUCET_ADDRESS)}`,
    )
    await page.getByLabel('Network').selectOption(EVM)
    await page.locator('ul.tx-history li .transfer[data-direction="OUT"]', { hasText: 'TST' }).waitFor({ timeout: 20_000 })
    // the account's two sends, and below them what funded it from the chain (the faucet), as received
    expect(await page.locator('ul.tx-history li .transfer[data-direction="OUT"]').allTextContents()).toEqual([
      expect.stringMatching(/^Sent 12\.5 TST to 0x/),
      expect.stringMatching(/^Sent 0\.25 ETH to 0x/),
    ])
    // newest first: the dev funder's 100 TST, then the faucet's 1 ETH (both sent by the dev funder, 0xf39F…2266)
    expect(await page.locator('ul.tx-history li .transfer[data-direction="IN"]').allTextContents()).toEqual([
      `Received 100 TST from ${short(DEV_FUNDER)}`,
      `Received 1 ETH from ${short(DEV_FUNDER)}`,
    ])
    expect(short(DEV_FUNDER)).toBe('0xf39F…2266')
    await shot(page, 'popup-history')
  })

  it('shows a clear error, and no balances, on a network whose node is down', async () => {
    await page.getByLabel('Network').selectOption(OFFLINE)
    await page.getByRole('button', { name: 'Wallet', exact: true }).click()
    const error = page.locator('#balances-error')
    await error.waitFor({ timeout: 30_000 })
    expect(await error.textContent()).toMatch(/^Balances unavailable: .*(node|reach|answer)/i)
    expect(await page.locator('ul.balances').count()).toBe(0)
    expect(await page.getByRole('button', { name: /from faucet/ }).count()).toBe(0)
    await shot(page, 'popup-accounts-node-down')
  })
})
