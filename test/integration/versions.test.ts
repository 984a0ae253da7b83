/**
 * The older activity versions the clients send, each on its operation's path with
 * its own intent and result keys. Every version: a raw stamped submit completes, its intent is
 * echoed under the old intent key and its result under the old result key, its effects are there;
 * one bad input answers 400 naming the field (in the old intent's spelling).
 */
import { DEV_OIDC_CLIENT_ID, devSubject } from '../../src/devchain/oidcProvider.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXTENSION_ORIGIN } from '../../src/api/identity.js'
import { decryptCredentialBundle } from '../../src/crypto/credentialBundle.js'
import { bytesToHex } from '../../src/crypto/encoding.js'
import { generateP256KeyPair } from '../../src/crypto/p256.js'
import { createApiKeyStamper } from '../../src/crypto/stamp.js'
import { authenticatorParam, createSoftAuthenticator, randomChallenge } from '../helpers/softAuthenticator.js'
import { newApiKey } from './helpers/keys.js'
import { startTestService, submitBody, type TestService } from './helpers/service.js'

let svc: TestService
let org: string

const S = '/public/v1/submit/'
const SUB_ORG = `${S}create_sub_organization`

/** The field paths of a wire error's BadRequest detail. */
function violatedFields(json: any): string[] {
  const details: any[] = Array.isArray(json?.details) ? json.details : []
  return details.flatMap((d) => (Array.isArray(d.fieldViolations) ? d.fieldViolations.map((v: any) => String(v.field)) : []))
}

