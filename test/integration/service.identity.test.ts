/**
 * The service's signed identity: GET /.well-known/sigil-service is signed by the
 * identity key (the key of OTP target bundles and verification tokens), names the origins the
 * service answers at, and the relay republishes it unchanged; SIGIL_IDENTITY_KEY pins a known
 * key (`dev`: the published development key, refused in production).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXTENSION_ORIGIN } from '../../src/api/identity'
import { DEV_SERVICE_IDENTITY_KEY, RELAY_IDENTITY_PATH, SERVICE_IDENTITY_PATH } from '../../src/api/serviceIdentity'
import { verifyVerificationToken } from '../../src/crypto/jwt'
import { verifyServiceIdentity } from '../../src/crypto/serviceIdentity'
import { verifyTargetBundle } from '../../src/crypto/signedBundle'
import { DEV_SERVICE_IDENTITY_PRIVATE_KEY } from '../../src/service/devIdentity'
import { resolveConfig } from '../../src/service/config'
import { startTestService, type TestService } from './helpers/service'

describe('service identity document', () => {
  let svc: TestService

  beforeAll(async () => {
    svc = await startTestService()
  }, 60_000)
  afterAll(async () => {
    await svc?.stop()
  })

  it('is signed by the key that signs OTP target bundles, and names the loopback origins of its port', async () => {
    const res = await fetch(svc.url + SERVICE_IDENTITY_PATH, { headers: { Origin: EXTENSION_ORIGIN } })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe(EXTENSION_ORIGIN)
    const doc = await res.json()
    const v = verifyServiceIdentity(doc, { url: svc.url })
    expect(v.ok).toBe(true)
    if (!v.ok) return
    const port = new URL(svc.url).port
    expect(v.statement.origins).toEqual(expect.arrayContaining([`http://127.0.0.1:${port}`, `http://localhost:${port}`]))
    expect(v.statement.keys.identity).toBe(svc.rt.keys.verifier.publicKeyHex)
    expect(v.statement.keys.signer).toBe(svc.rt.keys.signer.publicKeyHex)
    expect(v.statement.keys.notarizer).toBe(svc.rt.keys.session.publicKeyHex)
    // The same URL on another port (a proxy) is not named.
    expect(verifyServiceIdentity(doc, { url: 'http://127.0.0.1:1' })).toEqual({ ok: false, reason: 'IDENTITY_ORIGIN_MISMATCH' })

    // OTP target bundles and verification tokens verify under the identity key.
    const init = await svc.post('/public/v1/submit/init_otp', {
      type: 'ACTIVITY_TYPE_INIT_OTP_V3',
      timestampMs: String(Date.now()),
      organizationId: svc.admin.organizationId,
      parameters: { otpType: 'OTP_TYPE_EMAIL', contact: `id-${Date.now()}@example.test`, appName: 'Sigil' },
    })
    const bundle = init.json.activity.result.initOtpResultV2.otpEncryptionTargetBundle
    expect(verifyTargetBundle({ targetBundle: bundle, signerPublicKeyHex: v.statement.keys.identity }).ok).toBe(true)
    expect(verifyTargetBundle({ targetBundle: bundle, signerPublicKeyHex: v.statement.keys.signer })).toMatchObject({ ok: false })
    expect(verifyVerificationToken('a.b.c', v.statement.keys.identity).ok).toBe(false)
  })

  it('the relay republishes the same document', async () => {
    const direct = await (await fetch(svc.url + SERVICE_IDENTITY_PATH)).json()
    const res = await fetch(`${svc.url}/auth${RELAY_IDENTITY_PATH}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: EXTENSION_ORIGIN },
      body: '{}',
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual(direct)
  })
})

describe('SIGIL_IDENTITY_KEY', () => {
  it('`dev` is the published development key; production refuses it; bad values name the variable', () => {
    expect(resolveConfig({ SIGIL_IDENTITY_KEY: 'dev' }).identityKeyHex).toBe(DEV_SERVICE_IDENTITY_PRIVATE_KEY)
    expect(() => resolveConfig({ SIGIL_IDENTITY_KEY: 'dev', NODE_ENV: 'production' })).toThrow(/SIGIL_IDENTITY_KEY/)
    expect(() => resolveConfig({ SIGIL_IDENTITY_KEY: 'abc' })).toThrow(/SIGIL_IDENTITY_KEY/)
    expect(resolveConfig({}).identityKeyHex).toBeUndefined()
  })

  it('a service started with it signs with that key', async () => {
    const svc = await startTestService({ identityKeyHex: DEV_SERVICE_IDENTITY_PRIVATE_KEY })
    try {
      const doc = await (await fetch(svc.url + SERVICE_IDENTITY_PATH)).json()
      expect(verifyServiceIdentity(doc, { url: svc.url, pinnedKey: DEV_SERVICE_IDENTITY_KEY }).ok).toBe(true)
    } finally {
      await svc.stop()
    }
  }, 60_000)
})
