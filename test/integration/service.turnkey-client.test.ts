import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TurnkeyClient } from '@turnkey/http'
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { startTestService, type TestService } from './helpers/service.js'
import { newApiKey } from './helpers/keys.js'

// The official client of the hosted service, unmodified, against our service (issue 3).
let svc: TestService
let client: TurnkeyClient
beforeAll(async () => {
  svc = await startTestService()
  client = new TurnkeyClient(
    { baseUrl: svc.url },
    new ApiKeyStamper({ apiPublicKey: svc.admin.publicKey, apiPrivateKey: svc.admin.privateKey }),
  )
})
afterAll(async () => {
  await svc?.stop()
})

describe('@turnkey/http TurnkeyClient', () => {
  it('whoami and list_users parse', async () => {
    const who = await client.getWhoami({ organizationId: svc.admin.organizationId })
    expect(who.userId).toBe(svc.admin.userId)
    expect(who.organizationName).toBe('Sigil Root Organization')
    const { users } = await client.getUsers({ organizationId: svc.admin.organizationId })
    expect(users[0]?.apiKeys[0]?.credential.publicKey).toBe(svc.admin.publicKey)
    expect(users[0]?.createdAt).toMatchObject({ seconds: expect.any(String), nanos: expect.any(String) })
    // v1User requires mfaPolicies (an array): every user object carries it, here and in get_user.
    expect(users.every((u) => Array.isArray(u.mfaPolicies))).toBe(true)
    const { user } = await client.getUser({ organizationId: svc.admin.organizationId, userId: svc.admin.userId })
    expect(user.mfaPolicies).toEqual([])
  })

  it('create_sub_organization, get_activity and list_activities parse', async () => {
    const key = newApiKey('tk')
    const res = await client.createSubOrganization({
      type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
      timestampMs: String(Date.now()),
      organizationId: svc.admin.organizationId,
      parameters: {
        subOrganizationName: 'made by the official client',
        rootUsers: [
          {
            userName: 'ivy',
            userEmail: 'ivy@example.com',
            apiKeys: [{ ...key.param, curveType: 'API_KEY_CURVE_P256' }],
            authenticators: [],
            oauthProviders: [],
          },
        ],
        rootQuorumThreshold: 1,
      },
    })
    expect(res.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    const subOrgId = res.activity.result.createSubOrganizationResultV8?.subOrganizationId
    expect(subOrgId).toMatch(/^[0-9a-f-]{36}$/)

    const got = await client.getActivity({ organizationId: svc.admin.organizationId, activityId: res.activity.id })
    expect(got.activity.id).toBe(res.activity.id)
    expect(got.activity.intent.createSubOrganizationIntentV8?.subOrganizationName).toBe('made by the official client')
    const list = await client.getActivities({ organizationId: svc.admin.organizationId, paginationOptions: { limit: '5' } })
    expect(list.activities[0]?.id).toBe(res.activity.id)

    // The sub-organization's own key works through the same client.
    const subClient = new TurnkeyClient(
      { baseUrl: svc.url },
      new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKeyHex }),
    )
    const who = await subClient.getWhoami({ organizationId: subOrgId! })
    expect(who.username).toBe('ivy')
  })

  it('surfaces our error body as a TurnkeyRequestError with code and message', async () => {
    const stranger = new TurnkeyClient(
      { baseUrl: svc.url },
      new ApiKeyStamper({ apiPublicKey: newApiKey().publicKey, apiPrivateKey: newApiKey().privateKeyHex }),
    )
    await expect(stranger.getWhoami({ organizationId: svc.admin.organizationId })).rejects.toMatchObject({ code: 16 })
  })
})