/** Submits `type` on `path`; expects a completed activity and returns it. */
async function completed(path: string, type: string, parameters: unknown, orgId = org) {
  const r = await svc.post(path, submitBody(type, orgId, parameters))
  expect(r.status, JSON.stringify(r.json)).toBe(200)
  expect(r.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
  expect(r.json.activity.type).toBe(type)
  return r.json.activity
}

/** Submits `type` on `path`; expects a 400 naming `field`. */
async function refused(path: string, type: string, parameters: unknown, field: string, orgId = org) {
  const r = await svc.post(path, submitBody(type, orgId, parameters))
  expect(r.status, JSON.stringify(r.json)).toBe(400)
  expect(violatedFields(r.json)).toContain(field)
  return r.json
}

async function users(orgId: string) {
  const r = await svc.post('/public/v1/query/list_users', { organizationId: orgId })
  expect(r.status).toBe(200)
  return r.json.users as any[]
}

/** An ID token of the service's own dev identity provider (a trusted issuer in development). */
function oidcToken(email: string) {
  return svc.rt.devIdp!.issueIdToken({ email })
}

const ETH_ACCOUNT = {
  curve: 'CURVE_SECP256K1',
  pathFormat: 'PATH_FORMAT_BIP32',
  path: "m/44'/60'/0'/0/0",
  addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
}

beforeAll(async () => {
  svc = await startTestService()
  org = svc.admin.organizationId
})

afterAll(async () => {
  await svc?.stop()
})

describe('create_sub_organization V1 to V7', () => {
  it('V1: a name and one passkey make a single root user; result createSubOrganizationResult', async () => {
    const soft = createSoftAuthenticator({ rpId: EXTENSION_ORIGIN, origin: EXTENSION_ORIGIN })
    const a = await completed(SUB_ORG, 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION', {
      name: 'v1 org',
      rootAuthenticator: authenticatorParam(soft, randomChallenge(), 'v1 passkey'),
    })
    expect(a.intent.createSubOrganizationIntent.name).toBe('v1 org')
    const r = a.result.createSubOrganizationResult
    expect(r.rootUserIds).toHaveLength(1)
    const [u] = await users(r.subOrganizationId)
    expect(u.userId).toBe(r.rootUserIds[0])
    expect(u.authenticators.map((x: any) => x.authenticatorName)).toEqual(['v1 passkey'])
    // the passkey stamps in the new sub-organization
    const who = await svc.post('/public/v1/query/whoami', { organizationId: r.subOrganizationId }, soft.stamper())
    expect(who.status, JSON.stringify(who.json)).toBe(200)
    expect(who.json.userId).toBe(u.userId)

    const evil = createSoftAuthenticator({ rpId: 'evil.example', origin: EXTENSION_ORIGIN })
    // an attestation for another RP ID: refused, named in V1's own field
    const bad = await svc.post(
      SUB_ORG,
      submitBody('ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION', org, {
        name: 'v1 bad',
        rootAuthenticator: authenticatorParam(evil, randomChallenge(), 'evil'),
      }),
    )
    expect(bad.status, JSON.stringify(bad.json)).toBe(400)
    const fields = violatedFields(bad.json)
    expect(fields.length).toBeGreaterThan(0)
    expect(fields.every((f) => f.startsWith('parameters.rootAuthenticator'))).toBe(true)
    await refused(SUB_ORG, 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION', { name: 'v1 no passkey' }, 'parameters.rootAuthenticator')
  })

  it('V2: root users with API keys without curveType (P-256 keys that stamp); result createSubOrganizationResult', async () => {
    const k = newApiKey('v2 key')
    const a = await completed(SUB_ORG, 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V2', {
      subOrganizationName: 'v2 org',
      rootUsers: [{ userName: 'v2 root', apiKeys: [{ apiKeyName: 'v2 key', publicKey: k.publicKey }], authenticators: [] }],
      rootQuorumThreshold: 1,
    })
    expect(a.intent.createSubOrganizationIntentV2.subOrganizationName).toBe('v2 org')
    const r = a.result.createSubOrganizationResult
    const [u] = await users(r.subOrganizationId)
    expect(u.apiKeys.map((x: any) => x.credential.type)).toEqual(['CREDENTIAL_TYPE_API_KEY_P256'])
    const who = await svc.post('/public/v1/query/whoami', { organizationId: r.subOrganizationId }, k.stamper)
    expect(who.json.userId).toBe(r.rootUserIds[0])

    await refused(
      SUB_ORG,
      'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V2',
      { subOrganizationName: 'v2 bad', rootUsers: [{ userName: 'x', apiKeys: [], authenticators: [] }], rootQuorumThreshold: 2 },
      'parameters.rootQuorumThreshold',
    )
  })

  it('V3: private keys made in the new sub-organization; result createSubOrganizationResultV3', async () => {
    const a = await completed(SUB_ORG, 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V3', {
      subOrganizationName: 'v3 org',
      rootUsers: [{ userName: 'v3 root', apiKeys: [], authenticators: [] }],
      rootQuorumThreshold: 1,
      privateKeys: [
        { privateKeyName: 'v3 key', curve: 'CURVE_SECP256K1', privateKeyTags: [], addressFormats: ['ADDRESS_FORMAT_ETHEREUM'] },
      ],
    })
    expect(a.intent.createSubOrganizationIntentV3.privateKeys[0].privateKeyName).toBe('v3 key')
    const r = a.result.createSubOrganizationResultV3
    expect(r.rootUserIds).toHaveLength(1)
    expect(r.privateKeys).toHaveLength(1)
    expect(r.privateKeys[0].addresses[0].address).toMatch(/^0x[0-9a-fA-F]{40}$/)
    const k = await svc.post('/public/v1/query/get_private_key', {
      organizationId: r.subOrganizationId,
      privateKeyId: r.privateKeys[0].privateKeyId,
    })
    expect(k.status).toBe(200)
    expect(k.json.privateKey.privateKeyName).toBe('v3 key')
    // none in the parent
    const parent = await svc.post('/public/v1/query/get_private_key', { organizationId: org, privateKeyId: r.privateKeys[0].privateKeyId })
    expect(parent.status).toBe(404)

    const before = (await svc.post('/public/v1/query/list_suborgs', { organizationId: org })).json.organizationIds.length
    await refused(
      SUB_ORG,
      'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V3',
      {
        subOrganizationName: 'v3 bad',
        rootUsers: [{ userName: 'x', apiKeys: [], authenticators: [] }],
        rootQuorumThreshold: 1,
        privateKeys: [{ privateKeyName: 'k', curve: 'CURVE_ED25519', privateKeyTags: [], addressFormats: ['ADDRESS_FORMAT_ETHEREUM'] }],
      },
      'parameters.privateKeys[0].addressFormats[0]',
    )
    // all or nothing: the refused request made no sub-organization
    const after = (await svc.post('/public/v1/query/list_suborgs', { organizationId: org })).json.organizationIds.length
    expect(after).toBe(before)
  })

  it('V4: a wallet and the email flags; result createSubOrganizationResultV4', async () => {
    const a = await completed(SUB_ORG, 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V4', {
      subOrganizationName: 'v4 org',
      rootUsers: [{ userName: 'v4 root', userEmail: 'v4@example.com', apiKeys: [], authenticators: [] }],
      rootQuorumThreshold: 1,
      wallet: { walletName: 'v4 wallet', accounts: [ETH_ACCOUNT] },
      disableEmailRecovery: true,
    })
    expect(a.intent.createSubOrganizationIntentV4.wallet.walletName).toBe('v4 wallet')
    const r = a.result.createSubOrganizationResultV4
    expect(r.wallet.addresses[0]).toMatch(/^0x[0-9a-fA-F]{40}$/)
    const configs = await svc.post('/public/v1/query/get_organization_configs', { organizationId: r.subOrganizationId })
    expect(configs.json.configs.features.map((f: any) => f.name)).toEqual(['FEATURE_NAME_EMAIL_RECOVERY'])

    await refused(
      SUB_ORG,
      'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V4',
      {
        subOrganizationName: 'v4 bad',
        rootUsers: [{ userName: 'x', apiKeys: [], authenticators: [] }],
        rootQuorumThreshold: 1,
        wallet: { walletName: 'w', accounts: [{ ...ETH_ACCOUNT, path: 'nonsense' }] },
      },
      'parameters.wallet.accounts[0].path',
    )
  })

  it('V5: root users with OAuth providers by token; result createSubOrganizationResultV5', async () => {
    const a = await completed(SUB_ORG, 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V5', {
      subOrganizationName: 'v5 org',
      rootUsers: [
        {
          userName: 'v5 root',
          apiKeys: [],
          authenticators: [],
          oauthProviders: [{ providerName: 'Issuer', oidcToken: await oidcToken('v5@example.com') }],
        },
      ],
      rootQuorumThreshold: 1,
    })
    expect(a.intent.createSubOrganizationIntentV5.rootUsers[0].oauthProviders[0].providerName).toBe('Issuer')
    const r = a.result.createSubOrganizationResultV5
    expect(r.wallet).toBeUndefined()
    const [u] = await users(r.subOrganizationId)
    expect(u.oauthProviders.map((p: any) => [p.issuer, p.subject, p.audience])).toEqual([
      [svc.rt.devIdp!.issuer(), devSubject('v5@example.com'), DEV_OIDC_CLIENT_ID],
    ])

    // V5's OAuth providers are by token only: claims alone are not a V5 provider
    await refused(
      SUB_ORG,
      'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V5',
      {
        subOrganizationName: 'v5 bad',
        rootUsers: [
          {
            userName: 'x',
            apiKeys: [],
            authenticators: [],
            oauthProviders: [{ providerName: 'Claims', oidcClaims: { iss: 'a', sub: 'b', aud: 'c' } }],
          },
        ],
        rootQuorumThreshold: 1,
      },
      'parameters.rootUsers[0].oauthProviders[0].oidcToken',
    )
  })

  it('V6: API keys with curveType; result createSubOrganizationResultV6', async () => {
    const k = newApiKey('v6 key')
    const a = await completed(SUB_ORG, 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V6', {
      subOrganizationName: 'v6 org',
      rootUsers: [{ userName: 'v6 root', apiKeys: [k.param], authenticators: [], oauthProviders: [] }],
      rootQuorumThreshold: 1,
      wallet: { walletName: 'v6 wallet', accounts: [ETH_ACCOUNT] },
    })
    expect(a.intent.createSubOrganizationIntentV6.rootUsers[0].apiKeys[0].curveType).toBe('API_KEY_CURVE_P256')
    const r = a.result.createSubOrganizationResultV6
    expect(r.wallet.walletId).toBeTruthy()
    const who = await svc.post('/public/v1/query/whoami', { organizationId: r.subOrganizationId }, k.stamper)
    expect(who.json.userId).toBe(r.rootUserIds[0])

    await refused(
      SUB_ORG,
      'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V6',
      {
        subOrganizationName: 'v6 bad',
        rootUsers: [{ userName: 'x', apiKeys: [{ apiKeyName: 'k', publicKey: k.publicKey }], authenticators: [], oauthProviders: [] }],
        rootQuorumThreshold: 1,
      },
      'parameters.rootUsers[0].apiKeys[0].curveType',
    )
  })

  it('V7: phone numbers and the OTP flags; result createSubOrganizationResultV7', async () => {
    const a = await completed(SUB_ORG, 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7', {
      subOrganizationName: 'v7 org',
      rootUsers: [{ userName: 'v7 root', userPhoneNumber: '+15555550107', apiKeys: [], authenticators: [], oauthProviders: [] }],
      rootQuorumThreshold: 1,
      disableSmsAuth: true,
    })
    expect(a.intent.createSubOrganizationIntentV7.disableSmsAuth).toBe(true)
    const r = a.result.createSubOrganizationResultV7
    const [u] = await users(r.subOrganizationId)
    expect(u.userPhoneNumber).toBe('+15555550107')
    const configs = await svc.post('/public/v1/query/get_organization_configs', { organizationId: r.subOrganizationId })
    expect(configs.json.configs.features.map((f: any) => f.name)).toEqual(['FEATURE_NAME_SMS_AUTH'])

    await refused(
      SUB_ORG,
      'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7',
      {
        subOrganizationName: 'v7 bad',
        rootUsers: [{ userName: 'x', userPhoneNumber: '555', apiKeys: [], authenticators: [], oauthProviders: [] }],
        rootQuorumThreshold: 1,
      },
      'parameters.rootUsers[0].userPhoneNumber',
    )
  })
})

