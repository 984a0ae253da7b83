/**
 * A user's OAuth providers through the unmodified `@turnkey/http` client: get_oauth_providers (all
 * of an organization, or one user's) and delete_oauth_providers (all ids or none), with unknown
 * and other-organization ids answering the same 404 naming the field.
 */
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newApiKey } from './helpers/keys.js'
import { adminTurnkeyClient, startTestService, submitBody, type TestService } from './helpers/service.js'

let svc: TestService
let client: TurnkeyClient
let rootOrg: string
let orgId: string
let olga: string
let oscar: string
/** The sub-organization's root users' API keys: only its own users act in it (custody). */
const keys = { olga: newApiKey('olga'), oscar: newApiKey('oscar') }
/** olga's client (@turnkey/http stamping with her key). */
let olgaClient: TurnkeyClient

const claims = (sub: string) => ({ iss: 'https://accounts.example', sub, aud: 'client-9' })
const rootUser = (userName: keyof typeof keys, providers: Array<{ providerName: string; oidcClaims: ReturnType<typeof claims> }>) => ({
  userName,
  apiKeys: [{ ...keys[userName].param, curveType: 'API_KEY_CURVE_P256' as const }],
  authenticators: [],
  oauthProviders: providers,
})

beforeAll(async () => {
  svc = await startTestService()
  rootOrg = svc.admin.organizationId
  client = adminTurnkeyClient(svc)
  olgaClient = new TurnkeyClient(
    { baseUrl: svc.url },
    new ApiKeyStamper({ apiPublicKey: keys.olga.publicKey, apiPrivateKey: keys.olga.privateKeyHex }),
  )
  const res = await client.createSubOrganization({
    type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
    timestampMs: String(Date.now()),
    organizationId: rootOrg,
    parameters: {
      subOrganizationName: 'oauth providers',
      rootUsers: [
        rootUser('olga', [
          { providerName: 'Example', oidcClaims: claims('olga-1') },
          { providerName: 'Other', oidcClaims: claims('olga-2') },
        ]),
        rootUser('oscar', [{ providerName: 'Example', oidcClaims: claims('oscar-1') }]),
      ],
      rootQuorumThreshold: 1,
    },
  })
  orgId = res.activity.result.createSubOrganizationResultV8?.subOrganizationId as string
  const { users } = await client.getUsers({ organizationId: orgId })
  olga = users.find((u) => u.userName === 'olga')?.userId as string
  oscar = users.find((u) => u.userName === 'oscar')?.userId as string
})
afterAll(async () => {
  await svc?.stop()
})

const providersOf = async (userId?: string) =>
  (await client.getOauthProviders({ organizationId: orgId, ...(userId ? { userId } : {}) })).oauthProviders

describe('get_oauth_providers', () => {
  it("lists a user's providers in the hosted record shape, and the organization's", async () => {
    const mine = await providersOf(olga)
    expect(mine.map((p) => [p.providerName, p.issuer, p.subject, p.audience]).sort()).toEqual([
      ['Example', 'https://accounts.example', 'olga-1', 'client-9'],
      ['Other', 'https://accounts.example', 'olga-2', 'client-9'],
    ])
    for (const p of mine) {
      expect(p.providerId).toMatch(/^[0-9a-f-]{36}$/)
      expect(p.createdAt).toMatchObject({ seconds: expect.any(String) })
    }
    expect((await providersOf()).map((p) => p.subject).sort()).toEqual(['olga-1', 'olga-2', 'oscar-1'])
    // The parent's own organization has none of them.
    expect((await client.getOauthProviders({ organizationId: rootOrg })).oauthProviders).toEqual([])
  })

  it("an unknown user and another organization's user are the same 404 naming userId", async () => {
    for (const [organizationId, userId] of [
      [orgId, crypto.randomUUID()],
      [rootOrg, olga],
    ] as const) {
      const r = await svc.post('/public/v1/query/get_oauth_providers', { organizationId, userId })
      expect(r.status).toBe(404)
      expect(JSON.stringify(r.json)).toContain('userId')
    }
  })
})

describe('delete_oauth_providers', () => {
  it('deletes all the given providers or none, naming the id that is not the user’s', async () => {
    const [first, second] = await providersOf(olga)
    const [oscars] = await providersOf(oscar)
    for (const wrong of [crypto.randomUUID(), oscars?.providerId as string]) {
      const r = await svc.post(
        '/public/v1/submit/delete_oauth_providers',
        submitBody('ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS', orgId, { userId: olga, providerIds: [first?.providerId, wrong] }),
        keys.olga.stamper,
      )
      expect(r.status).toBe(404)
      expect(r.json.message).toContain('parameters.providerIds[1]')
      expect(await providersOf(olga)).toHaveLength(2)
    }
    const done = await olgaClient.deleteOauthProviders({
      type: 'ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS',
      timestampMs: String(Date.now()),
      organizationId: orgId,
      parameters: { userId: olga, providerIds: [first?.providerId as string] },
    })
    expect(done.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(done.activity.result.deleteOauthProvidersResult?.providerIds).toEqual([first?.providerId])
    expect((await providersOf(olga)).map((p) => p.providerId)).toEqual([second?.providerId])
    const { user } = await client.getUser({ organizationId: orgId, userId: olga })
    expect(user.oauthProviders.map((p) => p.providerId)).toEqual([second?.providerId])
    expect(await providersOf(oscar)).toHaveLength(1)
  })

  it("refuses an unknown user and another organization's user (404 naming parameters.userId)", async () => {
    const [p] = await providersOf(oscar)
    // Each organization's own credential submits: olga's key in the sub-organization, the admin's in the root.
    for (const [organizationId, userId, stamper] of [
      [orgId, crypto.randomUUID(), keys.olga.stamper],
      [rootOrg, oscar, svc.adminStamper],
    ] as const) {
      const r = await svc.post(
        '/public/v1/submit/delete_oauth_providers',
        submitBody('ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS', organizationId, { userId, providerIds: [p?.providerId] }),
        stamper,
      )
      expect(r.status).toBe(404)
      expect(r.json.message).toContain('parameters.userId')
    }
    expect(await providersOf(oscar)).toHaveLength(1)
  })
})
