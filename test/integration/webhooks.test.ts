import { verifyTurnkeyWebhookSignature } from '@turnkey/crypto'
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { base64UrlDecode, bytesToHex } from '../../src/crypto/encoding.js'
import { resolveConfig } from '../../src/service/config.js'
import { countOutbox } from '../../src/service/store/webhooks.js'
import { queueActivityUpdate } from '../../src/service/webhooks/events.js'
import { newApiKey, rootUser } from './helpers/keys.js'
import { adminTurnkeyClient, startTestService, submitBody, type TestService } from './helpers/service.js'
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from './helpers/webhookReceiver.js'

let svc: TestService
let client: TurnkeyClient
let org: string
let subOrg: string
/** The sub-organization's root user's key and client: only its own users act in it (custody). */
const subKey = newApiKey('s')
let subClient: TurnkeyClient
const receivers: WebhookReceiver[] = []

const ts = () => String(Date.now())
const FAST_RETRIES = { allowPrivateUrls: true, maxAttempts: 3, backoffMs: 50, maxBackoffMs: 200, timeoutMs: 2_000 }

async function receiver(statuses: number[] = []): Promise<WebhookReceiver> {
  const r = await startWebhookReceiver(statuses)
  receivers.push(r)
  return r
}

type Sub = { eventType: string; filtersJson?: string; isActive?: boolean }

/** The client of a user of `organizationId` (the root's admin, or the sub-organization's root user). */
const clientIn = (organizationId: string) => (organizationId === subOrg ? subClient : client)

async function createEndpoint(url: string, subscriptions: Sub[], organizationId = org, name = 'hook') {
  const r = await clientIn(organizationId).createWebhookEndpoint({
    type: 'ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT',
    timestampMs: ts(),
    organizationId,
    parameters: { url, name, subscriptions },
  })
  const result = r.activity.result.createWebhookEndpointResult
  if (!result) throw new Error('no result')
  return result
}

/** A harmless activity in `organizationId`: a user tag. Returns its activity id. */
async function touch(organizationId = org, name = `tag-${Math.random().toString(36).slice(2, 8)}`): Promise<string> {
  const r = await clientIn(organizationId).createUserTag({
    type: 'ACTIVITY_TYPE_CREATE_USER_TAG',
    timestampMs: ts(),
    organizationId,
    parameters: { userTagName: name, userIds: [] },
  })
  return r.activity.id
}

const activityOf = (w: ReceivedWebhook) => JSON.parse(w.body) as { id: string; status: string; type: string; organizationId: string }
const about = (id: string) => (list: ReceivedWebhook[]) => list.some((w) => activityOf(w).id === id)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

beforeAll(async () => {
  svc = await startTestService({ webhooks: FAST_RETRIES })
  org = svc.admin.organizationId
  client = adminTurnkeyClient(svc)
  const r = await client.createSubOrganization({
    type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
    timestampMs: ts(),
    organizationId: org,
    parameters: {
      subOrganizationName: 'webhooks sub',
      rootUsers: [{ userName: 'sub root', apiKeys: [subKey.param], authenticators: [], oauthProviders: [] }],
      rootQuorumThreshold: 1,
    },
  })
  subOrg = r.activity.result.createSubOrganizationResultV8?.subOrganizationId as string
  subClient = new TurnkeyClient(
    { baseUrl: svc.url },
    new ApiKeyStamper({ apiPublicKey: subKey.publicKey, apiPrivateKey: subKey.privateKeyHex }),
  )
})
afterAll(async () => {
  await svc?.stop()
  for (const r of receivers) await r.close()
})

