import { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SUBMIT_OPERATIONS } from '../../src/api/registry.js'
import { base64UrlEncode, utf8Encode } from '../../src/crypto/encoding.js'
import { decodeJwtPayload, signSessionJwt } from '../../src/crypto/jwt.js'
import { generateP256KeyPair } from '../../src/crypto/p256.js'
import { newApiKey, rootUser } from './helpers/keys.js'
import { adminTurnkeyClient, startTestService, submitBody, type TestService } from './helpers/service.js'

let svc: TestService
let admin: TurnkeyClient
let org: string
let adminUserId: string
let walletId: string
let offsetMs = 0

const ts = () => String(Date.now() + offsetMs)
const Q = '/public/v1/query/'

/** What a client sends a read-only session with: the `X-Session` header, in place of a stamp. */
const sessionStamper = (session: string) => ({
  stamp: async () => ({ stampHeaderName: 'X-Session', stampHeaderValue: session }),
})
const sessionClient = (session: string) => new TurnkeyClient({ baseUrl: svc.url }, sessionStamper(session))

async function createSession(client: TurnkeyClient, organizationId: string) {
  const r = await client.createReadOnlySession({
    type: 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION',
    timestampMs: ts(),
    organizationId,
    parameters: {},
  })
  expect(r.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
  expect(r.activity.intent.createReadOnlySessionIntent).toEqual({})
  return r.activity.result.createReadOnlySessionResult!
}

/** Every activity of `organizationId` as the admin sees it (the proof that nothing was recorded). */
async function activityIds(organizationId = org): Promise<string[]> {
  const r = await admin.getActivities({ organizationId, paginationOptions: { limit: '100' } })
  return r.activities.map((a) => a.id).sort()
}

beforeAll(async () => {
  svc = await startTestService({ now: () => Date.now() + offsetMs })
  org = svc.admin.organizationId
  admin = adminTurnkeyClient(svc)
  adminUserId = (await admin.getWhoami({ organizationId: org })).userId
  const w = await admin.createWallet({
    type: 'ACTIVITY_TYPE_CREATE_WALLET',
    timestampMs: ts(),
    organizationId: org,
    parameters: {
      walletName: 'read me',
      accounts: [
        { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
      ],
    },
  })
  walletId = w.activity.result.createWalletResult!.walletId
})
afterAll(async () => {
  await svc?.stop()
})

describe('create_read_only_session', () => {
  it('returns a one-hour SESSION_TYPE_READ_ONLY session of the stamping user', async () => {
    const before = Math.floor(Date.now() / 1000)
    const r = await createSession(admin, org)
    expect(r.organizationId).toBe(org)
    expect(r.userId).toBe(adminUserId)
    expect(r.username.length).toBeGreaterThan(0)
    expect(r.organizationName).toBe((await admin.getOrganization({ organizationId: org })).organizationData.name)
    const expiry = Number(r.sessionExpiry)
    expect(expiry).toBeGreaterThanOrEqual(before + 3600)
    expect(expiry).toBeLessThanOrEqual(before + 3602)
    const claims = decodeJwtPayload(r.session)
    expect(claims).toMatchObject({ session_type: 'SESSION_TYPE_READ_ONLY', user_id: adminUserId, organization_id: org, exp: expiry })
  })

  it('reads with the session through the client: whoami, wallets, accounts, users, activities', async () => {
    const { session } = await createSession(admin, org)
    const reader = sessionClient(session)
    const who = await reader.getWhoami({ organizationId: org })
    expect(who.userId).toBe(adminUserId)
    expect(who.organizationId).toBe(org)
    const wallets = await reader.getWallets({ organizationId: org })
    expect(wallets.wallets.map((w) => w.walletId)).toContain(walletId)
    const accounts = await reader.getWalletAccounts({ organizationId: org, walletId })
    expect(accounts.accounts[0]?.address).toMatch(/^0x[0-9a-fA-F]{40}$/)
    const users = await reader.getUsers({ organizationId: org })
    expect(users.users.map((u) => u.userId)).toContain(adminUserId)
    const activities = await reader.getActivities({ organizationId: org })
    expect(activities.activities.length).toBeGreaterThan(0)
  })

  it('every submit path refuses the session with 403, whatever the type, and records nothing', async () => {
    const { session } = await createSession(admin, org)
    const before = await activityIds()
    const statuses: string[] = []
    for (const d of SUBMIT_OPERATIONS) {
      const res = await svc.post(d.path, submitBody(d.type, org, {}, { timestampMs: ts() }), null, { 'X-Session': session })
      if (res.status !== 403 || res.json.message !== 'a read-only session cannot submit activities') {
        statuses.push(`${d.path} ${d.type}: ${res.status} ${JSON.stringify(res.json).slice(0, 200)}`)
      }
    }
    expect(statuses).toEqual([])
    expect(SUBMIT_OPERATIONS.length).toBeGreaterThan(80)
    // The official client gets PERMISSION_DENIED (gRPC 7) too, with valid parameters.
    const reader = sessionClient(session)
    const err = await reader
      .createWallet({
        type: 'ACTIVITY_TYPE_CREATE_WALLET',
        timestampMs: ts(),
        organizationId: org,
        parameters: { walletName: 'never', accounts: [] },
      })
      .catch((e: unknown) => e)
    expect(err).toMatchObject({ name: 'TurnkeyRequestError', code: 7 })
    expect(await activityIds()).toEqual(before)
    expect((await admin.getWallets({ organizationId: org })).wallets.map((w) => w.walletName)).not.toContain('never')
  })

  it('a stamp wins over an X-Session header sent with it', async () => {
    const { session } = await createSession(admin, org)
    const res = await svc.post(`${Q}whoami`, { organizationId: org }, svc.adminStamper, { 'X-Session': session })
    expect(res.status).toBe(200)
    expect(res.json.userId).toBe(adminUserId)
  })

  it('refuses an expired session (401), then reads again within its hour', async () => {
    const { session } = await createSession(admin, org)
    offsetMs = 3601_000
    try {
      const res = await svc.post(`${Q}whoami`, { organizationId: org }, null, { 'X-Session': session })
      expect(res.status).toBe(401)
      expect(res.json.message).toContain('expired')
      const err = await sessionClient(session)
        .getWallets({ organizationId: org })
        .catch((e: unknown) => e)
      expect(err).toMatchObject({ name: 'TurnkeyRequestError', code: 16 })
    } finally {
      offsetMs = 0
    }
    expect((await svc.post(`${Q}whoami`, { organizationId: org }, null, { 'X-Session': session })).status).toBe(200)
  })

  it('refuses forged, tampered, read-write and malformed sessions (401)', async () => {
    const { session } = await createSession(admin, org)
    const claims = {
      exp: Math.floor(Date.now() / 1000) + 600,
      public_key: '02' + '11'.repeat(32),
      user_id: adminUserId,
      organization_id: org,
    }
    const otherKey = generateP256KeyPair().privateKey
    const forged = signSessionJwt({ claims: { ...claims, session_type: 'SESSION_TYPE_READ_ONLY' }, signerPrivateKey: otherKey })
    const [h, , s] = session.split('.')
    const tamperedPayload = base64UrlEncode(
      utf8Encode(JSON.stringify({ ...claims, session_type: 'SESSION_TYPE_READ_ONLY', exp: claims.exp + 99999 })),
    )
    const tampered = `${h}.${tamperedPayload}.${s}`
    for (const bad of [forged, tampered, 'not-a-jwt', `${session}x`]) {
      const res = await svc.post(`${Q}whoami`, { organizationId: org }, null, { 'X-Session': bad })
      expect(res.status).toBe(401)
    }
    // A read-write session JWT (stamp_login) is no credential: it only names the client's own key.
    const login = generateP256KeyPair()
    const sl = await admin.stampLogin({
      type: 'ACTIVITY_TYPE_STAMP_LOGIN',
      timestampMs: ts(),
      organizationId: org,
      parameters: { publicKey: Buffer.from(login.publicKey).toString('hex') },
    })
    const rw = sl.activity.result.stampLoginResult!.session
    expect(decodeJwtPayload(rw)?.session_type).toBe('SESSION_TYPE_READ_WRITE')
    const res = await svc.post(`${Q}whoami`, { organizationId: org }, null, { 'X-Session': rw })
    expect(res.status).toBe(401)
    expect(res.json.message).toContain('SESSION_TYPE_READ_ONLY')
  })

  it("reads its own organization and the sub-organizations below it, never a parent's", async () => {
    const key = newApiKey('sub root')
    const sub = await svc.post(
      '/public/v1/submit/create_sub_organization',
      submitBody('ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', org, {
        subOrganizationName: 'ro sub',
        rootUsers: [rootUser('subby', [key.param])],
        rootQuorumThreshold: 1,
      }),
    )
    expect(sub.status).toBe(200)
    const subOrgId = sub.json.activity.result.createSubOrganizationResultV8.subOrganizationId as string
    const subClient = new TurnkeyClient({ baseUrl: svc.url }, key.stamper)
    const subSession = await createSession(subClient, subOrgId)
    expect(subSession.organizationId).toBe(subOrgId)
    const subReader = sessionClient(subSession.session)
    expect((await subReader.getWhoami({ organizationId: subOrgId })).organizationId).toBe(subOrgId)
    const up = await svc.post(`${Q}list_wallets`, { organizationId: org }, null, { 'X-Session': subSession.session })
    expect(up.status).toBe(403)
    // The parent's session reads the sub-organization, as the parent's credentials do.
    const parentReader = sessionClient((await createSession(admin, org)).session)
    const users = await parentReader.getUsers({ organizationId: subOrgId })
    expect(users.users.map((u) => u.userName)).toEqual(['subby'])
  })

  it("stops when the session's user is deleted (401)", async () => {
    const a = newApiKey('a')
    const b = newApiKey('b')
    const sub = await svc.post(
      '/public/v1/submit/create_sub_organization',
      submitBody('ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', org, {
        subOrganizationName: 'two roots',
        rootUsers: [rootUser('ann', [a.param]), rootUser('ben', [b.param])],
        rootQuorumThreshold: 1,
      }),
    )
    expect(sub.status).toBe(200)
    const { subOrganizationId: subOrgId, rootUserIds } = sub.json.activity.result.createSubOrganizationResultV8
    const benSession = await createSession(new TurnkeyClient({ baseUrl: svc.url }, b.stamper), subOrgId)
    expect(benSession.userId).toBe(rootUserIds[1])
    const read = () => svc.post(`${Q}whoami`, { organizationId: subOrgId }, null, { 'X-Session': benSession.session })
    expect((await read()).json.userId).toBe(rootUserIds[1])
    const S = '/public/v1/submit/'
    const quorum = await svc.post(
      `${S}update_root_quorum`,
      submitBody('ACTIVITY_TYPE_UPDATE_ROOT_QUORUM', subOrgId, { threshold: 1, userIds: [rootUserIds[0]] }),
      a.stamper,
    )
    expect(quorum.status).toBe(200)
    const del = await svc.post(
      `${S}delete_users`,
      submitBody('ACTIVITY_TYPE_DELETE_USERS', subOrgId, { userIds: [rootUserIds[1]] }),
      a.stamper,
    )
    expect(del.status).toBe(200)
    const after = await read()
    expect(after.status).toBe(401)
    expect(after.json.message).toContain('no longer exists')
  })

  it('answers an X-Session on a submit with 403 before the organization is even looked up', async () => {
    const res = await svc.post(
      '/public/v1/submit/create_wallet',
      submitBody('ACTIVITY_TYPE_CREATE_WALLET', 'no-such-org', { walletName: 'x', accounts: [] }),
      null,
      { 'X-Session': 'garbage' },
    )
    expect(res.status).toBe(403)
    expect(res.json.message).toBe('a read-only session cannot submit activities')
  })
})
