import { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decryptCredentialBundle } from '../../src/crypto/credentialBundle.js'
import { bytesToHex } from '../../src/crypto/encoding.js'
import { generateP256KeyPair } from '../../src/crypto/p256.js'
import { createApiKeyStamper } from '../../src/crypto/stamp.js'
import { adminTurnkeyClient, startTestService, submitBody, type TestService } from './helpers/service.js'

let svc: TestService
let admin: TurnkeyClient
let org: string
let subOrgId: string
let subUserId: string
let closedOrgId: string
const email = 'dora@example.com'
const closedEmail = 'closed@example.com'

const ts = () => String(Date.now())
const S = '/public/v1/submit/'

type Msg = { to: string; subject: string; text: string; html: string }

async function messages(): Promise<Msg[]> {
  const res = await fetch(`${svc.url}/dev/messages`)
  expect(res.status).toBe(200)
  return ((await res.json()) as { messages: Msg[] }).messages
}

/** Opens a bundle with the target key: a client stamping with the delivered key, and that key. */
async function openBundle(bundle: string, targetPrivateKey: Uint8Array) {
  const r = await decryptCredentialBundle({ bundle, privateKey: targetPrivateKey })
  expect(r.ok).toBe(true)
  if (!r.ok) throw new Error(r.reason)
  expect(r.plaintext.length).toBe(32)
  const privateKeyHex = bytesToHex(r.plaintext)
  return { client: new TurnkeyClient({ baseUrl: svc.url }, createApiKeyStamper({ privateKeyHex })), privateKeyHex }
}

async function subOrg(name: string, userEmail: string, extra: Record<string, unknown> = {}) {
  const res = await svc.post(
    `${S}create_sub_organization`,
    submitBody('ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', org, {
      subOrganizationName: name,
      rootUsers: [{ userName: name, userEmail, apiKeys: [], authenticators: [], oauthProviders: [] }],
      rootQuorumThreshold: 1,
      ...extra,
    }),
  )
  expect(res.status).toBe(200)
  const r = res.json.activity.result.createSubOrganizationResultV8
  return { orgId: r.subOrganizationId as string, userId: r.rootUserIds[0] as string }
}

const emailAuthV2 = (parameters: Record<string, unknown>, type = 'ACTIVITY_TYPE_EMAIL_AUTH_V2') =>
  svc.post(`${S}email_auth`, submitBody(type, org, parameters))

beforeAll(async () => {
  // The operator lets magic links point at the app (no other origin is allowed).
  svc = await startTestService({ mailLinkOrigins: ['https://acme.example'] })
  org = svc.admin.organizationId
  admin = adminTurnkeyClient(svc)
  ;({ orgId: subOrgId, userId: subUserId } = await subOrg('dora', email))
  ;({ orgId: closedOrgId } = await subOrg('closed', closedEmail, { disableEmailAuth: true }))
})
afterAll(async () => {
  await svc?.stop()
})

