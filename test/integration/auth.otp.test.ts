/**
 * OTP auth, OTP login, attested stamp_login, sessions and email recovery against the real
 * service over HTTP, with the dev mailbox (wire-formats A6, B1.4, B2, B3, B5).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Stamper } from '../../src/api/stamper.js'
import { decryptCredentialBundle } from '../../src/crypto/credentialBundle.js'
import { base64UrlEncode, bytesToHex, utf8Encode } from '../../src/crypto/encoding.js'
import { signClientSignature, verifySessionJwt, decodeJwtPayload } from '../../src/crypto/jwt.js'
import { generateP256KeyPair } from '../../src/crypto/p256.js'
import { encryptToTargetBundle } from '../../src/crypto/signedBundle.js'
import { createApiKeyStamper } from '../../src/crypto/stamp.js'
import { p256 } from '@noble/curves/nist.js'
import { authenticatorParam, createSoftAuthenticator, randomChallenge } from '../helpers/softAuthenticator.js'
import { newApiKey } from './helpers/keys.js'
import { startTestService, submitBody, type TestService } from './helpers/service.js'

const S = '/public/v1/submit/'
const WHOAMI = '/public/v1/query/whoami'

let svc: TestService
let rootOrgId: string
let offsetMs = 0
let subOrgId: string
let subUserId: string
const email = 'alice@example.com'
const phone = '+15555550123'
/** alice's own API key: only her organization's users add credentials in it (custody). */
const aliceKey = newApiKey('alice')

type Msg = { id: string; channel: string; to: string; from: string; subject: string; text: string; html: string; createdAt: string }

async function messages(): Promise<Msg[]> {
  const res = await fetch(`${svc.url}/dev/messages`)
  expect(res.status).toBe(200)
  return ((await res.json()) as { messages: Msg[] }).messages
}

async function latestCodeFor(to: string): Promise<string> {
  const m = (await messages()).find((x) => x.to === to)
  const code = m?.text.match(/verification code is:? ([0-9A-Z]+)/)?.[1]
  expect(code).toBeDefined()
  return code!
}

const submit = (op: string, type: string, orgId: string, params: unknown, stamper?: Stamper | null, headers?: Record<string, string>) =>
  svc.post(`${S}${op}`, submitBody(type, orgId, params, { timestampMs: String(Date.now() + offsetMs) }), stamper, headers)

function initOtpAuth(contact: string, extra: Record<string, unknown> = {}) {
  return submit('init_otp_auth', 'ACTIVITY_TYPE_INIT_OTP_AUTH_V3', rootOrgId, {
    otpType: contact.startsWith('+') ? 'OTP_TYPE_SMS' : 'OTP_TYPE_EMAIL',
    contact,
    appName: 'Acme',
    ...extra,
  })
}

function otpAuth(otpId: string, otpCode: string, targetPublicKey: string, extra: Record<string, unknown> = {}) {
  return submit('otp_auth', 'ACTIVITY_TYPE_OTP_AUTH', rootOrgId, { otpId, otpCode, targetPublicKey, ...extra })
}

/** Decrypts a credential bundle with the target key, returning a stamper of the delivered key. */
async function openBundle(bundle: string, targetPrivateKey: Uint8Array) {
  const r = await decryptCredentialBundle({ bundle, privateKey: targetPrivateKey })
  expect(r.ok).toBe(true)
  if (!r.ok) throw new Error(r.reason)
  expect(r.plaintext.length).toBe(32)
  return { stamper: createApiKeyStamper({ privateKeyHex: bytesToHex(r.plaintext) }), privateKeyHex: bytesToHex(r.plaintext) }
}

function attestedStamper(token: string, privateKey: Uint8Array): Stamper {
  const publicKey = bytesToHex(p256.getPublicKey(privateKey, true))
  return {
    async stamp(body: string) {
      const signature = bytesToHex(p256.sign(utf8Encode(body), privateKey, { prehash: true, lowS: false, format: 'der' }))
      const json = JSON.stringify({
        publicKeyAttestation: token,
        scheme: 'STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN',
        publicKey,
        signature,
      })
      return { stampHeaderName: 'X-Stamp-Attested', stampHeaderValue: base64UrlEncode(utf8Encode(json)) }
    },
  }
}

