import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { DEV_EVM_CAIP2, DEV_SOLANA_CAIP2, resolveNetworks } from '../../src/chains/networks'
import { type RunningEvmNode, startEvmNode } from '../../src/devchain/evm'
import { newApiKey } from '../integration/helpers/keys'
import { freePort } from '../integration/helpers/process'
import { startTestService, submitBody, type TestService } from '../integration/helpers/service'
import { axeViolations } from './helpers/axe'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import { callBackground, configureService, createAccountWithOwnerKey, loginByEmailOtp, openPopup, shot } from './helpers/wallet'

describe('popup: on-ramp purchase and approving an activity that waits for consensus', () => {
  let svc: TestService
  let node: RunningEvmNode
  let ext: LaunchedExtension
  let page: Page
  let organizationId = ''
  let userId = ''
  let owner: Awaited<ReturnType<typeof createAccountWithOwnerKey>>['owner']
  const email = `buyer-${Date.now()}@example.test`

  beforeAll(async () => {
    node = await startEvmNode({ port: await freePort() })
    // The dev EVM chain is a real node, so the sandbox delivers; the dev Solana network is not run here.
    svc = await startTestService({ networks: resolveNetworks(`${DEV_EVM_CAIP2}=${node.url},${DEV_SOLANA_CAIP2}=http://127.0.0.1:9`) })
    ext = await launchExtension()
    page = await openPopup(ext)
    await configureService(page, svc.url)
    // The account, with a key of the test's own beside the extension's (custody: the admin only reads there).
    const account = await createAccountWithOwnerKey(svc, email)
    owner = account.owner
    await loginByEmailOtp(page, svc.url, email)
    const session = (await callBackground(page, 'getStatus')).result.session
    organizationId = session.organizationId
    expect(organizationId).toBe(account.organizationId)
    userId = session.userId
  })

  afterAll(async () => {
    await ext?.close()
    await svc?.stop()
    await node?.close()
  })

  const nodeCall = async (method: string, params: unknown[]) =>
    (
      await (
        await fetch(node.url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        })
      ).json()
    ).result

  it('refuses an invalid amount with the service schema, naming the field', async () => {
    const reply = await callBackground(page, 'onRampStart', {
      onrampProvider: 'FIAT_ON_RAMP_PROVIDER_ALPHA',
      walletAddress: '0x0000000000000000000000000000000000000001',
      network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM',
      cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH',
      fiatCurrencyAmount: '5',
    })
    // in words, at the field: the field is named for the form, never in the sentence
    expect(reply).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', field: 'fiatCurrencyAmount' } })
    expect(reply.error.message).toBe('The minimum is more than 20 USD.')
  })

  it('the sandbox Buy raises the balance by the bought amount: the provider page at the service’s URL, a real transaction hash', async () => {
    await page.getByRole('button', { name: 'Buy', exact: true }).click()
    const address = page.getByLabel('Receiving address')
    await expect.poll(() => address.inputValue(), { timeout: 15_000 }).toMatch(/^0x[0-9a-fA-F]{40}$/)
    // Only networks the service serves: the dev EVM chain stands in for Ethereum, the dev Solana network for Solana; no Base, no Bitcoin.
    expect(await page.locator('#buy-heading + form').getByLabel('Network').locator('option').allTextContents()).toEqual([
      'Ethereum (Sigil dev EVM)',
      'Solana (Sigil dev Solana)',
    ])
    const receiver = await address.inputValue()
    const before = BigInt(await nodeCall('eth_getBalance', [receiver, 'latest']))
    await page.getByLabel('Amount').fill('75')
    await shot(page, 'popup-buy')
    const [tab] = await Promise.all([ext.context.waitForEvent('page'), page.getByRole('button', { name: 'Continue to provider' }).click()])
    await tab.waitForLoadState()
    const txId = (await page.locator('.purchase code').first().textContent()) ?? ''
    expect(txId).not.toBe('')
    // The activity the popup created returned this URL: the tab must be exactly there.
    const { json } = await svc.post('/public/v1/query/list_activities', {
      organizationId,
      filterByType: ['ACTIVITY_TYPE_INIT_FIAT_ON_RAMP'],
    })
    const result = json.activities[0].result.initFiatOnRampResult
    expect(result.onRampTransactionId).toBe(txId)
    expect(tab.url()).toBe(new URL(result.onRampUrl).href)
    // 75 USD at the dev chain's 2000 USD per ETH.
    expect(await tab.locator('dd', { hasText: '0.0375 ETH on Sigil dev EVM' }).count()).toBe(1)
    await Promise.all([tab.waitForURL(/sandbox\/onramp/), tab.getByRole('button', { name: 'Complete purchase' }).click()])
    await page.bringToFront()
    // The popup follows the order and then the balance by itself.
    await page.locator('#onramp-status[data-status="COMPLETED"]').waitFor({ timeout: 15_000 })
    expect(await page.locator('#onramp-status').textContent()).toBe('Delivered to your account.')
    const bought = 375n * 10n ** 14n
    await page.locator(`#onramp-balance[data-balance="${before + bought}"]`).waitFor({ timeout: 15_000 })
    expect(await page.locator('#onramp-balance').textContent()).toContain('(+0.0375)')
    const hash = (await page.locator('.tx-hash code[data-hash]').textContent()) ?? ''
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
    const receipt = await nodeCall('eth_getTransactionReceipt', [hash])
    expect(receipt?.status).toBe('0x1')
    expect(receipt?.to).toBe(receiver.toLowerCase())
    expect(BigInt(await nodeCall('eth_getBalance', [receiver, 'latest'])) - before).toBe(bought)
    await page.locator('.tx-hash summary').click()
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme })
      await shot(page, `popup-buy-completed-${colorScheme}`)
      expect(await axeViolations(page), colorScheme).toEqual([])
    }
    await page.emulateMedia({ colorScheme: 'light' })
    await tab.close()
  })

  it('approves an activity in CONSENSUS_NEEDED from the popup, and it completes', async () => {
    // A second root user (API key K2), then a 2-of-2 quorum; both set up with the user's own key.
    const k2 = newApiKey('second member')
    const users = await svc.post(
      '/public/v1/submit/create_users',
      submitBody('ACTIVITY_TYPE_CREATE_USERS_V3', organizationId, {
        users: [{ userName: 'second', apiKeys: [k2.param], authenticators: [], oauthProviders: [], userTags: [] }],
      }),
      owner.stamper,
    )
    expect(users.status, JSON.stringify(users.json)).toBe(200)
    const secondId = users.json.activity.result.createUsersResult.userIds[0]
    const quorum = await svc.post(
      '/public/v1/submit/update_root_quorum',
      submitBody('ACTIVITY_TYPE_UPDATE_ROOT_QUORUM', organizationId, { threshold: 2, userIds: [userId, secondId] }),
      owner.stamper,
    )
    expect(quorum.status, JSON.stringify(quorum.json)).toBe(200)
    const { json: wallets } = await svc.post('/public/v1/query/list_wallets', { organizationId })
    const walletId = wallets.wallets[0].walletId
    const waiting = await svc.post(
      '/public/v1/submit/create_wallet_accounts',
      submitBody('ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS', organizationId, {
        walletId,
        accounts: [
          { curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/501'/1'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' },
        ],
      }),
      k2.stamper,
    )
    expect(waiting.json.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    const activityId = waiting.json.activity.id

    await page.getByRole('button', { name: 'Activity', exact: true }).click()
    const item = page.locator(`li.pending[data-activity-id="${activityId}"]`)
    await item.waitFor({ timeout: 15_000 })
    await shot(page, 'popup-activity-pending')
    await item.getByRole('button', { name: /^Approve/ }).click()
    await page
      .locator(`.history li[data-activity-id="${activityId}"][data-status="ACTIVITY_STATUS_COMPLETED"]`)
      .waitFor({ timeout: 15_000 })
    expect(await page.locator(`li.pending[data-activity-id="${activityId}"]`).count()).toBe(0)
    const done = await svc.post('/public/v1/query/get_activity', { organizationId, activityId })
    expect(done.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    await shot(page, 'popup-activity')
  })
})
