/**
 * OTP hardening against a live attack (defects 5 and 6 as its report numbers them, as the describe
 * blocks name them) and the unbound verification tokens, through the hosted service's
 * official client (`@turnkey/http`, unmodified): OTP and email-auth mail is sent only from the
 * operator's sender allow-list, links only to the operator's origins; these flows of a
 * sub-organization are started by its parent; OTP attempts are counted atomically (exactly five
 * codes checked whatever the concurrency); an OTP is spent only on the path it was started for;
 * a verification token that is not bound to a key is never stored readable.
 */
import { type TurnkeyClient, TurnkeyRequestError } from '@turnkey/http'
import { encryptOtpCodeToBundle } from '@turnkey/crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { p256 } from '@noble/curves/nist.js'
import { bytesToHex } from '../../src/crypto/encoding.js'
import { generateP256KeyPair } from '../../src/crypto/p256.js'
import { resolveConfig } from '../../src/service/config.js'
import { clientFor } from './helpers/policyOrg.js'
import { newApiKey } from './helpers/keys.js'
import { adminTurnkeyClient, startTestService, type TestService } from './helpers/service.js'

let svc: TestService
let admin: TurnkeyClient
let rootOrgId: string
let subOrgId: string
let subClient: TurnkeyClient
const subEmail = 'sam@example.com'
const ts = () => String(Date.now())
/** The service's identity key, uncompressed: the signer of OTP target bundles @turnkey/crypto checks. */
const signerHex = () => bytesToHex(p256.Point.fromBytes(svc.rt.keys.verifier.publicKey).toBytes(false))

type Msg = { to: string; from: string; replyTo?: string | null; text: string; html: string }

async function messagesTo(to: string): Promise<Msg[]> {
  const res = await fetch(`${svc.url}/dev/messages`)
  expect(res.status).toBe(200)
  return ((await res.json()) as { messages: Msg[] }).messages.filter((m) => m.to === to)
}

async function latestCodeFor(to: string): Promise<string> {
  const code = (await messagesTo(to))[0]?.text.match(/verification code is:? ([0-9A-Z]+)/)?.[1]
  expect(code).toBeDefined()
  return code!
}

/** The refusal of `p` as the official client reports it (TurnkeyRequestError: gRPC code and details). */
async function refusal(p: Promise<unknown>): Promise<{ code: number; text: string }> {
  try {
    await p
  } catch (e) {
    expect(e).toBeInstanceOf(TurnkeyRequestError)
    const err = e as TurnkeyRequestError
    return { code: err.code, text: `${err.message} ${JSON.stringify(err.details)}` }
  }
  throw new Error('expected the service to refuse the request')
}

const initOtpAuth = (client: TurnkeyClient, organizationId: string, contact: string, extra: Record<string, unknown> = {}) =>
  client.initOtpAuth({
    type: 'ACTIVITY_TYPE_INIT_OTP_AUTH_V3',
    timestampMs: ts(),
    organizationId,
    parameters: { otpType: 'OTP_TYPE_EMAIL', contact, appName: 'Acme', ...extra },
  })

const initOtp = (client: TurnkeyClient, organizationId: string, contact: string, extra: Record<string, unknown> = {}) =>
  client.initOtp({
    type: 'ACTIVITY_TYPE_INIT_OTP_V3',
    timestampMs: ts(),
    organizationId,
    parameters: { otpType: 'OTP_TYPE_EMAIL', contact, appName: 'Acme', ...extra },
  })

const otpAuth = (client: TurnkeyClient, organizationId: string, otpId: string, otpCode: string) =>
  client.otpAuth({
    type: 'ACTIVITY_TYPE_OTP_AUTH',
    timestampMs: ts(),
    organizationId,
    parameters: { otpId, otpCode, targetPublicKey: bytesToHex(generateP256KeyPair().publicKey) },
  })

beforeAll(async () => {
  svc = await startTestService({
    mailSenders: ['otp@acme.example', 'mail.acme.example'],
    mailLinkOrigins: ['https://app.acme.example'],
    // 100 clients at once from one address (the attack's shape), beyond the default per-address cap.
    http: { ...resolveConfig({}).http, maxConnectionsPerAddress: 256 },
  })
  admin = adminTurnkeyClient(svc)
  rootOrgId = svc.admin.organizationId
  const key = newApiKey('sam')
  const sub = await admin.createSubOrganization({
    type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
    timestampMs: ts(),
    organizationId: rootOrgId,
    parameters: {
      subOrganizationName: 'sam org',
      rootUsers: [{ userName: 'sam', userEmail: subEmail, apiKeys: [key.param], authenticators: [], oauthProviders: [] }],
      rootQuorumThreshold: 1,
    },
  })
  subOrgId = sub.activity.result.createSubOrganizationResultV8!.subOrganizationId
  subClient = clientFor(svc, key)
}, 60_000)

afterAll(async () => {
  await svc?.stop()
})

