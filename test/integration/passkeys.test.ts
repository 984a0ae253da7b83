/**
 * Passkeys end to end against the real service (wire-formats A4, B1.2; toolchain.md §5):
 * registration in create_sub_organization and create_authenticators V2, X-Stamp-Webauthn
 * stamps, sub-organization credential resolution from the parent's id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Stamper } from '../../src/api/stamper.js'
import { base64UrlDecode, base64UrlEncode } from '../../src/crypto/encoding.js'
import { EXTENSION_ORIGIN } from '../../src/api/identity.js'
import {
  AUTH_DATA_FLAGS,
  authenticatorParam,
  createSoftAuthenticator,
  randomChallenge,
  type SoftAuthenticator,
} from '../helpers/softAuthenticator.js'
import { startTestService, submitBody, type TestService } from './helpers/service.js'

const CREATE_SUB_ORG = '/public/v1/submit/create_sub_organization'
const CREATE_AUTHENTICATORS = '/public/v1/submit/create_authenticators'
const LIST_USERS = '/public/v1/query/list_users'
const LIST_ACTIVITIES = '/public/v1/query/list_activities'
const WHOAMI = '/public/v1/query/whoami'

let svc: TestService
let rootOrgId: string
let subOrgId: string
let subUserId: string
let passkey: SoftAuthenticator

/** The field paths of a wire error's BadRequest detail. */
function violatedFields(json: any): string[] {
  const details: any[] = Array.isArray(json?.details) ? json.details : []
  return details.flatMap((d) => (Array.isArray(d.fieldViolations) ? d.fieldViolations.map((v: any) => String(v.field)) : []))
}

function reasonOf(json: any): string | undefined {
  const details: any[] = Array.isArray(json?.details) ? json.details : []
  return details.find((d) => typeof d.reason === 'string')?.reason
}

async function createSubOrg(name: string, soft: SoftAuthenticator, stamper?: Stamper) {
  const rootUser = {
    userName: `${name} root`,
    apiKeys: [],
    authenticators: [authenticatorParam(soft, randomChallenge(), `${name} passkey`)],
    oauthProviders: [],
  }
  return svc.post(
    CREATE_SUB_ORG,
    submitBody('ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', rootOrgId, {
      subOrganizationName: name,
      rootUsers: [rootUser],
      rootQuorumThreshold: 1,
    }),
    stamper,
  )
}

async function listUsers(orgId: string, stamper?: Stamper) {
  return svc.post(LIST_USERS, { organizationId: orgId }, stamper)
}

async function authenticatorIdsOf(orgId: string): Promise<string[]> {
  const res = await listUsers(orgId)
  expect(res.status).toBe(200)
  return (res.json.users as any[]).flatMap((u) => (u.authenticators as any[]).map((a) => String(a.credentialId))).sort()
}

async function createAuthenticatorsActivities(orgId: string): Promise<any[]> {
  const res = await svc.post(LIST_ACTIVITIES, {
    organizationId: orgId,
    filterByType: ['ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2'],
  })
  expect(res.status).toBe(200)
  return res.json.activities as any[]
}

function addPasskey(orgId: string, userId: string, param: unknown, stamper?: Stamper) {
  return svc.post(
    CREATE_AUTHENTICATORS,
    submitBody('ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2', orgId, { authenticators: [param], userId }),
    stamper,
  )
}

beforeAll(async () => {
  svc = await startTestService()
  rootOrgId = svc.admin.organizationId
  passkey = createSoftAuthenticator({ rpId: EXTENSION_ORIGIN, origin: EXTENSION_ORIGIN })
})

afterAll(async () => {
  await svc?.stop()
})