describe('webhook endpoints', () => {
  it('create → list → update → delete, with the endpoint record of the interface', async () => {
    const created = await createEndpoint('https://hooks.example.com/a', [
      { eventType: 'ACTIVITY_UPDATES', filtersJson: '{"activityStatuses":["ACTIVITY_STATUS_COMPLETED"]}' },
      { eventType: 'SEND_TRANSACTION_STATUS_UPDATES', isActive: false },
    ])
    expect(created.webhookEndpoint).toEqual({
      endpointId: created.endpointId,
      organizationId: org,
      url: 'https://hooks.example.com/a',
      name: 'hook',
      isActive: true,
      subscriptions: [
        { eventType: 'ACTIVITY_UPDATES', filtersJson: '{"activityStatuses":["ACTIVITY_STATUS_COMPLETED"]}', isActive: true },
        { eventType: 'SEND_TRANSACTION_STATUS_UPDATES', filtersJson: '', isActive: false },
      ],
    })
    const listed = await client.listWebhookEndpoints({ organizationId: org })
    expect(listed.webhookEndpoints.find((e) => e.endpointId === created.endpointId)).toEqual(created.webhookEndpoint)

    const updated = await client.updateWebhookEndpoint({
      type: 'ACTIVITY_TYPE_UPDATE_WEBHOOK_ENDPOINT',
      timestampMs: ts(),
      organizationId: org,
      parameters: { endpointId: created.endpointId, name: 'renamed', isActive: false },
    })
    expect(updated.activity.result.updateWebhookEndpointResult?.webhookEndpoint).toMatchObject({
      name: 'renamed',
      isActive: false,
      url: 'https://hooks.example.com/a',
    })
    expect(updated.activity.result.updateWebhookEndpointResult?.webhookEndpoint.subscriptions).toHaveLength(2)

    const deleted = await client.deleteWebhookEndpoint({
      type: 'ACTIVITY_TYPE_DELETE_WEBHOOK_ENDPOINT',
      timestampMs: ts(),
      organizationId: org,
      parameters: { endpointId: created.endpointId },
    })
    expect(deleted.activity.result.deleteWebhookEndpointResult?.endpointId).toBe(created.endpointId)
    const after = await client.listWebhookEndpoints({ organizationId: org })
    expect(after.webhookEndpoints.some((e) => e.endpointId === created.endpointId)).toBe(false)
    const again = await svc.post(
      '/public/v1/submit/delete_webhook_endpoint',
      submitBody('ACTIVITY_TYPE_DELETE_WEBHOOK_ENDPOINT', org, { endpointId: created.endpointId }),
    )
    expect(again.status).toBe(404)
    expect(JSON.stringify(again.json)).toContain('parameters.endpointId')
  })

  it('bad input is a 400 naming the field, and creates nothing', async () => {
    const before = (await client.listWebhookEndpoints({ organizationId: org })).webhookEndpoints.length
    const cases: Array<[unknown, string]> = [
      [{ url: 'ftp://hooks.example.com/x', name: 'x', subscriptions: [] }, 'parameters.url'],
      [{ url: 'not a url', name: 'x', subscriptions: [] }, 'parameters.url'],
      [{ url: 'https://user:secret@hooks.example.com/x', name: 'x', subscriptions: [] }, 'parameters.url'],
      [{ url: 'https://hooks.example.com/x', name: 'x', subscriptions: [{ eventType: 'NOPE' }] }, 'parameters.subscriptions[0].eventType'],
      [
        { url: 'https://hooks.example.com/x', name: 'x', subscriptions: [{ eventType: 'ACTIVITY_UPDATES', filtersJson: '{bad' }] },
        'parameters.subscriptions[0].filtersJson',
      ],
      [
        { url: 'https://hooks.example.com/x', name: 'x', subscriptions: [{ eventType: 'ACTIVITY_UPDATES', filtersJson: '[1]' }] },
        'parameters.subscriptions[0].filtersJson',
      ],
      [
        {
          url: 'https://hooks.example.com/x',
          name: 'x',
          subscriptions: [{ eventType: 'ACTIVITY_UPDATES' }, { eventType: 'ACTIVITY_UPDATES', filtersJson: '{"txStatuses":["INCLUDED"]}' }],
        },
        'parameters.subscriptions[1].filtersJson',
      ],
      [
        {
          url: 'https://hooks.example.com/x',
          name: 'x',
          subscriptions: [{ eventType: 'ACTIVITY_UPDATES', filtersJson: '{"activityTypes":["ACTIVITY_TYPE_NOPE"]}' }],
        },
        'parameters.subscriptions[0].filtersJson',
      ],
    ]
    for (const [parameters, field] of cases) {
      const r = await svc.post(
        '/public/v1/submit/create_webhook_endpoint',
        submitBody('ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT', org, parameters),
      )
      expect(r.status, JSON.stringify(parameters)).toBe(400)
      expect(JSON.stringify(r.json), field).toContain(field)
      expect(JSON.stringify(r.json)).not.toContain('secret')
    }
    const badUpdate = await svc.post(
      '/public/v1/submit/update_webhook_endpoint',
      submitBody('ACTIVITY_TYPE_UPDATE_WEBHOOK_ENDPOINT', org, { endpointId: 'no-such-endpoint', name: 'x' }),
    )
    expect(badUpdate.status).toBe(404)
    expect(JSON.stringify(badUpdate.json)).toContain('parameters.endpointId')
    expect((await client.listWebhookEndpoints({ organizationId: org })).webhookEndpoints).toHaveLength(before)
  })

  it("a sub-organization cannot subscribe to billing-scoped events; another organization's endpoint is a 404", async () => {
    const denied = await svc.post(
      '/public/v1/submit/create_webhook_endpoint',
      submitBody('ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT', subOrg, {
        url: 'https://hooks.example.com/s',
        name: 's',
        subscriptions: [{ eventType: 'SEND_TRANSACTION_STATUS_UPDATES' }],
      }),
      subKey.stamper,
    )
    expect(denied.status).toBe(403)
    expect(JSON.stringify(denied.json)).toContain('parameters.subscriptions[0].eventType')
    const parentEndpoint = await createEndpoint('https://hooks.example.com/p', [])
    const foreign = await svc.post(
      '/public/v1/submit/update_webhook_endpoint',
      submitBody('ACTIVITY_TYPE_UPDATE_WEBHOOK_ENDPOINT', subOrg, { endpointId: parentEndpoint.endpointId, name: 'mine' }),
      subKey.stamper,
    )
    expect(foreign.status).toBe(404)
    expect((await client.listWebhookEndpoints({ organizationId: subOrg })).webhookEndpoints).toEqual([])
  })
})