describe('defect 5: OTP mail comes from the operator, links go to the operator’s origins', () => {
  it('refuses a sender address or reply-to outside the allow-list, naming the field; nothing is sent', async () => {
    const to = 'victim1@example.com'
    for (const [extra, field] of [
      [{ sendFromEmailAddress: 'security@bank.example' }, 'sendFromEmailAddress'],
      [{ sendFromEmailAddress: 'otp@evil-acme.example' }, 'sendFromEmailAddress'],
      [{ sendFromEmailAddress: 'x@sub.mail.acme.example' }, 'sendFromEmailAddress'],
      [{ replyToEmailAddress: 'attacker@evil.example' }, 'replyToEmailAddress'],
    ] as const) {
      const r = await refusal(initOtp(admin, rootOrgId, to, extra))
      expect(r.code).toBe(3)
      expect(r.text).toContain(`parameters.${field}`)
      expect(r.text).toContain('INVALID_ARGUMENT')
    }
    expect(await messagesTo(to)).toEqual([])
  })

  it('refuses a sender name that carries an address or a header break', async () => {
    for (const name of ['Bank <security@bank.example>', 'support@bank.example', 'Acme\r\nBcc: all@example.com']) {
      const r = await refusal(
        initOtp(admin, rootOrgId, 'victim2@example.com', { sendFromEmailAddress: 'otp@acme.example', sendFromEmailSenderName: name }),
      )
      expect(r.code).toBe(3)
      expect(r.text).toContain('parameters.sendFromEmailSenderName')
    }
  })

  it('refuses a magic link to an origin the operator did not allow, in every email flow', async () => {
    for (const template of [
      'https://evil.example/login?c=%s',
      'https://%s.app.acme.example/',
      'https://app.acme.example@evil.example/?c=%s',
    ]) {
      const r = await refusal(initOtp(admin, rootOrgId, 'victim3@example.com', { emailCustomization: { magicLinkTemplate: template } }))
      expect(r.code).toBe(3)
      expect(r.text).toContain('parameters.emailCustomization.magicLinkTemplate')
    }
    const target = bytesToHex(generateP256KeyPair().publicKey)
    const auth = await refusal(
      admin.emailAuth({
        type: 'ACTIVITY_TYPE_EMAIL_AUTH_V3',
        timestampMs: ts(),
        organizationId: rootOrgId,
        parameters: {
          email: subEmail,
          targetPublicKey: target,
          emailCustomization: { appName: 'Acme', magicLinkTemplate: 'https://evil.example/?b=%s' },
        },
      }),
    )
    expect(auth.code).toBe(3)
    expect(auth.text).toContain('magicLinkTemplate')
    const recovery = await refusal(
      admin.initUserEmailRecovery({
        type: 'ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2',
        timestampMs: ts(),
        organizationId: rootOrgId,
        parameters: {
          email: subEmail,
          targetPublicKey: target,
          emailCustomization: { appName: 'Acme', magicLinkTemplate: 'https://evil.example/?b=%s' },
        },
      }),
    )
    expect(recovery.code).toBe(3)
    expect(recovery.text).toContain('magicLinkTemplate')
    expect(await messagesTo(subEmail)).toEqual([])
  })

  it('sends from an allowed address, domain and origin', async () => {
    const to = 'friend@example.com'
    await initOtp(admin, rootOrgId, to, {
      sendFromEmailAddress: 'login@mail.acme.example',
      sendFromEmailSenderName: 'Acme Login',
      replyToEmailAddress: 'otp@acme.example',
      emailCustomization: { magicLinkTemplate: 'https://app.acme.example/otp?c=%s' },
    })
    const [m] = await messagesTo(to)
    expect(m?.from).toBe('"Acme Login" <login@mail.acme.example>')
    expect(m?.text).toContain('https://app.acme.example/otp?c=')
  })
})