/** A registration in the legacy form (the browser's PublicKeyCredential), for `userId`. */
function legacyAuthenticator(
  name: string,
  userId: string,
  soft = createSoftAuthenticator({ rpId: EXTENSION_ORIGIN, origin: EXTENSION_ORIGIN }),
) {
  const { challenge, attestation } = authenticatorParam(soft, randomChallenge(), name)
  return {
    soft,
    param: {
      authenticatorName: name,
      userId,
      challenge,
      attestation: {
        id: attestation.credentialId,
        type: 'public-key',
        rawId: attestation.credentialId,
        authenticatorAttachment: 'cross-platform',
        response: {
          clientDataJson: attestation.clientDataJson,
          attestationObject: attestation.attestationObject,
          transports: attestation.transports,
        },
        clientExtensionResults: { credProps: { rk: true } },
      },
    },
  }
}

describe('legacy authenticators: create_authenticators V1 and create_users V1', () => {
  it('CREATE_USERS (V1): accessType, P-256 API keys and a legacy passkey that stamps; result createUsersResult', async () => {
    const k = newApiKey('v1 user key')
    const passkey = legacyAuthenticator('v1 user passkey', 'ignored')
    const a = await completed(`${S}create_users`, 'ACTIVITY_TYPE_CREATE_USERS', {
      users: [
        {
          userName: 'v1 user',
          accessType: 'ACCESS_TYPE_ALL',
          apiKeys: [{ apiKeyName: 'v1 key', publicKey: k.publicKey }],
          authenticators: [passkey.param],
          userTags: [],
        },
      ],
    })
    expect(a.intent.createUsersIntent.users[0].accessType).toBe('ACCESS_TYPE_ALL')
    const id = a.result.createUsersResult.userIds[0]
    const u = (await svc.post('/public/v1/query/get_user', { organizationId: org, userId: id })).json.user
    expect(u.apiKeys.map((x: any) => x.credential.type)).toEqual(['CREDENTIAL_TYPE_API_KEY_P256'])
    expect(u.authenticators.map((x: any) => x.authenticatorName)).toEqual(['v1 user passkey'])
    for (const stamper of [k.stamper, passkey.soft.stamper()]) {
      const who = await svc.post('/public/v1/query/whoami', { organizationId: org }, stamper)
      expect(who.json.userId).toBe(id)
    }

    await refused(
      `${S}create_users`,
      'ACTIVITY_TYPE_CREATE_USERS',
      { users: [{ userName: 'v1 bad', accessType: 'ACCESS_TYPE_NONE', apiKeys: [], authenticators: [], userTags: [] }] },
      'parameters.users[0].accessType',
    )
    // a passkey for another RP ID: refused, named in the legacy form's spelling
    const evil = legacyAuthenticator('evil', 'x', createSoftAuthenticator({ rpId: 'evil.example', origin: EXTENSION_ORIGIN }))
    const bad = await svc.post(
      `${S}create_users`,
      submitBody('ACTIVITY_TYPE_CREATE_USERS', org, {
        users: [{ userName: 'v1 evil', accessType: 'ACCESS_TYPE_WEB', apiKeys: [], authenticators: [evil.param], userTags: [] }],
      }),
    )
    expect(bad.status, JSON.stringify(bad.json)).toBe(400)
    expect(violatedFields(bad.json)).toContain('parameters.users[0].authenticators[0].attestation')
  })

  it('CREATE_AUTHENTICATORS (V1): legacy passkeys for the named user; result createAuthenticatorsResult', async () => {
    const created = await completed(`${S}create_users`, 'ACTIVITY_TYPE_CREATE_USERS_V2', {
      users: [{ userName: 'passkey owner', apiKeys: [], authenticators: [], userTags: [] }],
    })
    const userId = created.result.createUsersResult.userIds[0]
    const passkey = legacyAuthenticator('v1 passkey', userId)
    const a = await completed(`${S}create_authenticators`, 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS', {
      userId,
      authenticators: [passkey.param],
    })
    expect(a.intent.createAuthenticatorsIntent.authenticators[0].attestation.rawId).toBe(passkey.param.attestation.rawId)
    const [authenticatorId] = a.result.createAuthenticatorsResult.authenticatorIds
    const u = (await svc.post('/public/v1/query/get_user', { organizationId: org, userId })).json.user
    expect(u.authenticators.map((x: any) => x.authenticatorId)).toEqual([authenticatorId])
    const who = await svc.post('/public/v1/query/whoami', { organizationId: org }, passkey.soft.stamper())
    expect(who.json.userId).toBe(userId)

    const other = legacyAuthenticator('for someone else', 'another-user')
    await refused(
      `${S}create_authenticators`,
      'ACTIVITY_TYPE_CREATE_AUTHENTICATORS',
      { userId, authenticators: [other.param] },
      'parameters.authenticators[0].userId',
    )
    const mangled = legacyAuthenticator('mangled', userId)
    await refused(
      `${S}create_authenticators`,
      'ACTIVITY_TYPE_CREATE_AUTHENTICATORS',
      {
        userId,
        authenticators: [
          {
            ...mangled.param,
            attestation: { ...mangled.param.attestation, response: { ...mangled.param.attestation.response, clientDataJson: '!!' } },
          },
        ],
      },
      'parameters.authenticators[0].attestation.response.clientDataJson',
    )
    const after = (await svc.post('/public/v1/query/get_user', { organizationId: org, userId })).json.user
    expect(after.authenticators).toHaveLength(1)
  })
})