describe('deliveries', () => {
  it('an activity reaches a receiver on 127.0.0.1, signed with the hosted scheme (verified with @turnkey/crypto and the JWKS)', async () => {
    const rx = await receiver()
    const endpoint = await createEndpoint(rx.url, [{ eventType: 'ACTIVITY_UPDATES' }])
    const activityId = await touch()
    const [delivery] = (await rx.waitFor(about(activityId))).filter((w) => activityOf(w).id === activityId)
    if (!delivery) throw new Error('no delivery')

    const jwksRes = await fetch(`${svc.url}/public/v1/discovery/webhooks/jwks`)
    expect(jwksRes.status).toBe(200)
    expect(jwksRes.headers.get('cache-control')).toContain('max-age')
    const jwks = (await jwksRes.json()) as { keys: Array<{ kid: string; x: string; kty: string; crv: string; alg: string }> }
    expect(jwks.keys).toHaveLength(1)
    const [jwk] = jwks.keys
    expect(jwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', turnkey_signature_version: 'v1' })
    const verificationKeys = [
      { keyId: jwk?.kid as string, publicKey: bytesToHex(base64UrlDecode(jwk?.x as string)), algorithm: 'ed25519' as const },
    ]

    expect(delivery.headers['x-turnkey-event-type']).toBe('ACTIVITY_UPDATES')
    expect(delivery.headers['x-turnkey-organization-id']).toBe(org)
    expect(delivery.headers['x-turnkey-signature-algorithm']).toBe('ed25519')
    expect(delivery.headers['x-turnkey-webhook-version']).toBeTruthy()
    const verified = verifyTurnkeyWebhookSignature({
      headers: delivery.headers as Record<string, string>,
      body: delivery.body,
      verificationKeys,
      maxTimestampAgeMs: 60_000,
    })
    expect(verified).toMatchObject({ ok: true, keyId: jwk?.kid })
    // One changed byte of the body, or another key, fails.
    const tampered = verifyTurnkeyWebhookSignature({
      headers: delivery.headers as Record<string, string>,
      body: delivery.body.replace('ACTIVITY_STATUS_COMPLETED', 'ACTIVITY_STATUS_COMPLETEd'),
      verificationKeys,
      maxTimestampAgeMs: 60_000,
    })
    expect(tampered).toMatchObject({ ok: false, reason: 'invalid_signature' })

    // The body is the activity object, as get_activity shows it.
    const body = JSON.parse(delivery.body)
    const { activity } = await client.getActivity({ organizationId: org, activityId })
    expect(body).toMatchObject({ id: activityId, status: 'ACTIVITY_STATUS_COMPLETED', type: 'ACTIVITY_TYPE_CREATE_USER_TAG' })
    expect(body.result).toEqual(activity.result)
    expect(body.intent).toEqual(activity.intent)

    const log = await svc.post('/public/v1/query/list_webhook_deliveries', { organizationId: org, endpointId: endpoint.endpointId })
    expect(log.status).toBe(200)
    const entry = log.json.deliveries.find((d: { eventId: string }) => d.eventId === delivery.headers['x-turnkey-event-id'])
    expect(entry).toMatchObject({ outcome: 'DELIVERED', statusCode: 200, attempt: 1, eventType: 'ACTIVITY_UPDATES' })
  })

  it('a receiver answering 500 then 200 gets the same event again; the log shows both attempts', async () => {
    const rx = await receiver([500])
    const endpoint = await createEndpoint(rx.url, [
      { eventType: 'ACTIVITY_UPDATES', filtersJson: '{"activityTypes":["ACTIVITY_TYPE_CREATE_USER_TAG"]}' },
    ])
    const activityId = await touch()
    const got = await rx.waitFor((list) => list.filter((w) => activityOf(w).id === activityId).length >= 2)
    const both = got.filter((w) => activityOf(w).id === activityId)
    expect(both).toHaveLength(2)
    expect(both[0]?.headers['x-turnkey-event-id']).toBe(both[1]?.headers['x-turnkey-event-id'])
    expect(both[0]?.body).toBe(both[1]?.body)
    // The log entry is written after the receiver answered: wait for it.
    let attempts: Array<{ attempt: number; outcome: string; statusCode?: number; error?: string }> = []
    for (let i = 0; i < 50 && attempts.length < 2; i++) {
      const log = await svc.post('/public/v1/query/list_webhook_deliveries', { organizationId: org, endpointId: endpoint.endpointId })
      attempts = log.json.deliveries
      if (attempts.length < 2) await sleep(20)
    }
    expect(attempts.map((a) => [a.attempt, a.outcome, a.statusCode])).toEqual([
      [2, 'DELIVERED', 200],
      [1, 'RETRY', 500],
    ])
    expect(attempts[1]?.error).toBe('receiver answered 500')
  })

  it('gives up after the last attempt (DEAD)', async () => {
    const rx = await receiver([503, 503, 503, 503])
    const endpoint = await createEndpoint(rx.url, [
      { eventType: 'ACTIVITY_UPDATES', filtersJson: '{"activityTypes":["ACTIVITY_TYPE_CREATE_USER_TAG"]}' },
    ])
    const activityId = await touch()
    await rx.waitFor((list) => list.filter((w) => activityOf(w).id === activityId).length >= 3)
    let outcomes: string[] = []
    for (let i = 0; i < 50 && !outcomes.includes('DEAD'); i++) {
      const log = await svc.post('/public/v1/query/list_webhook_deliveries', { organizationId: org, endpointId: endpoint.endpointId })
      outcomes = log.json.deliveries.map((d: { outcome: string }) => d.outcome)
      await sleep(20)
    }
    expect(outcomes).toEqual(['DEAD', 'RETRY', 'RETRY'])
    await sleep(300)
    expect(rx.received.filter((w) => activityOf(w).id === activityId)).toHaveLength(3)
  })

  it('a failed activity is reported FAILED, never COMPLETED (its rolled-back run queued nothing)', async () => {
    const rx = await receiver()
    await createEndpoint(rx.url, [{ eventType: 'ACTIVITY_UPDATES' }])
    const r = await svc.post(
      '/public/v1/submit/create_user_tag',
      submitBody('ACTIVITY_TYPE_CREATE_USER_TAG', org, { userTagName: 'doomed', userIds: ['no-such-user'] }),
    )
    expect(r.status).toBe(404)
    const activityId = JSON.stringify(r.json).match(/"activityId":"([^"]+)"/)?.[1] as string
    expect(activityId).toBeTruthy()
    await rx.waitFor(about(activityId))
    await sleep(200)
    const mine = rx.received.filter((w) => activityOf(w).id === activityId).map((w) => activityOf(w).status)
    expect(mine).toEqual(['ACTIVITY_STATUS_FAILED'])
  })

  it('outbox rows written in a transaction that rolls back are gone, and nothing is delivered', async () => {
    const rx = await receiver()
    await createEndpoint(rx.url, [{ eventType: 'ACTIVITY_UPDATES' }], subOrg)
    // Rows of any status (the endpoint's own creation event may be delivered meanwhile).
    const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0)
    const before = total(await countOutbox(svc.rt.db, subOrg))
    const now = Date.now()
    const ghost = {
      id: crypto.randomUUID(),
      organization_id: subOrg,
      quorum_org_id: subOrg,
      submitter_user_id: 'u',
      submitter_org_id: subOrg,
      type: 'ACTIVITY_TYPE_CREATE_USER_TAG',
      status: 'ACTIVITY_STATUS_COMPLETED',
      intent_key: 'createUserTagIntent',
      intent: {},
      result_key: 'createUserTagResult',
      result: {},
      failure: null,
      app_proofs: [],
      generate_app_proofs: false,
      fingerprint: 'sha256:00',
      body: '{}',
      timestamp_ms: String(now),
      created_at: now,
      updated_at: now,
    }
    let queuedInside = 0
    // The engine's transaction, rolled back after queueing.
    await expect(
      svc.rt.db.transaction(async (tx) => {
        await queueActivityUpdate(svc.rt, tx, ghost)
        queuedInside = total(await countOutbox(tx, subOrg))
        throw new Error('roll back')
      }),
    ).rejects.toThrow('roll back')
    expect(queuedInside).toBe(before + 1)
    expect(total(await countOutbox(svc.rt.db, subOrg))).toBe(before)
    // Rolled back to a savepoint (a consensus-approved activity whose execution fails), the rest committed.
    const kept = { ...ghost, id: crypto.randomUUID(), status: 'ACTIVITY_STATUS_FAILED' }
    await svc.rt.db.transaction(async (tx) => {
      await tx.savepoint('webhooks_test')
      await queueActivityUpdate(svc.rt, tx, ghost)
      await tx.rollbackTo('webhooks_test')
      await queueActivityUpdate(svc.rt, tx, kept)
    })
    await rx.waitFor(about(kept.id))
    await sleep(300)
    expect(rx.received.some((w) => activityOf(w).id === ghost.id)).toBe(false)
  })

  it('an inactive endpoint or subscription gets nothing; filters choose what is sent', async () => {
    const control = await receiver()
    const inactiveSub = await receiver()
    const inactiveEndpoint = await receiver()
    const filtered = await receiver()
    await createEndpoint(control.url, [{ eventType: 'ACTIVITY_UPDATES' }])
    await createEndpoint(inactiveSub.url, [{ eventType: 'ACTIVITY_UPDATES', isActive: false }])
    const off = await createEndpoint(inactiveEndpoint.url, [{ eventType: 'ACTIVITY_UPDATES' }])
    await client.updateWebhookEndpoint({
      type: 'ACTIVITY_TYPE_UPDATE_WEBHOOK_ENDPOINT',
      timestampMs: ts(),
      organizationId: org,
      parameters: { endpointId: off.endpointId, isActive: false },
    })
    await createEndpoint(filtered.url, [
      { eventType: 'ACTIVITY_UPDATES', filtersJson: '{"activityTypes":["ACTIVITY_TYPE_CREATE_WALLET"]}' },
    ])
    const activityId = await touch()
    await control.waitFor(about(activityId))
    await sleep(300)
    expect(inactiveSub.received).toEqual([])
    expect(inactiveEndpoint.received.some((w) => activityOf(w).id === activityId)).toBe(false)
    expect(filtered.received).toEqual([])
  })

  it("a parent's endpoint hears its sub-organization's activities; a sub-organization's endpoint does not hear the parent's", async () => {
    const parentRx = await receiver()
    const subRx = await receiver()
    await createEndpoint(parentRx.url, [{ eventType: 'ACTIVITY_UPDATES' }])
    await createEndpoint(subRx.url, [{ eventType: 'ACTIVITY_UPDATES' }], subOrg)
    const inSub = await touch(subOrg)
    const inParent = await touch(org)
    const got = await parentRx.waitFor((l) => about(inSub)(l) && about(inParent)(l))
    const fromSub = got.find((w) => activityOf(w).id === inSub)
    expect(fromSub?.headers['x-turnkey-organization-id']).toBe(subOrg)
    await subRx.waitFor(about(inSub))
    await sleep(200)
    expect(subRx.received.some((w) => activityOf(w).id === inParent)).toBe(false)
  })

  it('a destination that turns private after creation is refused at delivery time (outside dev mode)', async () => {
    const rx = await receiver()
    const endpoint = await createEndpoint(rx.url, [
      { eventType: 'ACTIVITY_UPDATES', filtersJson: '{"activityTypes":["ACTIVITY_TYPE_CREATE_USER_TAG"]}' },
    ])
    svc.rt.config.webhooks.allowPrivateUrls = false
    try {
      const activityId = await touch()
      let first: { error?: string; outcome?: string } | undefined
      for (let i = 0; i < 100 && !first; i++) {
        const log = await svc.post('/public/v1/query/list_webhook_deliveries', { organizationId: org, endpointId: endpoint.endpointId })
        first = log.json.deliveries[0]
        if (!first) await sleep(20)
      }
      expect(first).toMatchObject({ outcome: 'RETRY', error: 'destination refused: resolves to a loopback or private address' })
      expect(first).not.toHaveProperty('statusCode')
      expect(rx.received.some((w) => activityOf(w).id === activityId)).toBe(false)
    } finally {
      svc.rt.config.webhooks.allowPrivateUrls = true
    }
  })
})

