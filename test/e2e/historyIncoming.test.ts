/**
 * History shows what came in from the chain (issue 36): on the real dev EVM chain, the faucet's
 * deposit (funded from the popup) and an ERC-20 transfer another account sends the user with a viem
 * wallet client appear on the History screen as "Received …" rows with amounts in units and the
 * sender shortened; an unrelated transfer does not. On the dev Solana runtime, the faucet's SOL
 * (an airdrop from the runtime's faucet key) and its dev USDC show as received. Light and dark,
 * axe clean.
 */
import type { Page } from 'playwright-core'
import { createWalletClient, getAddress, type Hex, http, parseUnits } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { transferCalldata } from '../../src/chains/erc20'
import { DEV_SOLANA_CAIP2, DEV_SOLANA_MINT, resolveNetworks } from '../../src/chains/networks'
import { DEV_FUNDER } from '../../src/devchain/evm'
import { DEV_FAUCET_ADDRESS } from '../../src/devchain/solana/runtime'
import { type RunningDevChains, startDevChains } from '../../src/devchain/index'
import { deployTestToken, sendFromDevFunder } from '../integration/helpers/devchain'
import { freePort } from '../integration/helpers/process'
import { startTestService, type TestService } from '../integration/helpers/service'
import { axeViolations } from './helpers/axe'
import { type LaunchedExtension, launchExtension } from './helpers/browser'
import { callBackground, configureService, loginByEmailOtp, openPopup, shot } from './helpers/wallet'

const EVM = 'eip155:31337'
/** Anvil's well-known account #1 (a public test key): another wallet that pays the user. */
const OTHER_KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'
const other = privateKeyToAccount(OTHER_KEY)
const STRANGER = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'

let chains: RunningDevChains
let svc: TestService
let ext: LaunchedExtension
let page: Page
let token: Hex
let eth = ''
let sol = ''

const short = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`

beforeAll(async () => {
  chains = await startDevChains({ evmPort: await freePort(), solanaPort: 0 })
  token = await deployTestToken(chains.evm.url, 'Sigil Test Token', 'TST')
  svc = await startTestService({
    networks: resolveNetworks(
      `${EVM}=${chains.evm.url},${DEV_SOLANA_CAIP2}=${chains.solana.url}`,
      `${EVM}=${token}:TST:18:Sigil Test Token`,
      {
        explorers: `${EVM}=https://explorer.example/tx/{tx}?chain=dev`,
      },
    ),
  })
  ext = await launchExtension()
  page = await openPopup(ext)
  await configureService(page, svc.url)
  await loginByEmailOtp(page, svc.url, `incoming-${Date.now()}@example.test`)
  const { result } = await callBackground(page, 'listAccounts')
  const accounts = result.wallets.flatMap((w: { accounts: Array<{ address: string; addressFormat: string }> }) => w.accounts)
  eth = accounts.find((a: { addressFormat: string }) => a.addressFormat === 'ADDRESS_FORMAT_ETHEREUM').address
  sol = accounts.find((a: { addressFormat: string }) => a.addressFormat === 'ADDRESS_FORMAT_SOLANA').address
}, 120_000)

afterAll(async () => {
  await ext?.close()
  await svc?.stop()
  await chains?.close()
})

describe('History: what came in from the chain', () => {
  it('lists the faucet deposit and an ERC-20 transfer from another account, in units, newest first', async () => {
    // the faucet, from the popup
    await page.getByRole('button', { name: `Fund from faucet ${eth}` }).click()
    await page
      .locator(`li.account[data-address="${eth}"] ul.balances li[data-symbol="ETH"]`, { hasText: '1 ETH' })
      .waitFor({ timeout: 30_000 })
    // another account holds TST and pays the user 12.5 with its own key (viem wallet client)
    await sendFromDevFunder(chains.evm.url, { gas: '0x300000', to: token, data: transferCalldata(other.address, parseUnits('100', 18)) })
    const wallet = createWalletClient({ account: other, transport: http(chains.evm.url) })
    const paid = await wallet.sendTransaction({
      chain: null,
      to: token,
      data: transferCalldata(eth, parseUnits('12.5', 18)) as Hex,
    })
    expect(paid).toMatch(/^0x[0-9a-f]{64}$/)
    // a transfer that does not involve the user
    await sendFromDevFunder(chains.evm.url, { to: STRANGER, value: '0x1' })

    await page.getByRole('navigation', { name: 'Wallet' }).getByRole('button', { name: 'History', exact: true }).click()
    const rows = page.locator('ul.tx-history li')
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh', exact: true }).click()
          return rows.count()
        },
        { timeout: 20_000 },
      )
      .toBe(2)
    expect(await page.locator('ul.tx-history li .transfer').allTextContents()).toEqual([
      `Received 12.5 TST from ${short(getAddress(other.address))}`,
      `Received 1 ETH from ${short(getAddress(DEV_FUNDER))}`,
    ])
    expect(await page.locator('ul.tx-history li .transfer[data-direction="IN"]').count()).toBe(2)
    expect(await rows.first().getAttribute('data-tx')).toBe(paid)
    expect(await rows.first().locator('.badge').textContent()).toBe('Confirmed')
    // the configured explorer's page of each transaction, opened in a new tab
    const link = rows.first().getByRole('link', { name: 'View on explorer' })
    expect(await link.getAttribute('href')).toBe(`https://explorer.example/tx/${paid}?chain=dev`)
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer')
    expect(await page.getByTestId('tx-explorer').count()).toBe(2)
    expect(await page.locator('ul.tx-history').textContent()).not.toContain(short(STRANGER))
    // the sender paid the network fee, not the user: received rows show none
    expect(await page.locator('ul.tx-history').textContent()).not.toMatch(/fee/)

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      expect(await axeViolations(page)).toEqual([])
      await shot(page, scheme === 'light' ? 'popup-history-incoming' : 'popup-history-incoming-dark')
    }
    await page.emulateMedia({ colorScheme: 'light' })
  }, 120_000)

  it('on Solana, lists the faucet’s SOL and dev USDC as received, from the faucet and the mint', async () => {
    await page.getByLabel('Network').selectOption(DEV_SOLANA_CAIP2)
    await page.getByRole('navigation', { name: 'Wallet' }).getByRole('button', { name: 'Wallet', exact: true }).click()
    await page.getByRole('button', { name: `Fund from faucet ${sol}` }).click()
    await page.getByText('Funded 1 SOL and 100 USDC').waitFor({ timeout: 30_000 })

    await page.getByRole('navigation', { name: 'Wallet' }).getByRole('button', { name: 'History', exact: true }).click()
    await page.getByRole('heading', { name: /^History on .*Solana/ }).waitFor({ timeout: 10_000 })
    const rows = page.locator('ul.tx-history li')
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh', exact: true }).click()
          return rows.count()
        },
        { timeout: 20_000 },
      )
      .toBe(2)
    expect(await page.locator('ul.tx-history li .transfer').allTextContents()).toEqual([
      `Received 100 USDC from ${short(DEV_SOLANA_MINT)}`,
      `Received 1 SOL from ${short(DEV_FAUCET_ADDRESS)}`,
    ])
    expect(await rows.first().locator('.badge').textContent()).toBe('Confirmed')
    // the faucet paid the fees
    expect(await page.locator('ul.tx-history').textContent()).not.toMatch(/fee/)

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      expect(await axeViolations(page)).toEqual([])
      await shot(page, scheme === 'light' ? 'popup-history-incoming-solana' : 'popup-history-incoming-solana-dark')
    }
    await page.emulateMedia({ colorScheme: 'light' })
  }, 120_000)
})
