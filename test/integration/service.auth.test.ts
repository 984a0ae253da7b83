import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ed25519 } from '@noble/curves/ed25519.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { bytesToHex, base64UrlEncode, utf8Encode } from '../../src/crypto/encoding.js'
import { eip191Digest } from '../../src/crypto/verifyStamp.js'
import type { Stamper } from '../../src/api/stamper.js'
import { startTestService, submitBody, type TestService } from './helpers/service.js'
import { newApiKey, rootUser } from './helpers/keys.js'

let svc: TestService
let subOrgId: string
const subKey = newApiKey('sub admin')
const shortKey = newApiKey('short-lived', '1')

beforeAll(async () => {
  svc = await startTestService()
  const r = await svc.post(
    '/public/v1/submit/create_sub_organization',
    submitBody('ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', svc.admin.organizationId, {
      subOrganizationName: 'auth-sub',
      rootUsers: [rootUser('dave', [subKey.param, shortKey.param])],
      rootQuorumThreshold: 1,
    }),
  )
  subOrgId = r.json.activity.result.createSubOrganizationResultV8.subOrganizationId
})
afterAll(async () => {
  await svc?.stop()
})

const stampWith = (header: string, value: string): Stamper => ({
  stamp: async () => ({ stampHeaderName: header as 'X-Stamp', stampHeaderValue: value }),
})

describe('stamp failure modes (A4)', () => {
  const whoami = (stamper: Stamper | null, org = svc.admin.organizationId) =>
    svc.post('/public/v1/query/whoami', { organizationId: org }, stamper)

  it('refuses a missing stamp with 401', async () => {
    const r = await whoami(null)
    expect(r.status).toBe(401)
    expect(r.json.code).toBe(16)
  })

  it('refuses a malformed stamp with 401 STAMP_MALFORMED', async () => {
    for (const value of ['not-base64!!', base64UrlEncode(utf8Encode('{"publicKey":1}')), base64UrlEncode(utf8Encode('[]'))]) {
      const r = await whoami(stampWith('X-Stamp', value))
      expect(r.status).toBe(401)
      expect(r.json.details[0].reason).toBe('STAMP_MALFORMED')
    }
  })

  it('refuses an unknown key with the SDK-recognised message', async () => {
    const r = await whoami(newApiKey().stamper)
    expect(r.status).toBe(401)
    expect(r.json.message).toBe('could not find public key in organization or its parent organization')
  })

  it('refuses an expired key with `expired api key publicKey`', async () => {
    const ok = await whoami(shortKey.stamper, subOrgId)
    expect(ok.status).toBe(200)
    await new Promise((r) => setTimeout(r, 1100))
    const r = await whoami(shortKey.stamper, subOrgId)
    expect(r.status).toBe(401)
    expect(r.json.message).toContain('Unauthenticated desc = expired api key publicKey')
    expect(r.json.details[0].reason).toBe('STAMP_KEY_EXPIRED')
  })

  it('refuses a signature over other bytes (tampered body)', async () => {
    const body = JSON.stringify({ organizationId: svc.admin.organizationId })
    const stamp = await svc.adminStamper.stamp(body)
    const tampered = JSON.stringify({ organizationId: svc.admin.organizationId, x: 1 })
    const r = await svc.post('/public/v1/query/whoami', tampered, stampWith(stamp.stampHeaderName, stamp.stampHeaderValue))
    expect(r.status).toBe(401)
    expect(r.json.details[0].reason).toBe('STAMP_SIGNATURE_INVALID')
  })

  it('refuses stale and future timestamps on submits', async () => {
    for (const offset of [-10 * 60_000, 10 * 60_000]) {
      const body = submitBody('ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE', svc.admin.organizationId, {
        name: 'FEATURE_NAME_WEBHOOK',
        value: '1',
      })
      body.timestampMs = String(Date.now() + offset)
      const r = await svc.post('/public/v1/submit/set_organization_feature', body)
      expect(r.status).toBe(401)
      expect(r.json.details[0].reason).toBe('TIMESTAMP_OUT_OF_WINDOW')
      expect(r.json.message).toContain('timestampMs')
    }
  })

  it('lets a parent act on its sub-organization, never the reverse', async () => {
    const parentOnSub = await svc.post('/public/v1/query/list_users', { organizationId: subOrgId })
    expect(parentOnSub.status).toBe(200)
    const subOnParent = await svc.post('/public/v1/query/list_users', { organizationId: svc.admin.organizationId }, subKey.stamper)
    expect(subOnParent.status).toBe(403)
    expect(subOnParent.json.code).toBe(7)
    const subSubmitOnParent = await svc.post(
      '/public/v1/submit/set_organization_feature',
      submitBody('ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE', svc.admin.organizationId, { name: 'FEATURE_NAME_WEBHOOK', value: 'x' }),
      subKey.stamper,
    )
    expect(subSubmitOnParent.status).toBe(403)
    // whoami with the parent id resolves the sub-organization user (wire-formats B4).
    const who = await svc.post('/public/v1/query/whoami', { organizationId: svc.admin.organizationId }, subKey.stamper)
    expect(who.status).toBe(200)
    expect(who.json.organizationId).toBe(subOrgId)
  })

  it('refuses an unknown organization with 404 naming organizationId', async () => {
    const r = await svc.post('/public/v1/query/whoami', { organizationId: '00000000-0000-4000-8000-000000000000' })
    expect(r.status).toBe(404)
    expect(r.json.message).toContain('organizationId')
  })
})