describe('consensus', () => {
  it('CONSENSUS_NEEDED, then COMPLETED on approval, then REJECTED for another: one event per status, with the votes', async () => {
    const keys = [newApiKey('m1'), newApiKey('m2'), newApiKey('m3')]
    const r = await svc.post(
      '/public/v1/submit/create_sub_organization',
      submitBody('ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', org, {
        subOrganizationName: 'council',
        rootUsers: keys.map((k, i) => rootUser(`m${i}`, [k.param])),
        rootQuorumThreshold: 2,
      }),
    )
    const council = r.json.activity.result.createSubOrganizationResultV8.subOrganizationId as string
    const propose = async (op: string, type: string, parameters: unknown) =>
      (await svc.post(`/public/v1/submit/${op}`, submitBody(type, council, parameters), keys[0]?.stamper)).json.activity as {
        id: string
        fingerprint: string
        status: string
      }
    const vote = (kind: 'approve' | 'reject', fingerprint: string, voter = keys[1]) =>
      svc.post(
        `/public/v1/submit/${kind}_activity`,
        submitBody(kind === 'approve' ? 'ACTIVITY_TYPE_APPROVE_ACTIVITY' : 'ACTIVITY_TYPE_REJECT_ACTIVITY', council, { fingerprint }),
        voter?.stamper,
      )
    // The council's endpoint is made by the council itself, two of its members agreeing (custody).
    const rx = await receiver()
    const endpoint = await propose('create_webhook_endpoint', 'ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT', {
      url: rx.url,
      name: 'hook',
      subscriptions: [{ eventType: 'ACTIVITY_UPDATES', filtersJson: '{"activityTypes":["ACTIVITY_TYPE_CREATE_USER_TAG"]}' }],
    })
    expect(endpoint.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    expect((await vote('approve', endpoint.fingerprint)).status).toBe(200)
    expect((await client.listWebhookEndpoints({ organizationId: council })).webhookEndpoints.map((e) => e.url)).toEqual([rx.url])
    const proposeTag = (name: string) => propose('create_user_tag', 'ACTIVITY_TYPE_CREATE_USER_TAG', { userTagName: name, userIds: [] })
    const yes = await proposeTag('approved')
    const no = await proposeTag('rejected')
    expect(yes.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    expect((await vote('approve', yes.fingerprint)).status).toBe(200)
    // One rejection leaves the threshold reachable (no status change, no event); the second ends it.
    expect((await vote('reject', no.fingerprint)).status).toBe(200)
    await sleep(200)
    expect((await vote('reject', no.fingerprint, keys[2])).status).toBe(200)
    const statusesOf = (id: string) => rx.received.filter((w) => activityOf(w).id === id).map((w) => activityOf(w).status)
    await rx.waitFor(() => statusesOf(yes.id).length >= 2 && statusesOf(no.id).length >= 2)
    await sleep(200)
    expect(statusesOf(yes.id).sort()).toEqual(['ACTIVITY_STATUS_COMPLETED', 'ACTIVITY_STATUS_CONSENSUS_NEEDED'])
    expect(statusesOf(no.id).sort()).toEqual(['ACTIVITY_STATUS_CONSENSUS_NEEDED', 'ACTIVITY_STATUS_REJECTED'])
    const completed = rx.received.find((w) => activityOf(w).id === yes.id && activityOf(w).status === 'ACTIVITY_STATUS_COMPLETED')
    const body = JSON.parse(completed?.body ?? '{}') as { votes: unknown[]; result: Record<string, unknown> }
    expect(body.votes).toHaveLength(2)
    expect(body.result).toHaveProperty('createUserTagResult')
  })
})

describe('outside dev mode', () => {
  let prod: TestService
  beforeAll(async () => {
    const production = resolveConfig({ NODE_ENV: 'production' }).webhooks
    expect(production.allowPrivateUrls).toBe(false)
    prod = await startTestService({ webhooks: production })
  })
  afterAll(async () => {
    await prod?.stop()
  })

  it('refuses URLs that are or resolve to loopback, private, link-local or unique-local addresses', async () => {
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://localhost/hook',
      'https://10.1.2.3/hook',
      'https://192.168.1.1/',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/',
      'https://[fd00::1]/',
      'https://[::ffff:127.0.0.1]/',
      'http://0.0.0.0/',
    ]) {
      const r = await prod.post(
        '/public/v1/submit/create_webhook_endpoint',
        submitBody('ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT', prod.admin.organizationId, { url, name: 'x', subscriptions: [] }),
      )
      expect(r.status, url).toBe(400)
      expect(JSON.stringify(r.json)).toContain('parameters.url')
    }
    // A public address is accepted (no resolution needed for an IP literal).
    const ok = await prod.post(
      '/public/v1/submit/create_webhook_endpoint',
      submitBody('ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT', prod.admin.organizationId, {
        url: 'https://93.184.215.14/hook',
        name: 'x',
        subscriptions: [],
      }),
    )
    expect(ok.status).toBe(200)
  })
})