type Msg = { to: string; subject: string; text: string }

/** The newest dev-mailbox message to `to`. */
async function lastMessageTo(to: string): Promise<Msg> {
  const res = await fetch(`${svc.url}/dev/messages`)
  const { messages } = (await res.json()) as { messages: Msg[] }
  const m = messages.find((x) => x.to === to)
  expect(m).toBeDefined()
  return m!
}

const codeIn = (m: Msg) => m.text.match(/verification code is:? ([0-9A-Z]+)/)?.[1]

/** verify_otp V1 with the code of the last message to `contact`: the OTP of `otpId` verifies. */
async function verifies(otpId: string, contact: string) {
  const code = codeIn(await lastMessageTo(contact))
  expect(code).toBeDefined()
  const v = await svc.post(`${S}verify_otp`, submitBody('ACTIVITY_TYPE_VERIFY_OTP', org, { otpId, otpCode: code }))
  expect(v.status, JSON.stringify(v.json)).toBe(200)
  expect(v.json.activity.result.verifyOtpResult.verificationToken).toBeTruthy()
}

describe('OTP, recovery and session versions', () => {
  it('INIT_OTP_AUTH (V1): the app name from the email customization; result initOtpAuthResult', async () => {
    const contact = 'otp-auth-v1@example.com'
    const a = await completed(`${S}init_otp_auth`, 'ACTIVITY_TYPE_INIT_OTP_AUTH', {
      otpType: 'OTP_TYPE_EMAIL',
      contact,
      emailCustomization: { appName: 'Old App' },
    })
    expect(a.intent.initOtpAuthIntent.contact).toBe(contact)
    expect(a.result.initOtpAuthResult.otpId).toBeTruthy()
    const m = await lastMessageTo(contact)
    expect(m.subject).toContain('Old App')
    expect(codeIn(m)).toHaveLength(9)
    await verifies(a.result.initOtpAuthResult.otpId, contact)

    await refused(
      `${S}init_otp_auth`,
      'ACTIVITY_TYPE_INIT_OTP_AUTH',
      { otpType: 'OTP_TYPE_EMAIL', contact: 'not an email' },
      'parameters.contact',
    )
  })

  it('INIT_OTP_AUTH_V2: otpLength and alphanumeric, Sigil as the app name when none is given; result initOtpAuthResultV2', async () => {
    const contact = '+15555550202'
    const a = await completed(`${S}init_otp_auth`, 'ACTIVITY_TYPE_INIT_OTP_AUTH_V2', {
      otpType: 'OTP_TYPE_SMS',
      contact,
      otpLength: 6,
      alphanumeric: false,
    })
    expect(a.intent.initOtpAuthIntentV2.otpLength).toBe(6)
    const m = await lastMessageTo(contact)
    expect(m.text).toContain('Sigil')
    expect(codeIn(m)).toMatch(/^[0-9]{6}$/)
    await verifies(a.result.initOtpAuthResultV2.otpId, contact)

    await refused(
      `${S}init_otp_auth`,
      'ACTIVITY_TYPE_INIT_OTP_AUTH_V2',
      { otpType: 'OTP_TYPE_SMS', contact, otpLength: 3 },
      'parameters.otpLength',
    )
  })

  it('INIT_OTP (V1) and INIT_OTP_V2: result initOtpResult without a target bundle', async () => {
    const c1 = 'otp-v1@example.com'
    const v1 = await completed(`${S}init_otp`, 'ACTIVITY_TYPE_INIT_OTP', {
      otpType: 'OTP_TYPE_EMAIL',
      contact: c1,
      expirationSeconds: '120',
    })
    expect(v1.intent.initOtpIntent.expirationSeconds).toBe('120')
    expect(Object.keys(v1.result.initOtpResult)).toEqual(['otpId'])
    expect((await lastMessageTo(c1)).subject).toContain('Sigil')
    await verifies(v1.result.initOtpResult.otpId, c1)
    await refused(
      `${S}init_otp`,
      'ACTIVITY_TYPE_INIT_OTP',
      { otpType: 'OTP_TYPE_EMAIL', contact: c1, expirationSeconds: '601' },
      'parameters.expirationSeconds',
    )

    const c2 = 'otp-v2@example.com'
    const v2 = await completed(`${S}init_otp`, 'ACTIVITY_TYPE_INIT_OTP_V2', { otpType: 'OTP_TYPE_EMAIL', contact: c2, appName: 'V2 App' })
    expect(v2.intent.initOtpIntentV2.appName).toBe('V2 App')
    expect(Object.keys(v2.result.initOtpResult)).toEqual(['otpId'])
    expect((await lastMessageTo(c2)).subject).toContain('V2 App')
    await verifies(v2.result.initOtpResult.otpId, c2)
    await refused(`${S}init_otp`, 'ACTIVITY_TYPE_INIT_OTP_V2', { otpType: 'OTP_TYPE_EMAIL', contact: c2 }, 'parameters.appName')
  })

  it('INIT_USER_EMAIL_RECOVERY (V1): no customization needed; result initUserEmailRecoveryResult', async () => {
    const email = 'recover-v1@example.com'
    const created = await completed(`${S}create_users`, 'ACTIVITY_TYPE_CREATE_USERS_V2', {
      users: [{ userName: 'recoverer', userEmail: email, apiKeys: [], authenticators: [], userTags: [] }],
    })
    const userId = created.result.createUsersResult.userIds[0]
    const target = generateP256KeyPair()
    const a = await completed(`${S}init_user_email_recovery`, 'ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY', {
      email,
      targetPublicKey: bytesToHex(target.publicKeyUncompressed),
    })
    expect(a.intent.initUserEmailRecoveryIntent.email).toBe(email)
    expect(a.result.initUserEmailRecoveryResult.userId).toBe(userId)
    expect((await lastMessageTo(email)).subject).toContain('Recover your Sigil account')

    await refused(
      `${S}init_user_email_recovery`,
      'ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY',
      { email: 'not an email', targetPublicKey: bytesToHex(target.publicKeyUncompressed) },
      'parameters.email',
    )
  })

  it('CREATE_READ_WRITE_SESSION (V1): a session for the stamping user named by email; result createReadWriteSessionResult', async () => {
    const email = 'session-v1@example.com'
    const k = newApiKey('session user key')
    const other = newApiKey('other root key')
    const soft = createSoftAuthenticator({ rpId: EXTENSION_ORIGIN, origin: EXTENSION_ORIGIN })
    const sub = await completed(SUB_ORG, 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V6', {
      subOrganizationName: 'session org',
      rootUsers: [
        {
          userName: 'session user',
          userEmail: email,
          apiKeys: [k.param],
          authenticators: [authenticatorParam(soft, randomChallenge(), 'session passkey')],
          oauthProviders: [],
        },
        { userName: 'other root', userEmail: 'other-root@example.com', apiKeys: [other.param], authenticators: [], oauthProviders: [] },
      ],
      rootQuorumThreshold: 1,
    })
    const subOrg = sub.result.createSubOrganizationResultV6.subOrganizationId
    const userId = sub.result.createSubOrganizationResultV6.rootUserIds[0]
    const target = generateP256KeyPair()
    const r = await svc.post(
      `${S}create_read_write_session`,
      submitBody('ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION', subOrg, { targetPublicKey: bytesToHex(target.publicKeyUncompressed), email }),
      k.stamper,
    )
    expect(r.status, JSON.stringify(r.json)).toBe(200)
    expect(r.json.activity.intent.createReadWriteSessionIntent.email).toBe(email)
    const result = r.json.activity.result.createReadWriteSessionResult
    expect([result.organizationId, result.userId, result.username]).toEqual([subOrg, userId, 'session user'])
    const opened = await decryptCredentialBundle({ bundle: result.credentialBundle, privateKey: target.privateKey })
    expect(opened.ok).toBe(true)
    if (!opened.ok) return
    const session = createApiKeyStamper({ privateKeyHex: bytesToHex(opened.plaintext) })
    expect((await svc.post('/public/v1/query/whoami', { organizationId: subOrg }, session)).json.userId).toBe(userId)

    // another user of the same organization may not take a session for that user by naming their email
    const stolen = await svc.post(
      `${S}create_read_write_session`,
      submitBody('ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION', subOrg, { targetPublicKey: bytesToHex(target.publicKeyUncompressed), email }),
      other.stamper,
    )
    expect(stolen.status, JSON.stringify(stolen.json)).toBe(400)
    expect(violatedFields(stolen.json)).toEqual(['parameters.email'])
    // an email no user of the organization has: 404 naming it
    const unknown = await svc.post(
      `${S}create_read_write_session`,
      submitBody('ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION', subOrg, {
        targetPublicKey: bytesToHex(target.publicKeyUncompressed),
        email: 'nobody@example.com',
      }),
      k.stamper,
    )
    expect(unknown.status).toBe(404)
    expect(JSON.stringify(unknown.json)).toContain('parameters.email')
    // like V2, a passkey stamp naming the parent organization finds its sub-organization
    const viaParent = await svc.post(
      `${S}create_read_write_session`,
      submitBody('ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION', org, { targetPublicKey: bytesToHex(target.publicKeyUncompressed), email }),
      soft.stamper(),
    )
    expect(viaParent.status, JSON.stringify(viaParent.json)).toBe(200)
    expect(viaParent.json.activity.result.createReadWriteSessionResult.organizationId).toBe(subOrg)
  })
})