describe('secp256k1 (EIP-191) and ed25519 API keys (B1.3)', () => {
  it('accepts an Ethereum wallet key stamp and refuses it tampered', async () => {
    const priv = secp256k1.utils.randomSecretKey()
    const pub = bytesToHex(secp256k1.getPublicKey(priv, true))
    const stamper: Stamper = {
      stamp: async (body) => {
        const sig = secp256k1.sign(eip191Digest(utf8Encode(body)), priv, { prehash: false, format: 'der' })
        const value = base64UrlEncode(
          utf8Encode(JSON.stringify({ publicKey: pub, scheme: 'SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191', signature: bytesToHex(sig) })),
        )
        return { stampHeaderName: 'X-Stamp', stampHeaderValue: value }
      },
    }
    const add = await svc.post(
      '/public/v1/submit/create_api_keys',
      submitBody('ACTIVITY_TYPE_CREATE_API_KEYS_V2', svc.admin.organizationId, {
        apiKeys: [{ apiKeyName: `wallet-auth:${pub}`, publicKey: pub, curveType: 'API_KEY_CURVE_SECP256K1' }],
        userId: svc.admin.userId,
      }),
    )
    expect(add.status).toBe(200)
    const who = await svc.post('/public/v1/query/whoami', { organizationId: svc.admin.organizationId }, stamper)
    expect(who.status).toBe(200)
    expect(who.json.userId).toBe(svc.admin.userId)
  })

  it('accepts a Solana wallet (ed25519) key stamp', async () => {
    const priv = ed25519.utils.randomSecretKey()
    const pub = bytesToHex(ed25519.getPublicKey(priv))
    const stamper: Stamper = {
      stamp: async (body) => {
        const sig = ed25519.sign(utf8Encode(body), priv)
        const value = base64UrlEncode(
          utf8Encode(JSON.stringify({ publicKey: pub, scheme: 'SIGNATURE_SCHEME_TK_API_ED25519', signature: bytesToHex(sig) })),
        )
        return { stampHeaderName: 'X-Stamp', stampHeaderValue: value }
      },
    }
    await svc.post(
      '/public/v1/submit/create_api_keys',
      submitBody('ACTIVITY_TYPE_CREATE_API_KEYS_V2', svc.admin.organizationId, {
        apiKeys: [{ apiKeyName: 'sol', publicKey: pub, curveType: 'API_KEY_CURVE_ED25519' }],
        userId: svc.admin.userId,
      }),
    )
    const who = await svc.post('/public/v1/query/whoami', { organizationId: svc.admin.organizationId }, stamper)
    expect(who.status).toBe(200)
  })
})