describe('passkey registration in create_sub_organization', () => {
  it('creates a sub-organization whose root user holds the passkey', async () => {
    const res = await createSubOrg('Passkey Org', passkey)
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(res.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    const result = res.json.activity.result.createSubOrganizationResultV8
    expect(typeof result.subOrganizationId).toBe('string')
    subOrgId = result.subOrganizationId
    subUserId = result.rootUserIds[0]

    const users = await listUsers(subOrgId)
    expect(users.status, JSON.stringify(users.json)).toBe(200)
    expect(users.json.users).toHaveLength(1)
    const [user] = users.json.users
    expect(user.userId).toBe(subUserId)
    expect(user.authenticators).toHaveLength(1)
    expect(user.authenticators[0].credentialId).toBe(passkey.credentialId)
    expect(user.authenticators[0].authenticatorName).toBe('Passkey Org passkey')
    expect(user.authenticators[0].transports).toEqual(['AUTHENTICATOR_TRANSPORT_INTERNAL'])
  })
})

describe('X-Stamp-Webauthn', () => {
  it('whoami on the sub-organization resolves to its root user', async () => {
    const res = await svc.post(WHOAMI, { organizationId: subOrgId }, passkey.stamper())
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(res.json).toMatchObject({ organizationId: subOrgId, organizationName: 'Passkey Org', userId: subUserId })
  })

  it('whoami naming the parent organization still resolves to the sub-organization user', async () => {
    const res = await svc.post(WHOAMI, { organizationId: rootOrgId }, passkey.stamper())
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(res.json.organizationId).toBe(subOrgId)
    expect(res.json.userId).toBe(subUserId)
  })

  it('accepts both high-S and low-S signatures', async () => {
    for (const signatureS of ['high', 'low'] as const) {
      const res = await svc.post(WHOAMI, { organizationId: subOrgId }, passkey.stamper({ signatureS }))
      expect(res.status, `${signatureS}: ${JSON.stringify(res.json)}`).toBe(200)
      expect(res.json.userId).toBe(subUserId)
    }
  })

  it('the passkey may list the users of its own organization', async () => {
    const res = await listUsers(subOrgId, passkey.stamper())
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(res.json.users.map((u: any) => u.userId)).toEqual([subUserId])
  })

  it('a sub-organization passkey acting on its parent is denied (403)', async () => {
    const res = await listUsers(rootOrgId, passkey.stamper())
    expect(res.status, JSON.stringify(res.json)).toBe(403)
    expect(res.json.code).toBe(7)
    expect(reasonOf(res.json)).toBe('PERMISSION_DENIED')
  })

  it('a badly signed stamp naming the parent is 401, not 403 (verified before the denial)', async () => {
    const stamper: Stamper = {
      async stamp(body) {
        const s = await passkey.stamper().stamp(body)
        const v = JSON.parse(s.stampHeaderValue)
        const sig = base64UrlDecode(v.signature)
        sig[sig.length - 1]! ^= 0x01
        return { ...s, stampHeaderValue: JSON.stringify({ ...v, signature: base64UrlEncode(sig) }) }
      },
    }
    const res = await listUsers(rootOrgId, stamper)
    expect(res.status, JSON.stringify(res.json)).toBe(401)
    expect(reasonOf(res.json)).toBe('WEBAUTHN_INVALID')
  })

  it('an assertion without the user-presence flag is rejected (401)', async () => {
    const res = await svc.post(WHOAMI, { organizationId: subOrgId }, passkey.stamper({ flags: AUTH_DATA_FLAGS.UV }))
    expect(res.status, JSON.stringify(res.json)).toBe(401)
    expect(reasonOf(res.json)).toBe('WEBAUTHN_INVALID')
    // User verification is not required: UP alone is enough.
    const upOnly = await svc.post(WHOAMI, { organizationId: subOrgId }, passkey.stamper({ flags: AUTH_DATA_FLAGS.UP }))
    expect(upOnly.status, JSON.stringify(upOnly.json)).toBe(200)
  })

  it('a stamp over a different body is rejected (401)', async () => {
    const stamp = await passkey.stamper().stamp(JSON.stringify({ organizationId: subOrgId, x: 1 }))
    const res = await svc.post(WHOAMI, { organizationId: subOrgId }, null, { [stamp.stampHeaderName]: stamp.stampHeaderValue })
    expect(res.status, JSON.stringify(res.json)).toBe(401)
    expect(reasonOf(res.json)).toBe('WEBAUTHN_INVALID')
  })

  it('a tampered signature is rejected (401)', async () => {
    const stamper: Stamper = {
      async stamp(body) {
        const s = await passkey.stamper().stamp(body)
        const v = JSON.parse(s.stampHeaderValue)
        const sig = base64UrlDecode(v.signature)
        sig[sig.length - 1]! ^= 0x01
        return { ...s, stampHeaderValue: JSON.stringify({ ...v, signature: base64UrlEncode(sig) }) }
      },
    }
    const res = await svc.post(WHOAMI, { organizationId: subOrgId }, stamper)
    expect(res.status, JSON.stringify(res.json)).toBe(401)
  })

  it('a replayed stamp (counter not increasing) is rejected (401)', async () => {
    const body = JSON.stringify({ organizationId: subOrgId })
    const stamp = await passkey.stamper().stamp(body)
    const headers = { [stamp.stampHeaderName]: stamp.stampHeaderValue }
    const first = await svc.post(WHOAMI, body, null, headers)
    expect(first.status, JSON.stringify(first.json)).toBe(200)
    const again = await svc.post(WHOAMI, body, null, headers)
    expect(again.status, JSON.stringify(again.json)).toBe(401)
    expect(reasonOf(again.json)).toBe('WEBAUTHN_INVALID')
  })

  it('a registered passkey signing for another RP ID is rejected (401)', async () => {
    const res = await svc.post(WHOAMI, { organizationId: subOrgId }, passkey.withOptions({ rpId: 'evil.example' }).stamper())
    expect(res.status, JSON.stringify(res.json)).toBe(401)
    expect(reasonOf(res.json)).toBe('WEBAUTHN_INVALID')
    // The bare extension id is not the RP ID Chromium hashes (toolchain.md §5).
    const bare = passkey.withOptions({ rpId: EXTENSION_ORIGIN.replace('chrome-extension://', '') }).stamper()
    const res2 = await svc.post(WHOAMI, { organizationId: subOrgId }, bare)
    expect(res2.status, JSON.stringify(res2.json)).toBe(401)
  })

  it('a registered passkey used from a foreign origin is rejected (401)', async () => {
    const res = await svc.post(WHOAMI, { organizationId: subOrgId }, passkey.withOptions({ origin: 'https://evil.example' }).stamper())
    expect(res.status, JSON.stringify(res.json)).toBe(401)
  })

  it('a passkey made for another RP ID cannot be registered nor stamp', async () => {
    const evil = createSoftAuthenticator({ rpId: 'evil.example', origin: EXTENSION_ORIGIN })
    const before = await authenticatorIdsOf(subOrgId)
    // Submitted by the sub-organization's own passkey: only its users add credentials there (custody).
    const reg = await addPasskey(subOrgId, subUserId, authenticatorParam(evil, randomChallenge(), 'evil'), passkey.stamper())
    expect(reg.status, JSON.stringify(reg.json)).toBe(400)
    expect(violatedFields(reg.json).every((f) => f.startsWith('parameters.authenticators[0]'))).toBe(true)
    expect(await authenticatorIdsOf(subOrgId)).toEqual(before)
    const res = await svc.post(WHOAMI, { organizationId: subOrgId }, evil.stamper())
    expect(res.status, JSON.stringify(res.json)).toBe(401)
  })

  it('an unknown credential id is rejected (401)', async () => {
    const stranger = createSoftAuthenticator({ rpId: EXTENSION_ORIGIN, origin: EXTENSION_ORIGIN })
    const res = await svc.post(WHOAMI, { organizationId: subOrgId }, stranger.stamper())
    expect(res.status, JSON.stringify(res.json)).toBe(401)
    expect(reasonOf(res.json)).toBe('STAMP_KEY_UNKNOWN')
  })
})

describe('create_authenticators V2', () => {
  let second: SoftAuthenticator

  it('adds a second passkey that can then stamp', async () => {
    second = createSoftAuthenticator({ rpId: EXTENSION_ORIGIN, origin: EXTENSION_ORIGIN })
    const res = await addPasskey(subOrgId, subUserId, authenticatorParam(second, randomChallenge(), 'second'), passkey.stamper())
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(res.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(res.json.activity.result.createAuthenticatorsResult.authenticatorIds).toHaveLength(1)
    expect(await authenticatorIdsOf(subOrgId)).toEqual([passkey.credentialId, second.credentialId].sort())

    const who = await svc.post(WHOAMI, { organizationId: subOrgId }, second.stamper())
    expect(who.status, JSON.stringify(who.json)).toBe(200)
    expect(who.json.userId).toBe(subUserId)
  })

  async function expectRejected(param: unknown, field: RegExp) {
    const idsBefore = await authenticatorIdsOf(subOrgId)
    const activitiesBefore = await createAuthenticatorsActivities(subOrgId)
    const res = await addPasskey(subOrgId, subUserId, param, passkey.stamper())
    expect(res.status, JSON.stringify(res.json)).toBe(400)
    const fields = violatedFields(res.json)
    expect(fields.length).toBeGreaterThan(0)
    for (const f of fields) expect(f).toMatch(/^parameters\.authenticators\[0\]/)
    expect(
      fields.some((f) => field.test(f)),
      fields.join(', '),
    ).toBe(true)
    // Nothing stored: same authenticators; any new activity record is FAILED.
    expect(await authenticatorIdsOf(subOrgId)).toEqual(idsBefore)
    const activitiesAfter = await createAuthenticatorsActivities(subOrgId)
    const known = new Set(activitiesBefore.map((a) => a.id))
    for (const a of activitiesAfter.filter((x) => !known.has(x.id))) expect(a.status).toBe('ACTIVITY_STATUS_FAILED')
    expect(activitiesAfter.filter((a) => a.status === 'ACTIVITY_STATUS_COMPLETED')).toHaveLength(
      activitiesBefore.filter((a) => a.status === 'ACTIVITY_STATUS_COMPLETED').length,
    )
  }

  it('rejects an attestation made for another challenge', async () => {
    const soft = createSoftAuthenticator({ rpId: EXTENSION_ORIGIN, origin: EXTENSION_ORIGIN })
    const param = { ...authenticatorParam(soft, randomChallenge(), 'x'), challenge: randomChallenge() }
    await expectRejected(param, /^parameters\.authenticators\[0\]\.attestation/)
  })

  it('rejects an attestation from a foreign origin', async () => {
    const soft = createSoftAuthenticator({ rpId: EXTENSION_ORIGIN, origin: 'https://evil.example' })
    await expectRejected(authenticatorParam(soft, randomChallenge(), 'x'), /^parameters\.authenticators\[0\]\.attestation/)
  })

  it('rejects an attestation whose RP ID hash was tampered with', async () => {
    const soft = createSoftAuthenticator({ rpId: EXTENSION_ORIGIN, origin: EXTENSION_ORIGIN })
    const param = authenticatorParam(soft, randomChallenge(), 'x')
    const obj = base64UrlDecode(param.attestation.attestationObject)
    // authData is the last CBOR value; its first 32 bytes are the rpIdHash. Find it after the 'authData' key.
    const key = new TextEncoder().encode('authData')
    const at = indexOf(obj, key)
    expect(at).toBeGreaterThan(0)
    const rpIdHashStart = at + key.length + 2 // byte-string header: 0x59 + 2-byte length
    obj[rpIdHashStart]! ^= 0xff
    param.attestation.attestationObject = base64UrlEncode(obj)
    await expectRejected(param, /^parameters\.authenticators\[0\]\.attestation/)
  })

  it('rejects an attestation whose public key is not on the curve', async () => {
    const soft = createSoftAuthenticator({ rpId: EXTENSION_ORIGIN, origin: EXTENSION_ORIGIN })
    const param = authenticatorParam(soft, randomChallenge(), 'x')
    const obj = base64UrlDecode(param.attestation.attestationObject)
    // The COSE key ends the attestation object: ... -3 (0x22) 0x58 0x20 <32 bytes of y>.
    obj[obj.length - 1]! ^= 0x01
    param.attestation.attestationObject = base64UrlEncode(obj)
    await expectRejected(param, /^parameters\.authenticators\[0\]\.attestation/)
  })

  it('rejects a garbled attestationObject', async () => {
    const soft = createSoftAuthenticator({ rpId: EXTENSION_ORIGIN, origin: EXTENSION_ORIGIN })
    const param = authenticatorParam(soft, randomChallenge(), 'x')
    param.attestation.attestationObject = param.attestation.attestationObject.slice(0, 40)
    await expectRejected(param, /^parameters\.authenticators\[0\]\.attestation/)
  })
})

describe('localhost RP (allowed by default)', () => {
  it('registers and stamps with rpId localhost from http://localhost:5173', async () => {
    const local = createSoftAuthenticator({ rpId: 'localhost', origin: 'http://localhost:5173' })
    const res = await createSubOrg('Localhost Org', local)
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(res.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    const { subOrganizationId, rootUserIds } = res.json.activity.result.createSubOrganizationResultV8
    expect(await authenticatorIdsOf(subOrganizationId)).toEqual([local.credentialId])

    const who = await svc.post(WHOAMI, { organizationId: subOrganizationId }, local.stamper())
    expect(who.status, JSON.stringify(who.json)).toBe(200)
    expect(who.json.userId).toBe(rootUserIds[0])
    // Credentials of one sub-organization do not reach a sibling.
    const sibling = await listUsers(subOrgId, local.stamper())
    expect(sibling.status, JSON.stringify(sibling.json)).toBe(401)
  })

  it('a localhost passkey presented for another RP ID is rejected (401)', async () => {
    const local = createSoftAuthenticator({ rpId: 'localhost', origin: 'http://localhost:5173' })
    const res = await createSubOrg('Localhost Org 2', local)
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    const subOrg = res.json.activity.result.createSubOrganizationResultV8.subOrganizationId
    const who = await svc.post(WHOAMI, { organizationId: subOrg }, local.withOptions({ rpId: 'evil.example' }).stamper())
    expect(who.status, JSON.stringify(who.json)).toBe(401)
    expect(reasonOf(who.json)).toBe('WEBAUTHN_INVALID')
    const good = await svc.post(WHOAMI, { organizationId: subOrg }, local.stamper())
    expect(good.status, JSON.stringify(good.json)).toBe(200)
  })
})

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer
    return i
  }
  return -1
}