beforeAll(async () => {
  svc = await startTestService({
    now: () => Date.now() + offsetMs,
    otpRateLimit: { max: 4, windowMs: 60_000 },
    // The operator lets magic links point at the app (no other origin is allowed).
    mailLinkOrigins: ['https://acme.example'],
  })
  rootOrgId = svc.admin.organizationId
  const res = await submit('create_sub_organization', 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', rootOrgId, {
    subOrganizationName: 'alice org',
    rootUsers: [
      { userName: 'alice', userEmail: email, userPhoneNumber: phone, apiKeys: [aliceKey.param], authenticators: [], oauthProviders: [] },
    ],
    rootQuorumThreshold: 1,
  })
  expect(res.status).toBe(200)
  subOrgId = res.json.activity.result.createSubOrganizationResultV8.subOrganizationId
  subUserId = res.json.activity.result.createSubOrganizationResultV8.rootUserIds[0]
}, 60_000)

afterAll(async () => {
  await svc?.stop()
})

describe('init_otp_auth and otp_auth', () => {
  it('emails a 9-character Crockford code and exchanges it for a credential bundle only the client can open', async () => {
    const init = await initOtpAuth(email, { emailCustomization: { magicLinkTemplate: 'https://acme.example/otp?c=%s' } })
    expect(init.status).toBe(200)
    const { otpId } = init.json.activity.result.initOtpAuthResultV2
    const code = await latestCodeFor(email)
    expect(code).toMatch(/^[0-9ABCDEFGHJKMNPQRSTVWXYZ]{9}$/)
    const msg = (await messages())[0]!
    expect(msg.channel).toBe('email')
    expect(msg.from).toBe('"Notifications" <no-reply@sigil.local>')
    expect(msg.text).toContain(`https://acme.example/otp?c=${code}`)

    const target = generateP256KeyPair()
    const res = await otpAuth(otpId, code, bytesToHex(target.publicKeyUncompressed))
    expect(res.status).toBe(200)
    const result = res.json.activity.result.otpAuthResult
    expect(result.userId).toBe(subUserId)
    // The stored intent echoes the parameters, but the result holds only ciphertext.
    const { stamper, privateKeyHex } = await openBundle(result.credentialBundle, target.privateKey)
    expect(JSON.stringify(res.json)).not.toContain(privateKeyHex)
    const who = await svc.post(WHOAMI, { organizationId: subOrgId }, stamper)
    expect(who.status).toBe(200)
    expect(who.json.userId).toBe(subUserId)
    // The key is an OTP_AUTH credential with the default 15-minute expiry.
    const user = await svc.post('/public/v1/query/get_user', { organizationId: subOrgId, userId: subUserId })
    const key = user.json.user.apiKeys.find((k: any) => k.apiKeyId === result.apiKeyId)
    expect(key.credential.type).toBe('CREDENTIAL_TYPE_OTP_AUTH_KEY_P256')
    expect(key.expirationSeconds).toBe('900')

    // Single use.
    const again = await otpAuth(otpId, code, bytesToHex(target.publicKeyUncompressed), { apiKeyName: 'again' })
    expect(again.status).toBeGreaterThanOrEqual(400)
    expect(again.json.message).toMatch(/already been used/)
  })

  it('sends digits by SMS when alphanumeric is false, with the requested length', async () => {
    const init = await initOtpAuth(phone, { alphanumeric: false, otpLength: 6 })
    expect(init.status).toBe(200)
    const msg = (await messages())[0]!
    expect(msg.channel).toBe('sms')
    expect(msg.to).toBe(phone)
    const code = msg.text.match(/code is (\d+)/)?.[1]
    expect(code).toMatch(/^\d{6}$/)
    const target = generateP256KeyPair()
    const res = await otpAuth(init.json.activity.result.initOtpAuthResultV2.otpId, code!, bytesToHex(target.publicKey), {
      invalidateExisting: true,
    })
    expect(res.status).toBe(200)
    const { stamper } = await openBundle(res.json.activity.result.otpAuthResult.credentialBundle, target.privateKey)
    expect((await svc.post(WHOAMI, { organizationId: rootOrgId }, stamper)).json.userId).toBe(subUserId)
  })

  it('answers a wrong code with "Invalid OTP code" and kills the OTP after five', async () => {
    const init = await initOtpAuth('bob@example.com')
    const { otpId } = init.json.activity.result.initOtpAuthResultV2
    const code = await latestCodeFor('bob@example.com')
    const target = bytesToHex(generateP256KeyPair().publicKey)
    for (let i = 0; i < 5; i++) {
      const wrong = await otpAuth(otpId, i % 2 ? '000000000' : 'ZZZZZZZZZ', target, { apiKeyName: `try ${i}` })
      expect(wrong.status).toBe(400)
      expect(wrong.json.message).toBe('Invalid OTP code')
    }
    const right = await otpAuth(otpId, code, target)
    expect(right.status).toBeGreaterThanOrEqual(400)
    expect(right.json.message).toMatch(/too many wrong codes/)
  })

  it('refuses an expired OTP', async () => {
    const init = await initOtpAuth(email, { expirationSeconds: '60' })
    const code = await latestCodeFor(email)
    offsetMs += 61_000
    try {
      const res = await otpAuth(init.json.activity.result.initOtpAuthResultV2.otpId, code, bytesToHex(generateP256KeyPair().publicKey))
      expect(res.status).toBe(412)
      expect(res.json.message).toMatch(/expired/)
    } finally {
      offsetMs -= 61_000
    }
  })

  it('refuses an expiry over 600 seconds with a 400 naming the field', async () => {
    const res = await initOtpAuth(email, { expirationSeconds: '601' })
    expect(res.status).toBe(400)
    expect(res.json.message).toContain('parameters.expirationSeconds')
  })

  it('rate-limits per contact with the SDK-recognised message', async () => {
    const contact = 'carol@example.com'
    for (let i = 0; i < 4; i++) expect((await initOtpAuth(contact)).status).toBe(200)
    const res = await initOtpAuth(contact)
    expect(res.status).toBe(429)
    expect(res.json.message).toContain('Max number of OTPs have been initiated')
  })

  it('rate-limits SMS per userIdentifier', async () => {
    for (let i = 0; i < 4; i++) expect((await initOtpAuth(`+1555555100${i}`, { userIdentifier: 'ip-hash-1' })).status).toBe(200)
    const res = await initOtpAuth('+15555551009', { userIdentifier: 'ip-hash-1' })
    expect(res.status).toBe(429)
    expect(res.json.message).toContain('Max number of OTPs have been initiated')
  })
})

