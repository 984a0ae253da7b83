/**
 * Wallets through the popup in a real Chromium against the real service: accounts grouped per
 * path index (Ethereum and Solana together), a seed phrase imported (checked before anything is
 * sent) yields its published addresses, a private key imported shows as an account of its own and
 * sends on the dev chain, the
 * wallet's export shows the same phrase after a warning, a new wallet gets its first two addresses,
 * and an account added, renamed and hidden
 * keeps its name in Send and History. Each new screen light and dark, axe clean.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { deriveAccount } from '../../src/chains/derive'
import { mnemonicToSeed } from '../../src/chains/mnemonic'
import { DEV_SOLANA_CAIP2, resolveNetworks } from '../../src/chains/networks'
import { type RunningDevChains, startDevChains } from '../../src/devchain/index'
import { freePort } from '../integration/helpers/process'
import { startTestService, type TestService } from '../integration/helpers/service'
import { axeViolations } from './helpers/axe'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import { callBackground, configureService, loginByEmailOtp, openPopup, shot } from './helpers/wallet'

const ABANDON = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'
/** Index 0 of the phrase on m/44'/60'/0'/0/0 (the BIP-39 test phrase's published Ethereum address). */
const ABANDON_EVM0 = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94'
/** Index 0 on m/44'/501'/0'/0' (Phantom's path), as wallets that use it show it. */
const ABANDON_SOL0 = 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk'
/** Hardhat's first dev key and its address. */
const HARDHAT0_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
const HARDHAT0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const BOB = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'

