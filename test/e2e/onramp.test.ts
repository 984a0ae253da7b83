/**
 * Fiat on-ramp in a real browser: a sub-organization user starts a purchase into
 * their wallet address, a person completes or fails it on the built-in sandbox provider
 * page (the bought ETH arrives on the dev EVM chain, a real anvil here), and
 * get_on_ramp_transaction_status follows.
 */
import { existsSync, mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_EVM_CAIP2, resolveNetworks } from '../../src/chains/networks.js'
import { type RunningEvmNode, startEvmNode } from '../../src/devchain/evm.js'
import { freePort } from '../integration/helpers/process.js'
import { newApiKey, rootUser } from '../integration/helpers/keys.js'
import { startTestService, submitBody, type TestService } from '../integration/helpers/service.js'
import { CHROMIUM_PATH, CHROMIUM_FLAGS } from './helpers/browser.js'

const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url))
/** Used only when wallet creation is not available in this build of the service. */
const FALLBACK_ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'

let svc: TestService
let node: RunningEvmNode
let browser: Browser
let subOrgId: string
let walletAddress: string
let buyer: ReturnType<typeof newApiKey>

beforeAll(async () => {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH}`)
  node = await startEvmNode({ port: await freePort() })
  svc = await startTestService({ networks: resolveNetworks(`${DEV_EVM_CAIP2}=${node.url}`) })
  buyer = newApiKey('buyer key')
  const params = (withWallet: boolean) => ({
    subOrganizationName: 'on-ramp buyer',
    rootUsers: [rootUser('buyer', [buyer.param])],
    rootQuorumThreshold: 1,
    ...(withWallet
      ? {
          wallet: {
            walletName: 'main',
            accounts: [
              {
                curve: 'CURVE_SECP256K1',
                pathFormat: 'PATH_FORMAT_BIP32',
                path: "m/44'/60'/0'/0/0",
                addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
              },
            ],
            mnemonicLength: 12,
          },
        }
      : {}),
  })
  const submitSub = (withWallet: boolean) =>
    svc.post(
      '/public/v1/submit/create_sub_organization',
      submitBody('ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', svc.admin.organizationId, params(withWallet)),
    )
  let r = await submitSub(true)
  if (r.status === 200) {
    walletAddress = r.json.activity.result.createSubOrganizationResultV8.wallet.addresses[0]
  } else {
    r = await submitSub(false)
    walletAddress = FALLBACK_ADDRESS
  }
  expect(r.status).toBe(200)
  subOrgId = r.json.activity.result.createSubOrganizationResultV8.subOrganizationId
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_FLAGS,
  })
})

afterAll(async () => {
  await browser?.close()
  await svc?.stop()
  await node?.close()
})

async function nodeCall(method: string, params: unknown[]): Promise<any> {
  const res = await fetch(node.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return (await res.json()).result
}

/** The buyer starts a purchase in their own sub-organization. */
async function initOnRamp(): Promise<{ onRampUrl: string; onRampTransactionId: string }> {
  const r = await svc.post(
    '/public/v1/submit/init_fiat_on_ramp',
    submitBody('ACTIVITY_TYPE_INIT_FIAT_ON_RAMP', subOrgId, {
      onrampProvider: 'FIAT_ON_RAMP_PROVIDER_ALPHA',
      walletAddress,
      network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM',
      cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH',
      fiatCurrencyCode: 'FIAT_ON_RAMP_CURRENCY_EUR',
      fiatCurrencyAmount: '150',
      paymentMethod: 'FIAT_ON_RAMP_PAYMENT_METHOD_CREDIT_DEBIT_CARD',
      countryCode: 'FR',
      sandboxMode: true,
    }),
    buyer.stamper,
  )
  expect(r.status, JSON.stringify(r.json)).toBe(200)
  return r.json.activity.result.initFiatOnRampResult
}

async function status(transactionId: string) {
  const r = await svc.post('/public/v1/query/get_on_ramp_transaction_status', { organizationId: subOrgId, transactionId }, buyer.stamper)
  expect(r.status).toBe(200)
  return r.json as { transactionStatus: string; txHash?: string }
}

/** Opens a page that records console errors (CSP violations appear there). */
async function openPage(url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 720, height: 760 } })
  const errors: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text())
  })
  page.on('pageerror', (e) => errors.push(e.message))
  const res = await page.goto(url)
  expect(res?.status()).toBe(200)
  return { page, errors }
}

describe('sandbox on-ramp in Chromium', () => {
  it('Complete purchase → COMPLETED: the bought ETH arrives, with the real transaction hash', async () => {
    const { onRampUrl, onRampTransactionId } = await initOnRamp()
    expect(onRampUrl.startsWith(`${svc.url}/sandbox/onramp/${onRampTransactionId}?`)).toBe(true)
    const { page, errors } = await openPage(onRampUrl)
    await expect(page.title()).resolves.toBe('Buy ETH — Sigil sandbox')
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Buy ETH')
    expect(await page.locator('dd', { hasText: walletAddress }).count()).toBe(1)
    expect(await page.locator('dd', { hasText: '150 EUR' }).count()).toBe(1)
    // The stylesheet applied (not blocked by the CSP): the card has a border radius.
    expect(await page.locator('main.card').evaluate((el) => getComputedStyle(el).borderTopLeftRadius)).toBe('16px')
    mkdirSync(ARTIFACTS, { recursive: true })
    await page.screenshot({ path: `${ARTIFACTS}onramp-sandbox.png`, fullPage: true })

    // 150 EUR, counted as US dollars, at 2000 per ETH.
    expect(await page.locator('dd', { hasText: '0.075 ETH on Sigil dev EVM' }).count()).toBe(1)
    const before = BigInt(await nodeCall('eth_getBalance', [walletAddress, 'latest']))
    expect((await status(onRampTransactionId)).transactionStatus).toBe('PENDING')
    await Promise.all([
      page.waitForURL(`${svc.url}/sandbox/onramp/${onRampTransactionId}`),
      page.getByRole('button', { name: 'Complete purchase' }).click(),
    ])
    expect(await page.getByRole('status').textContent()).toContain('Completed.')
    expect(await page.getByRole('button').count()).toBe(0)
    const done = await status(onRampTransactionId)
    expect(done.transactionStatus).toBe('COMPLETED')
    expect(done.txHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await page.locator('code').textContent()).toBe(done.txHash)
    expect((await nodeCall('eth_getTransactionReceipt', [done.txHash]))?.status).toBe('0x1')
    expect(BigInt(await nodeCall('eth_getBalance', [walletAddress, 'latest'])) - before).toBe(75n * 10n ** 15n)
    await page.screenshot({ path: `${ARTIFACTS}onramp-sandbox-completed.png`, fullPage: true })

    // Completing again from a stale page is refused (409).
    const again = await page.request.post(`${svc.url}/sandbox/onramp/${onRampTransactionId}/complete`, { headers: { Accept: 'text/html' } })
    expect(again.status()).toBe(409)
    expect(errors).toEqual([])
    await page.close()
  })

  it('Fail → FAILED, and a later Complete is refused', async () => {
    const { onRampUrl, onRampTransactionId } = await initOnRamp()
    const { page, errors } = await openPage(onRampUrl)
    await Promise.all([
      page.waitForURL(`${svc.url}/sandbox/onramp/${onRampTransactionId}`),
      page.getByRole('button', { name: 'Fail' }).click(),
    ])
    expect(await page.getByRole('status').textContent()).toContain('Failed.')
    expect(await status(onRampTransactionId)).toEqual({ transactionStatus: 'FAILED' })
    // The original page (opened before failing) submits Complete: 409 page, status unchanged.
    const stale = await openPage(onRampUrl.replace(/\?.*$/, ''))
    expect(await stale.page.getByRole('button').count()).toBe(0)
    const res = await page.request.post(`${svc.url}/sandbox/onramp/${onRampTransactionId}/complete`, { headers: { Accept: 'text/html' } })
    expect(res.status()).toBe(409)
    expect(await res.text()).toContain('already failed')
    expect((await status(onRampTransactionId)).transactionStatus).toBe('FAILED')
    expect(errors).toEqual([])
    await page.close()
    await stale.page.close()
  })
})
