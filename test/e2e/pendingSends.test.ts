/**
 * Pending sends in the popup on the real dev chains: with mining paused on the dev EVM chain, a send
 * from the Send screen waits in History's "Not on chain yet" with Speed up and Cancel; Speed up
 * reviews the new most fee, the replacement is mined once mining resumes and the original reads
 * Replaced in History and Activity alike. A Solana send the network refuses reads Failed with the
 * reason in Activity, never Done. Screens in light and dark, axe clean.
 */
import type { Page } from 'playwright-core'
import { createPublicClient, type Hex, http, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonRpcRequest } from '../../src/chains/jsonRpc'
import { DEV_SOLANA_CAIP2, resolveNetworks } from '../../src/chains/networks'
import { type RunningDevChains, startDevChains } from '../../src/devchain/index'
import { freePort } from '../integration/helpers/process'
import { startTestService, type TestService } from '../integration/helpers/service'
import { axeViolations } from './helpers/axe'
import { type LaunchedExtension, launchExtension } from './helpers/browser'
import { callBackground, configureService, loginByEmailOtp, openPopup, shot } from './helpers/wallet'

const EVM = 'eip155:31337'
const BOB = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'
const SOL_BOB = 'GvZEwtCHZ7YtCkQCaLRVEXsyVvDTq8pVmKVYPpcmBS5Y'

let chains: RunningDevChains
let svc: TestService
let ext: LaunchedExtension
let page: Page
let eth = ''
let sol = ''

const evm = () => createPublicClient({ transport: http(chains.evm.url) })
const node = <T>(method: string, params: unknown[] = []) => jsonRpcRequest<T>(chains.evm.url, method, params)

/** A tab of the popup's navigation. */
const tab = (name: string) => page.getByRole('navigation', { name: 'Wallet' }).getByRole('button', { name, exact: true })