describe('verify_otp, otp_login and stamp_login', () => {
  it('verify_otp V2 → verification token → otp_login V2 with a client signature → a session whose key stamps', async () => {
    const init = await submit('init_otp', 'ACTIVITY_TYPE_INIT_OTP_V3', rootOrgId, {
      otpType: 'OTP_TYPE_EMAIL',
      contact: email,
      appName: 'Acme',
    })
    expect(init.status).toBe(200)
    const { otpId, otpEncryptionTargetBundle } = init.json.activity.result.initOtpResultV2
    const code = await latestCodeFor(email)
    const client = generateP256KeyPair()
    const clientPub = bytesToHex(client.publicKey)
    const health = (await (await fetch(`${svc.url}/healthz`)).json()) as { verifierPublicKey: string }
    const enc = await encryptToTargetBundle({
      targetBundle: otpEncryptionTargetBundle,
      plaintext: utf8Encode(JSON.stringify({ otp_code: code, public_key: clientPub })),
      signerPublicKeyHex: health.verifierPublicKey,
    })
    expect(enc.ok).toBe(true)
    if (!enc.ok) return
    const verified = await submit('verify_otp', 'ACTIVITY_TYPE_VERIFY_OTP_V2', rootOrgId, { otpId, encryptedOtpBundle: enc.envelope })
    expect(verified.status).toBe(200)
    const token: string = verified.json.activity.result.verifyOtpResult.verificationToken
    const claims = decodeJwtPayload(token)!
    expect(claims.contact).toBe(email)
    expect(claims.public_key).toBe(clientPub)

    const message = JSON.stringify({ login: { publicKey: clientPub }, tokenId: claims.id, type: 'USAGE_TYPE_LOGIN' })
    const clientSignature = signClientSignature({ privateKey: client.privateKey, message })
    const login = (params: Record<string, unknown>) =>
      submit('otp_login', 'ACTIVITY_TYPE_OTP_LOGIN_V2', subOrgId, {
        verificationToken: token,
        publicKey: clientPub,
        clientSignature,
        ...params,
      })

    // Tampered token and signature are refused.
    const [h, p, sig] = token.split('.')
    const badSig = sig!.startsWith('A') ? `B${sig!.slice(1)}` : `A${sig!.slice(1)}`
    expect((await login({ verificationToken: `${h}.${p}.${badSig}` })).status).toBe(401)
    const forged = base64UrlEncode(utf8Encode(JSON.stringify({ ...claims, contact: 'mallory@example.com' })))
    expect((await login({ verificationToken: `${h}.${forged}.${sig}` })).status).toBe(401)
    const flipped = clientSignature.signature.replace(/^./, (c) => (c === '0' ? '1' : '0'))
    expect((await login({ clientSignature: { ...clientSignature, signature: flipped } })).status).toBe(400)

    const ok = await login({})
    expect(ok.status).toBe(200)
    const session: string = ok.json.activity.result.otpLoginResult.session
    const v = verifySessionJwt(session, svc.rt.keys.session.publicKeyHex, { nowMs: Date.now() })
    expect(v.ok).toBe(true)
    if (v.ok) {
      expect(v.claims.public_key).toBe(clientPub)
      expect(v.claims.user_id).toBe(subUserId)
      expect(v.claims.organization_id).toBe(subOrgId)
      expect(v.claims.session_type).toBe('SESSION_TYPE_READ_WRITE')
      expect(v.claims.exp * 1000).toBeGreaterThan(Date.now() + 800_000)
    }
    expect(verifySessionJwt(session, bytesToHex(generateP256KeyPair().publicKeyUncompressed)).ok).toBe(false)
    const who = await svc.post(WHOAMI, { organizationId: subOrgId }, createApiKeyStamper({ privateKeyHex: bytesToHex(client.privateKey) }))
    expect(who.json.userId).toBe(subUserId)
    // The token is single use.
    expect((await login({ expirationSeconds: '600' })).status).toBe(401)
  })

  it('stamp_login with X-Stamp-Attested (verification token + its key) → a session', async () => {
    const init = await initOtpAuth(email)
    const code = await latestCodeFor(email)
    const tokenKey = generateP256KeyPair()
    const verified = await submit('verify_otp', 'ACTIVITY_TYPE_VERIFY_OTP', rootOrgId, {
      otpId: init.json.activity.result.initOtpAuthResultV2.otpId,
      otpCode: code,
      publicKey: bytesToHex(tokenKey.publicKey),
    })
    expect(verified.status).toBe(200)
    const token: string = verified.json.activity.result.verifyOtpResult.verificationToken
    const sessionKey = generateP256KeyPair()
    const params = { publicKey: bytesToHex(sessionKey.publicKey), expirationSeconds: '900' }

    // A stamp by another key than the token's is refused.
    const wrongKey = await submit(
      'stamp_login',
      'ACTIVITY_TYPE_STAMP_LOGIN',
      subOrgId,
      params,
      attestedStamper(token, generateP256KeyPair().privateKey),
    )
    expect(wrongKey.status).toBe(401)
    // Attested stamps are refused elsewhere.
    const elsewhere = await svc.post(WHOAMI, { organizationId: subOrgId }, attestedStamper(token, tokenKey.privateKey))
    expect(elsewhere.status).toBe(401)

    const res = await submit('stamp_login', 'ACTIVITY_TYPE_STAMP_LOGIN', subOrgId, params, attestedStamper(token, tokenKey.privateKey))
    expect(res.status).toBe(200)
    const session = res.json.activity.result.stampLoginResult.session
    const v = verifySessionJwt(session, svc.rt.keys.session.publicKeyHex)
    expect(v.ok && v.claims.user_id).toBe(subUserId)
    const who = await svc.post(
      WHOAMI,
      { organizationId: subOrgId },
      createApiKeyStamper({ privateKeyHex: bytesToHex(sessionKey.privateKey) }),
    )
    expect(who.json.userId).toBe(subUserId)
    // Single use.
    const again = await submit(
      'stamp_login',
      'ACTIVITY_TYPE_STAMP_LOGIN',
      subOrgId,
      { ...params, expirationSeconds: '60' },
      attestedStamper(token, tokenKey.privateKey),
    )
    expect(again.status).toBe(401)
  })
})