describe('email_auth', () => {
  it('V3 (the client): emails the bundle in the magic link; it opens to an EMAIL_AUTH key that stamps as the user', async () => {
    const target = generateP256KeyPair()
    const r = await admin.emailAuth({
      type: 'ACTIVITY_TYPE_EMAIL_AUTH_V3',
      timestampMs: ts(),
      organizationId: org,
      parameters: {
        email: 'Dora@Example.com',
        targetPublicKey: bytesToHex(target.publicKeyUncompressed),
        apiKeyName: 'dora email login',
        expirationSeconds: '600',
        emailCustomization: { appName: 'Acme', magicLinkTemplate: 'https://acme.example/auth?bundle=%s' },
        sendFromEmailSenderName: 'Acme Login',
      },
    })
    expect(r.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    const result = r.activity.result.emailAuthResult!
    expect(result.userId).toBe(subUserId)
    const msg = (await messages()).find((m) => m.to === email)!
    expect(msg.subject).toBe('Log in to Acme')
    const bundle = decodeURIComponent(msg.text.match(/acme\.example\/auth\?bundle=(\S+)/)![1]!)
    expect(msg.text).toContain(`\n${bundle}\n`)
    // The bundle is mailed, never answered.
    expect(JSON.stringify(r)).not.toContain(bundle)
    const { client, privateKeyHex } = await openBundle(bundle, target.privateKey)
    expect(JSON.stringify(r)).not.toContain(privateKeyHex)
    const who = await client.getWhoami({ organizationId: subOrgId })
    expect(who.userId).toBe(subUserId)
    const key = await admin.getApiKey({ organizationId: subOrgId, apiKeyId: result.apiKeyId })
    expect(key.apiKey.apiKeyName).toBe('dora email login')
    expect(key.apiKey.credential.type).toBe('CREDENTIAL_TYPE_EMAIL_AUTH_KEY_P256')
    expect(key.apiKey.expirationSeconds).toBe('600')
    // The delivered key writes as the user too (it is the login credential).
    const w = await client.createWallet({
      type: 'ACTIVITY_TYPE_CREATE_WALLET',
      timestampMs: ts(),
      organizationId: subOrgId,
      parameters: { walletName: 'from email', accounts: [] },
    })
    expect(w.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
  })

  it('V2 without customization: the bundle in the body; invalidateExisting retires the earlier email-auth keys', async () => {
    const first = generateP256KeyPair()
    const a = await emailAuthV2({ email, targetPublicKey: bytesToHex(first.publicKeyUncompressed) })
    expect(a.status).toBe(200)
    const firstBundle = (await messages()).find((m) => m.to === email)!.text.split('\n')[1]!
    const { client: firstClient, privateKeyHex: firstKeyHex } = await openBundle(firstBundle, first.privateKey)
    expect((await firstClient.getWhoami({ organizationId: subOrgId })).userId).toBe(subUserId)
    const firstKey = a.json.activity.result.emailAuthResult.apiKeyId as string
    expect((await admin.getApiKey({ organizationId: subOrgId, apiKeyId: firstKey })).apiKey.apiKeyName).toMatch(/^Email Auth - \d+$/)
    // The default lifetime is 15 minutes.
    expect((await admin.getApiKey({ organizationId: subOrgId, apiKeyId: firstKey })).apiKey.expirationSeconds).toBe('900')

    const second = generateP256KeyPair()
    const b = await emailAuthV2({ email, targetPublicKey: bytesToHex(second.publicKey), invalidateExisting: true })
    expect(b.status).toBe(200)
    const msg = (await messages()).find((m) => m.to === email)!
    expect(msg.subject).toBe('Log in to your account')
    const { client: secondClient } = await openBundle(msg.text.split('\n')[1]!, second.privateKey)
    expect((await secondClient.getWhoami({ organizationId: subOrgId })).userId).toBe(subUserId)
    const stale = await svc.post(
      '/public/v1/query/whoami',
      { organizationId: subOrgId },
      createApiKeyStamper({ privateKeyHex: firstKeyHex }),
    )
    expect(stale.status).toBe(401)
    const keys = await admin.getApiKeys({ organizationId: subOrgId, userId: subUserId })
    expect(keys.apiKeys.map((k) => k.apiKeyId)).not.toContain(firstKey)
  })

  it('V1 is accepted too', async () => {
    const target = generateP256KeyPair()
    const res = await emailAuthV2({ email, targetPublicKey: bytesToHex(target.publicKeyUncompressed) }, 'ACTIVITY_TYPE_EMAIL_AUTH')
    expect(res.status).toBe(200)
    expect(res.json.activity.type).toBe('ACTIVITY_TYPE_EMAIL_AUTH')
    expect(res.json.activity.intent.emailAuthIntent.email).toBe(email)
    const { client } = await openBundle((await messages()).find((m) => m.to === email)!.text.split('\n')[1]!, target.privateKey)
    expect((await client.getWhoami({ organizationId: subOrgId })).userId).toBe(subUserId)
  })

  it('unknown email → 404 naming parameters.email, and nothing is mailed', async () => {
    const before = (await messages()).length
    const res = await emailAuthV2({ email: 'nobody@example.com', targetPublicKey: bytesToHex(generateP256KeyPair().publicKey) })
    expect(res.status).toBe(404)
    expect(res.json.message).toContain('parameters.email')
    expect((await messages()).length).toBe(before)
  })

  it('FEATURE_NAME_EMAIL_AUTH disabled → 412, nothing mailed, no key', async () => {
    const before = (await messages()).length
    const res = await emailAuthV2({ email: closedEmail, targetPublicKey: bytesToHex(generateP256KeyPair().publicKey) })
    expect(res.status).toBe(412)
    expect(res.json.message).toContain('FEATURE_NAME_EMAIL_AUTH')
    expect((await messages()).length).toBe(before)
    const users = await admin.getUsers({ organizationId: closedOrgId })
    expect(users.users[0]!.apiKeys).toEqual([])
  })

  it('bad input → 400 naming the field', async () => {
    const good = { email, targetPublicKey: bytesToHex(generateP256KeyPair().publicKey) }
    const cases: Array<[Record<string, unknown>, string, string?]> = [
      [{ ...good, targetPublicKey: 'zz' }, 'parameters.targetPublicKey'],
      [{ ...good, targetPublicKey: '04' + '00'.repeat(64) }, 'parameters.targetPublicKey'],
      [{ ...good, email: 'not an email' }, 'parameters.email'],
      [{ ...good, expirationSeconds: '0' }, 'parameters.expirationSeconds'],
      [
        { ...good, emailCustomization: { magicLinkTemplate: 'https://acme.example/no-placeholder' } },
        'parameters.emailCustomization.magicLinkTemplate',
      ],
      [{ ...good, replyToEmailAddress: 'nope' }, 'parameters.replyToEmailAddress'],
      // V3 requires emailCustomization.appName.
      [{ ...good, emailCustomization: {} }, 'parameters.emailCustomization.appName', 'ACTIVITY_TYPE_EMAIL_AUTH_V3'],
      [{ ...good }, 'parameters.emailCustomization', 'ACTIVITY_TYPE_EMAIL_AUTH_V3'],
    ]
    const before = (await messages()).length
    for (const [params, field, type] of cases) {
      const res = await emailAuthV2(params, type)
      expect(res.status, JSON.stringify(params)).toBe(400)
      expect(res.json.message, JSON.stringify(params)).toContain(field)
    }
    expect((await messages()).length).toBe(before)
  })
})