/** Both themes, each axe clean. */
async function shots(name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    expect(await axeViolations(page)).toEqual([])
    await shot(page, `${name}-${scheme}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

beforeAll(async () => {
  chains = await startDevChains({ evmPort: await freePort(), solanaPort: 0 })
  svc = await startTestService({ networks: resolveNetworks(`${EVM}=${chains.evm.url},${DEV_SOLANA_CAIP2}=${chains.solana.url}`) })
  ext = await launchExtension()
  page = await openPopup(ext)
  await configureService(page, svc.url)
  await loginByEmailOtp(page, svc.url, `pending-${Date.now()}@example.test`)
  const { result } = await callBackground(page, 'listAccounts')
  const accounts = result.wallets.flatMap((w: { accounts: Array<{ address: string; addressFormat: string }> }) => w.accounts)
  eth = accounts.find((a: { addressFormat: string }) => a.addressFormat === 'ADDRESS_FORMAT_ETHEREUM').address
  sol = accounts.find((a: { addressFormat: string }) => a.addressFormat === 'ADDRESS_FORMAT_SOLANA').address
  expect((await svc.post('/dev/faucet', { caip2: EVM, address: eth, amount: '1' }, null)).status).toBe(200)
  expect((await svc.post('/dev/faucet', { caip2: DEV_SOLANA_CAIP2, address: sol, amount: '1' }, null)).status).toBe(200)
}, 120_000)

afterAll(async () => {
  await node('evm_setAutomine', [true]).catch(() => undefined)
  await ext?.close()
  await svc?.stop()
  await chains?.close()
})

describe('pending sends: speed up and cancel, Activity and History agree', () => {
  it('speed-up replaces a pending transaction (mining paused on the dev chain)', async () => {
    await node('evm_setAutomine', [false])
    await tab('Wallet').click()
    await page.getByRole('button', { name: 'Send', exact: true }).click()
    await page.getByLabel('Recipient').waitFor({ timeout: 20_000 })
    await page.getByLabel('Recipient').fill(BOB)
    await page.getByLabel('Amount').fill('0.1')
    await page.getByRole('button', { name: 'Review' }).click()
    await page.getByRole('heading', { name: 'Review' }).waitFor({ timeout: 20_000 })
    await page.getByRole('button', { name: 'Confirm and send' }).click()
    await page.locator('#send-status[data-state="pending"]').waitFor({ timeout: 20_000 })
    // the original reached the node's pool
    const pendingHash = async () =>
      (await callBackground(page, 'listActivities')).result.activities.find((a: any) => a.send?.state === 'pending')?.send.txHash
    await expect.poll(pendingHash, { timeout: 20_000 }).toMatch(/^0x[0-9a-f]{64}$/)
    const originalHash = (await pendingHash()) as Hex
    const original = await evm().getTransaction({ hash: originalHash })

    await tab('History').click()
    const row = page.locator('.pending-sends li[data-send-state="pending"]')
    await row.waitFor({ timeout: 20_000 })
    expect(await row.locator('.badge').textContent()).toBe('Pending')
    expect(await row.getByRole('button', { name: /^Cancel: / }).count()).toBe(1)
    await shots('popup-pending-sends')

    await row.getByRole('button', { name: /^Speed up: / }).click()
    await page.getByRole('heading', { name: 'Speed up this transaction' }).waitFor({ timeout: 20_000 })
    expect(await page.locator('#replace-max-fee').textContent()).toMatch(/^at most \d[\d.]* ETH$/)
    await shots('popup-speed-up-review')
    await page.getByRole('button', { name: 'Confirm speed up' }).click()
    await page.getByRole('status').filter({ hasText: 'Sped up' }).waitFor({ timeout: 20_000 })

    // the replacement (same nonce, higher fees) took the original's place in the pool; then mine it
    const replacementHash = async () => {
      const { activities } = (await callBackground(page, 'listActivities')).result
      return activities.find((a: any) => a.send?.txHash && a.send.txHash !== originalHash && a.send.caip2 === EVM)?.send.txHash
    }
    await expect.poll(replacementHash, { timeout: 20_000 }).toMatch(/^0x[0-9a-f]{64}$/)
    const fasterHash = (await replacementHash()) as Hex
    await expect
      .poll(
        () =>
          evm()
            .getTransaction({ hash: fasterHash })
            .then(
              () => true,
              () => false,
            ),
        { timeout: 20_000 },
      )
      .toBe(true)
    const faster = await evm().getTransaction({ hash: fasterHash })
    expect(faster.nonce).toBe(original.nonce)
    expect(faster.maxFeePerGas).toBeGreaterThanOrEqual(((original.maxFeePerGas as bigint) * 11n) / 10n)
    expect(faster.maxPriorityFeePerGas).toBeGreaterThanOrEqual(((original.maxPriorityFeePerGas as bigint) * 11n) / 10n)
    await node('evm_mine')
    await expect.poll(() => evm().getBalance({ address: BOB }), { timeout: 20_000 }).toBe(parseEther('0.1'))

    // History's pending section and Activity agree: the original was replaced, the replacement confirmed
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh pending sends' }).click()
          return page.locator('.pending-sends li[data-send-state="replaced"]').count()
        },
        { timeout: 20_000 },
      )
      .toBe(1)
    expect(await page.locator('.pending-sends li[data-send-state="pending"]').count()).toBe(0)
    await tab('Activity').click()
    await page.locator('ul.history li[data-send-state="replaced"]').waitFor({ timeout: 20_000 })
    expect(await page.locator('ul.history li[data-send-state="replaced"] .badge').textContent()).toBe('Replaced')
    expect(await page.locator('ul.history li[data-send-state="confirmed"] .badge').first().textContent()).toBe('Confirmed')
    await node('evm_setAutomine', [true])
  }, 120_000)

  it('Activity shows a Solana send the network refused as Failed with the reason, not Done', async () => {
    // more than the account holds: the service accepts the activity, the node refuses the transaction
    const sent = await callBackground(page, 'sendSubmit', { caip2: DEV_SOLANA_CAIP2, from: sol, to: SOL_BOB, amount: '5000000000' })
    expect(sent.ok).toBe(true)
    const id = sent.result.sendTransactionStatusId
    await expect
      .poll(async () => (await callBackground(page, 'sendStatus', { sendTransactionStatusId: id })).result.state, { timeout: 30_000 })
      .toBe('failed')
    await tab('Activity').click()
    await page.getByRole('heading', { name: 'Activity' }).waitFor()
    await page.locator('section[aria-labelledby="activity-heading"]').getByRole('button', { name: 'Refresh', exact: true }).click()
    const row = page.locator('ul.history li[data-send-state="failed"]')
    await row.waitFor({ timeout: 20_000 })
    expect(await row.locator('.badge').textContent()).toBe('Failed')
    expect(await row.locator('.error').textContent()).toMatch(/\S/)
    expect(await page.locator('ul.history').textContent()).not.toMatch(/Pending \(initialized\)|ACTIVITY_STATUS|INITIALIZED/)
    // every badge sits at the height of its text, not stretched to the row
    for (const badge of await page.locator('ul.history .badge').all()) {
      const box = await badge.boundingBox()
      expect(box?.height ?? 100).toBeLessThan(24)
    }
    await shots('popup-activity-send-states')
  }, 90_000)
})