describe('email recovery', () => {
  it('emails a recovery bundle whose key adds a passkey with recover_user, then stops working', async () => {
    const target = generateP256KeyPair()
    const init = await submit('init_user_email_recovery', 'ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2', rootOrgId, {
      email,
      targetPublicKey: bytesToHex(target.publicKeyUncompressed),
      emailCustomization: { appName: 'Acme', magicLinkTemplate: 'https://acme.example/recover?bundle=%s' },
      sendFromEmailSenderName: 'Acme Support',
    })
    expect(init.status).toBe(200)
    expect(init.json.activity.result.initUserEmailRecoveryResult.userId).toBe(subUserId)
    const msg = (await messages())[0]!
    expect(msg.from).toContain('"Acme Support"')
    const bundle = decodeURIComponent(msg.text.match(/recover\?bundle=(\S+)/)![1]!)
    expect(JSON.stringify(init.json)).not.toContain(bundle)
    const { stamper } = await openBundle(bundle, target.privateKey)

    const soft = createSoftAuthenticator({ rpId: 'localhost', origin: 'http://localhost:3000' })
    const rec = await submit(
      'recover_user',
      'ACTIVITY_TYPE_RECOVER_USER',
      subOrgId,
      {
        authenticator: authenticatorParam(soft, randomChallenge(), 'recovered passkey'),
        userId: subUserId,
      },
      stamper,
    )
    expect(rec.status).toBe(200)
    expect(rec.json.activity.result.recoverUserResult.authenticatorId).toHaveLength(1)
    // The new passkey works; the recovery key does not any more.
    expect((await svc.post(WHOAMI, { organizationId: subOrgId }, soft.stamper())).json.userId).toBe(subUserId)
    const after = await svc.post(WHOAMI, { organizationId: subOrgId }, stamper)
    expect(after.status).toBe(401)
  })
})