/** Screenshot light and dark, each axe clean. */
async function both(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    expect(await axeViolations(page)).toEqual([])
    await shot(page, `${name}-${scheme}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

describe('wallets: grouped accounts, import a seed phrase and a key, export, names everywhere', () => {
  let svc: TestService
  let chains: RunningDevChains
  const chainUrl = () => chains.evm.url
  const solBalance = async (address: string): Promise<number> => {
    const r = await fetch(chains.solana.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getBalance', params: [address, { commitment: 'confirmed' }] }),
    })
    return ((await r.json()) as { result: { value: number } }).result.value
  }
  let ext: LaunchedExtension
  let page: Page
  const email = `wallets-${Date.now()}@example.test`

  beforeAll(async () => {
    chains = await startDevChains({ evmPort: await freePort(), solanaPort: 0 })
    svc = await startTestService({
      networks: resolveNetworks(`eip155:31337=${chains.evm.url},${DEV_SOLANA_CAIP2}=${chains.solana.url}`),
    })
    ext = await launchExtension()
    page = await openPopup(ext)
    await configureService(page, svc.url)
    await loginByEmailOtp(page, svc.url, email)
    await page.locator('li.account-group').first().waitFor({ timeout: 20_000 })
  }, 60_000)

  afterAll(async () => {
    await ext?.close()
    await svc?.stop()
    await chains?.close()
  })

  it('groups the sign-up wallet: Account 1 with its Ethereum and Solana addresses; Bitcoin view only, without Receive', async () => {
    const groups = page.locator('li.account-group')
    expect(await groups.count()).toBe(1)
    const first = groups.first()
    expect(await first.getAttribute('aria-label')).toBe('Account 1')
    expect(await first.locator('li.account').evaluateAll((els) => els.map((e) => e.getAttribute('data-format')))).toEqual([
      'ADDRESS_FORMAT_ETHEREUM',
      'ADDRESS_FORMAT_SOLANA',
    ])
    expect(await page.locator('li.account[data-format^="ADDRESS_FORMAT_BITCOIN"]').count()).toBe(0)
    const other = page.locator('details.other-addresses')
    await other.locator('summary').click()
    expect(await other.textContent()).toMatch(/bc1q[0-9a-z]+/)
    expect(await other.getByRole('button', { name: /Receive/ }).count()).toBe(0)
    await both(page, 'wallet-groups')
  })

  it('refuses a phrase with a bad checksum before sending it, then imports the known phrase to its known addresses', async () => {
    const derived = deriveAccount({
      seed: mnemonicToSeed(ABANDON),
      curve: 'CURVE_ED25519',
      path: "m/44'/501'/0'/0'",
      addressFormat: 'ADDRESS_FORMAT_SOLANA',
    })
    expect(derived.address).toBe(ABANDON_SOL0)
    await page.getByRole('button', { name: 'Add wallet' }).click()
    await page.getByRole('heading', { name: 'Add wallet' }).waitFor()
    await both(page, 'wallet-add-create')
    await page.getByRole('button', { name: 'Import seed phrase' }).click()
    await page.getByLabel('Wallet name').fill('Abandon')
    const requests: string[] = []
    page.on('request', (r) => requests.push(r.url()))
    await page.getByLabel('Seed phrase').fill('abandon '.repeat(12).trim())
    await page.getByRole('button', { name: 'Import', exact: true }).click()
    await page.getByText('The words do not form a valid seed phrase: check their spelling and order.').waitFor()
    expect(requests).toEqual([])
    await both(page, 'wallet-add-phrase-error')
    await page.getByLabel('Seed phrase').fill(ABANDON)
    await page.getByRole('button', { name: 'Import', exact: true }).click()
    const wallet = page.getByRole('region', { name: 'Wallet Abandon' })
    await wallet.waitFor({ timeout: 20_000 }).catch(async (e) => {
      console.log('DEBUG', await page.locator('main').innerText())
      throw e
    })
    const imported = wallet.locator('li.account-group').first()
    expect(await imported.getAttribute('aria-label')).toBe('Account 2')
    expect(await imported.locator('li.account').evaluateAll((els) => els.map((e) => e.getAttribute('data-address')))).toEqual([
      ABANDON_EVM0,
      ABANDON_SOL0,
    ])
  })

  it('imports a private key as an account of its own, and sends from it', async () => {
    await page.getByRole('button', { name: 'Add wallet' }).click()
    await page.getByRole('button', { name: 'Import private key' }).click()
    await page.getByLabel('Account name').fill('Hardhat')
    await page.getByLabel(/^Private key/).fill(HARDHAT0_KEY)
    await both(page, 'wallet-add-key')
    await page.getByRole('button', { name: 'Import', exact: true }).click()
    const section = page.getByRole('region', { name: 'Wallet Imported accounts' })
    await section.waitFor({ timeout: 20_000 })
    expect(await section.locator('li.account').getAttribute('data-address')).toBe(HARDHAT0)
    expect(await section.locator('li.account-group').getAttribute('aria-label')).toBe('Account 3')
    // funded by the dev faucet, it sends like any account: signed by the key service, broadcast, confirmed
    await section.getByRole('button', { name: `Fund from faucet ${HARDHAT0}` }).click()
    await section.locator('ul.balances li[data-symbol="ETH"]').waitFor({ timeout: 20_000 })
    await expect
      .poll(() => section.locator('ul.balances li[data-symbol="ETH"]').getAttribute('data-balance'), { timeout: 20_000 })
      .not.toBe('0')
    await section.getByRole('button', { name: `Send from ${HARDHAT0}` }).click()
    await page.getByLabel(/^Recipient/).fill(BOB)
    await page.getByLabel('Amount').fill('0.5')
    await page.getByRole('button', { name: 'Review' }).click()
    await page.getByRole('heading', { name: 'Review' }).waitFor({ timeout: 20_000 })
    expect(await page.locator('[data-field="from"]').textContent()).toBe(`Account 3 ${HARDHAT0}`)
    await page.getByRole('button', { name: 'Confirm and send' }).click()
    await page.locator('#send-status[data-state="confirmed"], #send-status[data-state="failed"]').waitFor({ timeout: 30_000 })
    expect(await page.locator('#send-status').getAttribute('data-state')).toBe('confirmed')
    const txHash = (await page.locator('[data-field="tx-hash"]').textContent()) ?? ''
    const receipt = await (
      await fetch(chainUrl(), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getTransactionByHash', params: [txHash] }),
      })
    ).json()
    expect([receipt.result.from.toLowerCase(), receipt.result.to.toLowerCase(), BigInt(receipt.result.value)]).toEqual([
      HARDHAT0.toLowerCase(),
      BOB.toLowerCase(),
      500_000_000_000_000_000n,
    ])
    await page.getByRole('button', { name: 'Wallet', exact: true }).click()
  })

  it('imports a Solana key (base58 secret key) and sends SOL from it on the dev runtime', async () => {
    const seed = new Uint8Array(32).fill(9)
    const secret = base58.encode(new Uint8Array([...seed, ...ed25519.getPublicKey(seed)]))
    const address = base58.encode(ed25519.getPublicKey(seed))
    await page.getByRole('button', { name: 'Add wallet' }).click()
    await page.getByRole('button', { name: 'Import private key' }).click()
    await page.getByLabel('Chain of the key').selectOption('ADDRESS_FORMAT_SOLANA')
    await page.getByLabel('Account name').fill('Phantom key')
    await page.getByLabel(/^Private key/).fill(secret)
    await page.getByRole('button', { name: 'Import', exact: true }).click()
    const row = page.locator(`li.account[data-address="${address}"]`)
    await row.waitFor({ timeout: 20_000 })
    await page.getByLabel('Network').selectOption(DEV_SOLANA_CAIP2)
    await row.getByRole('button', { name: `Fund from faucet ${address}` }).click()
    await expect
      .poll(() => row.locator('ul.balances li[data-symbol="SOL"]').getAttribute('data-balance'), { timeout: 20_000 })
      .not.toBe('0')
    const account1 = (await callBackground(page, 'accountBook')).result.groups[0].addresses[1].address as string
    const before = await solBalance(account1)
    await row.getByRole('button', { name: `Send from ${address}` }).click()
    await page.getByLabel(/^Recipient/).fill(account1)
    await page.getByLabel('Amount').fill('0.25')
    await page.getByRole('button', { name: 'Review' }).click()
    await page.getByRole('heading', { name: 'Review' }).waitFor({ timeout: 20_000 })
    expect(await page.locator('[data-field="to"]').textContent()).toBe(`Account 1 ${account1}`)
    await page.getByRole('button', { name: 'Confirm and send' }).click()
    await page.locator('#send-status[data-state="confirmed"], #send-status[data-state="failed"]').waitFor({ timeout: 30_000 })
    expect(await page.locator('#send-status').getAttribute('data-state')).toBe('confirmed')
    expect((await solBalance(account1)) - before).toBe(250_000_000)
    await page.getByLabel('Network').selectOption('eip155:31337')
    await page.getByRole('button', { name: 'Wallet', exact: true }).click()
  })

  it('exports the imported wallet: a warning first, masked until Reveal, the same phrase, gone after Done', async () => {
    await page.getByRole('button', { name: 'Export seed phrase of Abandon' }).click()
    await page.getByRole('heading', { name: 'Export seed phrase' }).waitFor()
    expect(await page.getByRole('note').textContent()).toContain('Anyone with this seed phrase can take your funds.')
    await both(page, 'wallet-export-warning')
    await page.getByRole('button', { name: 'I understand, export' }).click()
    const secret = page.getByTestId('secret')
    await secret.waitFor({ timeout: 20_000 })
    expect(await secret.textContent()).not.toContain('abandon')
    await both(page, 'wallet-export-masked')
    await page.getByRole('button', { name: 'Reveal' }).click()
    expect(await secret.textContent()).toBe(ABANDON)
    await page.getByRole('button', { name: 'Done' }).click()
    await page.locator('li.account-group').first().waitFor()
    expect(await page.content()).not.toContain('abandon abandon')
  })

  it('creates a wallet with its first Ethereum and Solana addresses, numbered after the others', async () => {
    await page.getByRole('button', { name: 'Add wallet' }).click()
    await page.getByLabel('Wallet name').fill('Spending')
    await page.getByRole('button', { name: 'Create wallet' }).click()
    const wallet = page.getByRole('region', { name: 'Wallet Spending' })
    await wallet.waitFor({ timeout: 20_000 })
    const group = wallet.locator('li.account-group')
    expect(await group.getAttribute('aria-label')).toBe('Account 5')
    expect(await group.locator('li.account').evaluateAll((els) => els.map((e) => e.getAttribute('data-format')))).toEqual([
      'ADDRESS_FORMAT_ETHEREUM',
      'ADDRESS_FORMAT_SOLANA',
    ])
  })

  it('adds, renames and hides an account; the name shows in Send and History', async () => {
    const first = page.getByRole('region', { name: 'Wallet Default Wallet' })
    await first.getByRole('button', { name: /^Add account/ }).click()
    await page.getByText(/^Added an account: 0x/).waitFor({ timeout: 20_000 })
    const added = first.locator('li.account-group').nth(1)
    await expect.poll(() => added.getAttribute('aria-label')).toBe('Account 6')
    expect(await added.locator('li.account').count()).toBe(2)
    await added.getByRole('button', { name: 'More for Account 6' }).click()
    await added.getByRole('button', { name: 'Rename Account 6' }).click()
    await page.getByLabel('Name of Account 6').fill('Trading')
    await page.getByRole('button', { name: 'Save name' }).click()
    await expect.poll(() => added.getAttribute('aria-label')).toBe('Trading')
    const evm = (await added.locator('li.account[data-format="ADDRESS_FORMAT_ETHEREUM"]').getAttribute('data-address')) ?? ''

    // Send: from names the account; History names it too
    await added.getByRole('button', { name: `Send from ${evm}` }).click()
    await page.getByRole('heading', { name: 'Send' }).waitFor()
    const from = page.getByLabel('From')
    await expect
      .poll(() => from.evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent ?? ''), { timeout: 20_000 })
      .toBe(`Trading · ${evm}`)
    // a recipient that is one of the user's accounts goes by its name
    const account1 = (await callBackground(page, 'accountBook')).result.groups[0].addresses[0].address as string
    await page.getByLabel(/^Recipient/).fill(account1)
    expect(await page.locator('#recipient-name').textContent()).toBe('Your account Account 1')
    await both(page, 'wallet-send-named')
    await page.getByRole('button', { name: 'History' }).click()
    await page.getByRole('heading', { name: 'History' }).waitFor()
    const account = page.getByRole('combobox', { name: /^Account/ })
    await expect
      .poll(() => account.evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent ?? ''), { timeout: 10_000 })
      .toBe(`Trading · ${evm.slice(0, 6)}…${evm.slice(-4)}`)
    await both(page, 'wallet-history-named')

    // hide: out of the list until "Show hidden"
    await page.getByRole('button', { name: 'Wallet', exact: true }).click()
    const again = page.locator('li.account-group[aria-label="Trading"]')
    await again.getByRole('button', { name: 'More for Trading' }).click()
    await again.getByRole('button', { name: 'Hide Trading' }).click()
    await expect.poll(() => page.locator('li.account-group[aria-label="Trading"]').count()).toBe(0)
    await page.getByLabel(/Show hidden \(1\)/).check()
    await expect.poll(() => page.locator('li.account-group.hidden-group[aria-label="Trading"]').count()).toBe(1)
    await both(page, 'wallet-hidden-shown')
  })
})