describe('defect 5: a sub-organization’s OTP and email flows are started by its parent', () => {
  it('refuses init_otp, init_otp_auth, email_auth and init_user_email_recovery submitted by the sub-organization for itself', async () => {
    const target = bytesToHex(generateP256KeyPair().publicKey)
    const attempts = [
      () => initOtp(subClient, subOrgId, subEmail),
      () => initOtpAuth(subClient, subOrgId, subEmail),
      () =>
        subClient.emailAuth({
          type: 'ACTIVITY_TYPE_EMAIL_AUTH_V3',
          timestampMs: ts(),
          organizationId: subOrgId,
          parameters: { email: subEmail, targetPublicKey: target, emailCustomization: { appName: 'Acme' } },
        }),
      () =>
        subClient.initUserEmailRecovery({
          type: 'ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2',
          timestampMs: ts(),
          organizationId: subOrgId,
          parameters: { email: subEmail, targetPublicKey: target, emailCustomization: { appName: 'Acme' } },
        }),
    ]
    for (const a of attempts) {
      const r = await refusal(a())
      expect(r.code).toBe(7)
      expect(r.text).toContain('PERMISSION_DENIED')
    }
    expect(await messagesTo(subEmail)).toEqual([])
    // The parent starts them for its sub-organization.
    const ok = await initOtpAuth(admin, subOrgId, subEmail)
    expect(ok.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
  })
})

describe('defect 6: OTP attempts', () => {
  it('checks exactly five of 100 parallel wrong codes; the right code afterwards is refused', async () => {
    const contact = 'race@example.com'
    const init = await initOtpAuth(admin, rootOrgId, contact)
    const otpId = init.activity.result.initOtpAuthResultV2!.otpId
    const code = await latestCodeFor(contact)
    const wrong = code.startsWith('0') ? `1${code.slice(1)}` : `0${code.slice(1)}`
    const results = await Promise.all(Array.from({ length: 100 }, () => refusal(otpAuth(admin, rootOrgId, otpId, wrong))))
    const checked = results.filter((r) => r.text.includes('Invalid OTP code'))
    const exhausted = results.filter((r) => r.text.includes('too many wrong codes'))
    expect(checked.length).toBe(5)
    expect(exhausted.length).toBe(95)
    const right = await refusal(otpAuth(admin, rootOrgId, otpId, code))
    expect(right.text).toContain('too many wrong codes')
  }, 120_000)

  it('spends an OTP only on the path it was started for', async () => {
    // init_otp (encrypted-bundle path) → otp_auth (legacy) is refused, and the OTP stays usable on its own path.
    const a = 'paths-a@example.com'
    const started = await initOtp(admin, rootOrgId, a)
    const { otpId, otpEncryptionTargetBundle } = started.activity.result.initOtpResultV2!
    const code = await latestCodeFor(a)
    const legacy = await refusal(otpAuth(admin, rootOrgId, otpId, code))
    expect(legacy.code).toBe(3)
    expect(legacy.text).toContain('parameters.otpId')
    const bundle = await encryptOtpCodeToBundle(code, otpEncryptionTargetBundle!, bytesToHex(generateP256KeyPair().publicKey), signerHex())
    const verified = await admin.verifyOtp({
      type: 'ACTIVITY_TYPE_VERIFY_OTP_V2',
      timestampMs: ts(),
      organizationId: rootOrgId,
      parameters: { otpId, encryptedOtpBundle: bundle },
    })
    expect(verified.activity.result.verifyOtpResult?.verificationToken).toBeTruthy()

    // init_otp_auth (legacy) → verify_otp V2 (encrypted bundle) is refused.
    const b = 'paths-b@example.com'
    const legacyStart = await initOtpAuth(admin, rootOrgId, b)
    const legacyOtp = legacyStart.activity.result.initOtpAuthResultV2!.otpId
    const codeB = await latestCodeFor(b)
    const bundleB = await encryptOtpCodeToBundle(
      codeB,
      otpEncryptionTargetBundle!,
      bytesToHex(generateP256KeyPair().publicKey),
      signerHex(),
    )
    const cross = await refusal(
      admin.verifyOtp({
        type: 'ACTIVITY_TYPE_VERIFY_OTP_V2',
        timestampMs: ts(),
        organizationId: rootOrgId,
        parameters: { otpId: legacyOtp, encryptedOtpBundle: bundleB },
      }),
    )
    expect(cross.text).toContain('parameters.otpId')
  })

  it('an OTP the parent started is not spent by a sub-organization’s own credential', async () => {
    const init = await initOtpAuth(admin, rootOrgId, subEmail)
    const otpId = init.activity.result.initOtpAuthResultV2!.otpId
    const code = await latestCodeFor(subEmail)
    const r = await refusal(otpAuth(subClient, subOrgId, otpId, code))
    expect(r.code).toBe(5)
    // Its parent still can.
    const ok = await otpAuth(admin, subOrgId, otpId, code)
    expect(ok.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
  })
})

describe('verification tokens not bound to a key', () => {
  it('are answered once and stored only as a hash (get_activity cannot hand one out)', async () => {
    const contact = 'unbound@example.com'
    const init = await initOtpAuth(admin, rootOrgId, contact)
    const otpId = init.activity.result.initOtpAuthResultV2!.otpId
    const code = await latestCodeFor(contact)
    const res = await svc.post('/public/v1/submit/verify_otp', {
      type: 'ACTIVITY_TYPE_VERIFY_OTP',
      timestampMs: ts(),
      organizationId: rootOrgId,
      parameters: { otpId, otpCode: code },
    })
    expect(res.status).toBe(200)
    const token: string = res.json.activity.result.verifyOtpResult.verificationToken
    expect(token.split('.')).toHaveLength(3)
    const stored = await admin.getActivity({ organizationId: rootOrgId, activityId: res.json.activity.id })
    const text = JSON.stringify(stored.activity)
    expect(text).not.toContain(token)
    expect(text).not.toContain(token.split('.')[2]!)
    expect(stored.activity.result.verifyOtpResult?.verificationToken).toMatch(/^sha256:[0-9a-f]{64}$/)
    const listed = await admin.getActivities({ organizationId: rootOrgId })
    expect(JSON.stringify(listed)).not.toContain(token.split('.')[2]!)
  })
})
