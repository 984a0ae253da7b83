/**
 * The popup's Activity screen with policies, in Chromium: a user outside the root
 * quorum of the logged-in user's organization signs; a policy's consensus names the logged-in user,
 * so the activity is listed as waiting for their approval with who must approve, and their vote
 * completes it; a signing the policies deny reads "Denied by policy 'name'" in the history.
 */
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newApiKey } from '../integration/helpers/keys'
import { startTestService, submitBody, type TestService } from '../integration/helpers/service'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import { callBackground, configureService, createAccountWithOwnerKey, loginByEmailOtp, openPopup, shot } from './helpers/wallet'

describe('popup: activities decided by policies', () => {
  let svc: TestService
  let ext: LaunchedExtension
  let page: Page
  let organizationId = ''
  let userId = ''
  let owner: Awaited<ReturnType<typeof createAccountWithOwnerKey>>['owner']
  let address = ''
  const email = `policies-${Date.now()}@example.test`
  const bob = newApiKey('bob')

  beforeAll(async () => {
    svc = await startTestService()
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
    // Bob, outside the root quorum of the logged-in user's organization (set up with the user's own key).
    const users = await svc.post(
      '/public/v1/submit/create_users',
      submitBody('ACTIVITY_TYPE_CREATE_USERS_V3', organizationId, {
        users: [{ userName: 'bob', apiKeys: [bob.param], authenticators: [], oauthProviders: [], userTags: [] }],
      }),
      owner.stamper,
    )
    expect(users.status, JSON.stringify(users.json)).toBe(200)
    const { json: wallets } = await svc.post('/public/v1/query/list_wallets', { organizationId })
    const { json: accounts } = await svc.post('/public/v1/query/list_wallet_accounts', {
      organizationId,
      walletId: wallets.wallets[0].walletId,
    })
    address = accounts.accounts.find((a: { addressFormat: string }) => a.addressFormat === 'ADDRESS_FORMAT_ETHEREUM').address
  })

  afterAll(async () => {
    await ext?.close()
    await svc?.stop()
  })

  const createPolicy = async (policyName: string, effect: string, condition: string, consensus = '') => {
    const r = await svc.post(
      '/public/v1/submit/create_policy',
      submitBody('ACTIVITY_TYPE_CREATE_POLICY_V3', organizationId, { policyName, effect, condition, consensus, notes: '' }),
      owner.stamper,
    )
    expect(r.status, JSON.stringify(r.json)).toBe(200)
  }
  const bobSigns = (payload: string, encoding: string, hashFunction: string) =>
    svc.post(
      '/public/v1/submit/sign_raw_payload',
      submitBody('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', organizationId, { signWith: address, payload, encoding, hashFunction }),
      bob.stamper,
    )

  it('lists the activity waiting on my approval with who must approve; my vote completes it; a denial names its policy', async () => {
    await createPolicy(
      'I co-sign',
      'EFFECT_ALLOW',
      "activity.resource == 'PRIVATE_KEY' && activity.action == 'SIGN'",
      `approvers.any(u, u.id == '${userId}')`,
    )
    await createPolicy('no text payloads', 'EFFECT_DENY', "activity.params.encoding == 'PAYLOAD_ENCODING_TEXT_UTF8'")
    const waiting = await bobSigns('ab'.repeat(32), 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_NO_OP')
    expect(waiting.json.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    const denied = await bobSigns('hello', 'PAYLOAD_ENCODING_TEXT_UTF8', 'HASH_FUNCTION_SHA256')
    expect(denied.status).toBe(403)
    const activityId = waiting.json.activity.id

    await page.getByRole('button', { name: 'Activity', exact: true }).click()
    const item = page.locator(`li.pending[data-activity-id="${activityId}"]`)
    await item.waitFor({ timeout: 15_000 })
    expect(await item.locator('.waiting-for').textContent()).toBe("Waiting for approval by you (policy 'I co-sign').")
    await page.getByText("Denied by policy 'no text payloads'.").waitFor({ timeout: 15_000 })
    await shot(page, 'popup-activity-policies')
    await item.getByRole('button', { name: /^Approve/ }).click()
    await page
      .locator(`.history li[data-activity-id="${activityId}"][data-status="ACTIVITY_STATUS_COMPLETED"]`)
      .waitFor({ timeout: 15_000 })
    const done = await svc.post('/public/v1/query/get_activity', { organizationId, activityId })
    expect(done.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(done.json.activity.result.signRawPayloadResult.r).toMatch(/^[0-9a-f]{64}$/i)
  })
})