describe('update_allowed_origins and create_read_write_session', () => {
  it('stores allowed origins (refusing a malformed one) and uses them for WebAuthn', async () => {
    const bad = await submit('update_allowed_origins', 'ACTIVITY_TYPE_UPDATE_ALLOWED_ORIGINS', rootOrgId, { allowedOrigins: ['not a url'] })
    expect(bad.status).toBe(400)
    expect(bad.json.message).toContain('parameters.allowedOrigins[0]')
    const soft = createSoftAuthenticator({ rpId: 'wallet.example', origin: 'https://wallet.example' })
    const add = () =>
      submit(
        'create_authenticators',
        'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2',
        subOrgId,
        {
          authenticators: [authenticatorParam(soft, randomChallenge(), 'web passkey')],
          userId: subUserId,
        },
        aliceKey.stamper,
      )
    const refused = await add()
    expect(refused.status, JSON.stringify(refused.json)).toBe(400)
    expect(refused.json.message).toContain('parameters.authenticators[0]')
    const ok = await submit('update_allowed_origins', 'ACTIVITY_TYPE_UPDATE_ALLOWED_ORIGINS', rootOrgId, {
      allowedOrigins: ['https://wallet.example'],
    })
    expect(ok.status).toBe(200)
    expect((await add()).status).toBe(200)

    // create_read_write_session stamped by that passkey, naming the parent organization.
    const target = generateP256KeyPair()
    const rw = await submit(
      'create_read_write_session',
      'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2',
      rootOrgId,
      {
        targetPublicKey: bytesToHex(target.publicKeyUncompressed),
      },
      soft.stamper(),
    )
    expect(rw.status).toBe(200)
    const r = rw.json.activity.result.createReadWriteSessionResultV2
    expect(r.organizationId).toBe(subOrgId)
    expect(r.userId).toBe(subUserId)
    expect(r.username).toBe('alice')
    const { stamper } = await openBundle(r.credentialBundle, target.privateKey)
    expect((await svc.post(WHOAMI, { organizationId: subOrgId }, stamper)).json.userId).toBe(subUserId)
  })
})

describe('dev mailbox', () => {
  it('serves the mailbox as a page', async () => {
    const res = await fetch(`${svc.url}/dev/mailbox`)
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('Sigil dev mailbox')
  })

  it('is off with devMailbox false; without a transport an OTP activity fails instead of dropping the message', async () => {
    const prod = await startTestService({ devMailbox: false })
    try {
      expect((await fetch(`${prod.url}/dev/messages`)).status).toBe(404)
      const res = await prod.post(
        '/public/v1/submit/init_otp_auth',
        submitBody('ACTIVITY_TYPE_INIT_OTP_AUTH_V3', prod.admin.organizationId, {
          otpType: 'OTP_TYPE_EMAIL',
          contact: email,
          appName: 'Acme',
        }),
      )
      expect(res.status).toBe(412)
      expect(res.json.message).toContain('SIGIL_SMTP_URL')
    } finally {
      await prod.stop()
    }
  }, 60_000)
})
