/**
 * Regression tests for the defect classes the fuzz suite (test/fuzz) found: input the database
 * cannot store must be a 400 naming the field (wire-formats A3), never a 500, and leave nothing.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_AUTHENTICATORS_PER_USER, MAX_RAW_PAYLOADS, MAX_STATUS_FILTER, MAX_USERS } from '../../src/api/limits.js'
import { newApiKey, rootUser } from './helpers/keys.js'
import { startTestService, submitBody, type TestService } from './helpers/service.js'

const S = '/public/v1/submit/'
const Q = '/public/v1/query/'

/** Random hex: incompressible, so the database cannot squeeze it into an index entry. */
const noise = (chars: number) => randomBytes(chars / 2).toString('hex')

let svc: TestService
let org: string
const key = newApiKey('hostile')

function expectFieldError(r: { status: number; json: any }, status: number, field: string) {
  expect(r.status, JSON.stringify(r.json).slice(0, 500)).toBe(status)
  expect(typeof r.json.code).toBe('number')
  expect(r.json.message).toContain(field)
  const bad = (r.json.details as any[]).find((d) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest')
  expect(bad.fieldViolations[0].field).toBe(field)
}

beforeAll(async () => {
  svc = await startTestService()
  const r = await svc.post(
    `${S}create_sub_organization`,
    submitBody('ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', svc.admin.organizationId, {
      subOrganizationName: 'hostile',
      rootUsers: [rootUser('hostile', [key.param])],
      rootQuorumThreshold: 1,
    }),
  )
  expect(r.status, JSON.stringify(r.json)).toBe(200)
  org = r.json.activity.result.createSubOrganizationResultV8.subOrganizationId
})

afterAll(async () => {
  await svc?.stop()
})

describe('text the database cannot store', () => {
  it('a lone UTF-16 surrogate, in a value or a key, is a 400 naming the field', async () => {
    for (const walletName of ['a\ud800', '\udfffb', 'x\udc00\ud800y']) {
      const r = await svc.post(
        `${S}create_wallet`,
        submitBody('ACTIVITY_TYPE_CREATE_WALLET', org, { walletName, accounts: [] }),
        key.stamper,
      )
      expectFieldError(r, 400, 'parameters.walletName')
    }
    const inKey = await svc.post(
      `${S}create_wallet`,
      submitBody('ACTIVITY_TYPE_CREATE_WALLET', org, { walletName: 'w', accounts: [], 'k\ud800': 1 }),
      key.stamper,
    )
    expectFieldError(inKey, 400, 'parameters.k\ud800')
    const inQuery = await svc.post(`${Q}get_wallet`, { organizationId: org, walletId: '\ud800' }, key.stamper)
    expectFieldError(inQuery, 400, 'walletId')
    const inArray = await svc.post(
      `${Q}list_activities`,
      { organizationId: org, filterByStatus: ['ACTIVITY_STATUS_COMPLETED', '\udc00'] },
      key.stamper,
    )
    expectFieldError(inArray, 400, 'filterByStatus[1]')
    // A well-formed pair (an emoji) is ordinary text.
    const emoji = await svc.post(
      `${S}create_wallet`,
      submitBody('ACTIVITY_TYPE_CREATE_WALLET', org, { walletName: 'w 😀', accounts: [] }),
      key.stamper,
    )
    expect(emoji.status, JSON.stringify(emoji.json)).toBe(200)
    const wallets = await svc.post(`${Q}list_wallets`, { organizationId: org }, key.stamper)
    expect((wallets.json.wallets as Array<{ walletName: string }>).map((w) => w.walletName)).toEqual(['w 😀'])
  })

  it('a deeply nested body is refused without exhausting the stack', async () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`
    const body = `{"y":"\\ud800","type":"ACTIVITY_TYPE_CREATE_WALLET","parameters":{"walletName":"w","accounts":[],"x":${deep}},"organizationId":"${org}","timestampMs":"${Date.now()}"}`
    const r = await svc.post(`${S}create_wallet`, body, key.stamper)
    expect(r.status).toBe(400)
    expect(r.json.message).toMatch(/nested more deeply/)
    expect(r.json.details).toContainEqual({ '@type': 'type.googleapis.com/sigil.ErrorInfo', reason: 'INVALID_JSON' })
    // The service still answers.
    expect((await svc.post(`${Q}list_wallets`, { organizationId: org }, key.stamper)).status).toBe(200)
  })
})

describe('values too large for the database', () => {
  it('an otpId of any size that names no OTP is a 404 naming it, checked before anything else; never a 500', async () => {
    // Migration 019 dropped the index that held otpIds (activities_otp_id): a huge otpId is no longer
    // too large for the database, only an id of no OTP, whichever verify_otp version carries it and
    // whatever else is wrong with the request (an unreadable bundle, a malformed public key).
    const before = await svc.post(`${Q}list_activities`, { organizationId: org }, key.stamper)
    for (const otpId of [noise(10_000), noise(200_000)]) {
      const v2 = await svc.post(
        `${S}verify_otp`,
        submitBody('ACTIVITY_TYPE_VERIFY_OTP_V2', org, { otpId, encryptedOtpBundle: 'x' }),
        key.stamper,
      )
      expectFieldError(v2, 404, 'parameters.otpId')
      const v1 = await svc.post(
        `${S}verify_otp`,
        submitBody('ACTIVITY_TYPE_VERIFY_OTP', org, { otpId, otpCode: '123456', publicKey: 'not a key' }),
        key.stamper,
      )
      expectFieldError(v1, 404, 'parameters.otpId')
    }
    // Each refusal is recorded as a FAILED activity (A2), as any refused activity is; nothing else.
    const after = await svc.post(`${Q}list_activities`, { organizationId: org }, key.stamper)
    const known = new Set((before.json.activities as Array<{ id: string }>).map((a) => a.id))
    const added = (after.json.activities as Array<{ id: string; status: string }>).filter((a) => !known.has(a.id))
    expect(added.map((a) => a.status)).toEqual(Array(4).fill('ACTIVITY_STATUS_FAILED'))
  })

  it('a user e-mail too large for its index is a 400 naming it, and the activity commits nothing', async () => {
    const userEmail = `${noise(20_000)}@example.com`
    const r = await svc.post(
      `${S}create_users`,
      submitBody('ACTIVITY_TYPE_CREATE_USERS_V3', org, {
        users: [
          { userName: 'first', apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] },
          { userName: 'second', userEmail, apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] },
        ],
      }),
      key.stamper,
    )
    expectFieldError(r, 400, 'parameters.users[1].userEmail')
    const users = await svc.post(`${Q}list_users`, { organizationId: org }, key.stamper)
    expect((users.json.users as Array<{ userName: string }>).map((u) => u.userName)).toEqual(['hostile'])
  })
})

describe('arrays of many invalid elements', () => {
  const user = (extra: object) => ({ userName: 'u', apiKeys: [], authenticators: [], oauthProviders: [], userTags: [], ...extra })

  it('hundreds of thousands of invalid elements are a 400 naming the array, not a crash of the validator', async () => {
    const users = [user({ authenticators: Array(130_000).fill('x') }), user({})]
    const r = await svc.post(`${S}create_users`, submitBody('ACTIVITY_TYPE_CREATE_USERS_V3', org, { users }), key.stamper)
    expectFieldError(r, 400, 'parameters.users[0].authenticators')
    const q = await svc.post(`${Q}list_activities`, { organizationId: org, filterByStatus: [[], Array(200_000).fill(0)] }, key.stamper)
    expect(q.status, JSON.stringify(q.json).slice(0, 500)).toBe(400)
  })

  it('an error body lists at most 100 field violations', async () => {
    // As many users as allowed, each missing its five required fields: 500 violations.
    const users = Array(MAX_USERS).fill({})
    const r = await svc.post(`${S}create_users`, submitBody('ACTIVITY_TYPE_CREATE_USERS_V3', org, { users }), key.stamper)
    expectFieldError(r, 400, 'parameters.users[0].userName')
    const bad = (r.json.details as any[]).find((d) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest')
    expect(bad.fieldViolations).toHaveLength(100)
  })
})

describe('arrays longer than their maximum (src/api/limits.ts)', () => {
  const user = (extra: object) => ({ userName: 'u', apiKeys: [], authenticators: [], oauthProviders: [], userTags: [], ...extra })

  async function stored() {
    const page = { limit: '100' }
    const activities = await svc.post(`${Q}list_activities`, { organizationId: org, paginationOptions: page }, key.stamper)
    const users = await svc.post(`${Q}list_users`, { organizationId: org }, key.stamper)
    return {
      activities: (activities.json.activities as unknown[]).length,
      users: (users.json.users as Array<{ userName: string }>).map((u) => u.userName).sort(),
    }
  }

  function expectTooMany(r: { status: number; json: any }, field: string, max: number) {
    expectFieldError(r, 400, field)
    expect(r.json.message).toBe(`${field}: must have at most ${max} items`)
    const bad = (r.json.details as any[]).find((d) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest')
    expect(bad.fieldViolations).toHaveLength(1)
  }

  it('create_users: 200,000 authenticators (about 1 MB) are refused naming the array and its maximum', async () => {
    const before = await stored()
    const users = [user({ authenticators: Array(200_000).fill('x') })]
    const r = await svc.post(`${S}create_users`, submitBody('ACTIVITY_TYPE_CREATE_USERS_V3', org, { users }), key.stamper)
    expectTooMany(r, 'parameters.users[0].authenticators', MAX_AUTHENTICATORS_PER_USER)
    expect(await stored()).toEqual(before)
  })

  it('create_users: one user more than allowed is refused naming users', async () => {
    const before = await stored()
    const users = Array.from({ length: MAX_USERS + 1 }, (_, i) => user({ userName: `many-${i}` }))
    const r = await svc.post(`${S}create_users`, submitBody('ACTIVITY_TYPE_CREATE_USERS_V3', org, { users }), key.stamper)
    expectTooMany(r, 'parameters.users', MAX_USERS)
    expect(await stored()).toEqual(before)
  })

  it('sign_raw_payloads: one payload more than allowed is refused naming payloads', async () => {
    const before = await stored()
    const r = await svc.post(
      `${S}sign_raw_payloads`,
      submitBody('ACTIVITY_TYPE_SIGN_RAW_PAYLOADS', org, {
        signWith: `0x${'11'.repeat(20)}`,
        payloads: Array(MAX_RAW_PAYLOADS + 1).fill('ab'.repeat(32)),
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_NOT_APPLICABLE',
      }),
      key.stamper,
    )
    expectTooMany(r, 'parameters.payloads', MAX_RAW_PAYLOADS)
    expect(await stored()).toEqual(before)
  })

  it('delete_users: one user id more than allowed is refused naming userIds, and no user is deleted', async () => {
    const before = await stored()
    const listed = await svc.post(`${Q}list_users`, { organizationId: org }, key.stamper)
    const ids = (listed.json.users as Array<{ userId: string }>).map((u) => u.userId)
    const userIds = [...ids, ...Array.from({ length: MAX_USERS + 1 - ids.length }, (_, i) => `absent-${i}`)]
    const r = await svc.post(`${S}delete_users`, submitBody('ACTIVITY_TYPE_DELETE_USERS', org, { userIds }), key.stamper)
    expectTooMany(r, 'parameters.userIds', MAX_USERS)
    expect(await stored()).toEqual(before)
  })

  it('list_activities: a status filter longer than the statuses there are is refused naming filterByStatus', async () => {
    const r = await svc.post(
      `${Q}list_activities`,
      { organizationId: org, filterByStatus: Array(20_000).fill('ACTIVITY_STATUS_COMPLETED') },
      key.stamper,
    )
    expectTooMany(r, 'filterByStatus', MAX_STATUS_FILTER)
  })
})

describe('request bodies are I-JSON, sent as JSON', () => {
  const raw = async (path: string, text: string | Uint8Array, headers: Record<string, string>) => {
    const bytes = new Uint8Array(typeof text === 'string' ? new TextEncoder().encode(text) : text)
    const s = await key.stamper.stamp(new TextDecoder().decode(bytes))
    const res = await fetch(`${svc.url}${path}`, {
      method: 'POST',
      headers: { ...headers, [s.stampHeaderName]: s.stampHeaderValue },
      body: bytes,
    })
    return { status: res.status, json: (await res.json()) as any }
  }
  const reasonOf = (json: any) => (json.details as any[]).find((d) => d['@type'] === 'type.googleapis.com/sigil.ErrorInfo')?.reason

  it('a repeated organizationId is refused, not resolved to the last one; nothing is stored', async () => {
    const before = await svc.post(`${Q}list_wallets`, { organizationId: org }, key.stamper)
    const other = svc.admin.organizationId
    const text = `{"type":"ACTIVITY_TYPE_CREATE_WALLET","timestampMs":"${Date.now()}","organizationId":"${other}","organizationId":"${org}","parameters":{"walletName":"dup","accounts":[]}}`
    const r = await raw(`${S}create_wallet`, text, { 'Content-Type': 'application/json' })
    expectFieldError(r, 400, 'organizationId')
    expect(reasonOf(r.json)).toBe('INVALID_JSON')
    const after = await svc.post(`${Q}list_wallets`, { organizationId: org }, key.stamper)
    expect(after.json.wallets).toEqual(before.json.wallets)
  })

  it('a leading byte order mark and invalid UTF-8 are INVALID_JSON', async () => {
    const body = JSON.stringify({ organizationId: org })
    const bom = await raw(`${Q}list_wallets`, new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(body)]), {})
    expect([bom.status, reasonOf(bom.json)]).toEqual([400, 'INVALID_JSON'])
    const bad = new TextEncoder().encode(`{"organizationId":"${org}","x":"__"}`)
    bad.set([0xc3, 0x28], bad.length - 4)
    const utf8 = await raw(`${Q}list_wallets`, bad, { 'Content-Type': 'application/json' })
    expect([utf8.status, reasonOf(utf8.json)]).toEqual([400, 'INVALID_JSON'])
  })

  it('a body declared as anything but JSON is 415; JSON with parameters, or no declared type, is read', async () => {
    const body = JSON.stringify({ organizationId: org })
    for (const type of [
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonx',
    ]) {
      const r = await raw(`${Q}list_wallets`, body, { 'Content-Type': type })
      expect(r.status, type).toBe(415)
      expect(reasonOf(r.json)).toBe('UNSUPPORTED_MEDIA_TYPE')
      expect(r.json.message).toMatch(/^Content-Type: must be application\/json/)
    }
    for (const type of ['application/json; charset=utf-8', 'Application/JSON']) {
      expect((await raw(`${Q}list_wallets`, body, { 'Content-Type': type })).status, type).toBe(200)
    }
    // fetch without a declared type sends text/plain for a string body; a Uint8Array goes without one.
    expect((await raw(`${Q}list_wallets`, new TextEncoder().encode(body), {})).status).toBe(200)
  })
})
