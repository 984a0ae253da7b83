/**
 * The user operations through the unmodified `@turnkey/http` client: update_user, update_user_name,
 * update_user_email and update_user_phone_number (with the verification token of an OTP for the new
 * contact, spent by the change), create_api_only_users; refusals leave the user as it was.
 */
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newApiKey } from './helpers/keys.js'
import { adminTurnkeyClient, startTestService, submitBody, type TestService } from './helpers/service.js'

let svc: TestService
let client: TurnkeyClient
let org: string
let userId: string

const ts = () => String(Date.now())
const S = '/public/v1/submit/'

async function user(id = userId) {
  return (await client.getUser({ organizationId: org, userId: id })).user
}

/** An OTP for `contact` through init_otp and the dev mailbox, verified: its verification token. */
async function verificationTokenFor(otpType: 'OTP_TYPE_EMAIL' | 'OTP_TYPE_SMS', contact: string): Promise<string> {
  const init = await svc.post(`${S}init_otp`, submitBody('ACTIVITY_TYPE_INIT_OTP_V3', org, { otpType, contact, appName: 'Sigil' }))
  expect(init.status).toBe(200)
  const otpId = init.json.activity.result.initOtpResultV2.otpId as string
  const res = await fetch(`${svc.url}/dev/messages`)
  const { messages } = (await res.json()) as { messages: Array<{ to: string; text: string }> }
  const code = messages.find((m) => m.to === contact)?.text.match(/verification code is:? ([0-9A-Z]+)/)?.[1]
  expect(code).toBeDefined()
  const verified = await svc.post(`${S}verify_otp`, submitBody('ACTIVITY_TYPE_VERIFY_OTP', org, { otpId, otpCode: code }))
  expect(verified.status).toBe(200)
  return verified.json.activity.result.verifyOtpResult.verificationToken as string
}

beforeAll(async () => {
  svc = await startTestService()
  org = svc.admin.organizationId
  client = adminTurnkeyClient(svc)
  const r = await client.createUsers({
    type: 'ACTIVITY_TYPE_CREATE_USERS_V4',
    timestampMs: ts(),
    organizationId: org,
    parameters: {
      users: [
        {
          userName: 'erin',
          userEmail: 'erin@example.com',
          apiKeys: [newApiKey('e').param],
          authenticators: [],
          oauthProviders: [],
          userTags: [],
        },
      ],
    },
  })
  userId = r.activity.result.createUsersResult?.userIds?.[0] as string
})
afterAll(async () => {
  await svc?.stop()
})

describe('update_user and update_user_name', () => {
  it('changes only the fields given; userTagIds replaces the tags', async () => {
    const tag = await client.createUserTag({
      type: 'ACTIVITY_TYPE_CREATE_USER_TAG',
      timestampMs: ts(),
      organizationId: org,
      parameters: { userTagName: 'ops', userIds: [] },
    })
    const tagId = tag.activity.result.createUserTagResult?.userTagId as string
    const r = await client.updateUser({
      type: 'ACTIVITY_TYPE_UPDATE_USER',
      timestampMs: ts(),
      organizationId: org,
      parameters: { userId, userName: 'Erin', userPhoneNumber: '+15555550100', userTagIds: [tagId] },
    })
    expect(r.activity.result.updateUserResult?.userId).toBe(userId)
    const u = await user()
    expect([u.userName, u.userEmail, u.userPhoneNumber, u.userTags]).toEqual(['Erin', 'erin@example.com', '+15555550100', [tagId]])

    await client.updateUserName({
      type: 'ACTIVITY_TYPE_UPDATE_USER_NAME',
      timestampMs: ts(),
      organizationId: org,
      parameters: { userId, userName: 'Erin B' },
    })
    expect((await user()).userName).toBe('Erin B')
  })

  it('refuses a bad email, an unknown tag and an unknown user, changing nothing', async () => {
    const before = await user()
    const badEmail = await svc.post(
      `${S}update_user`,
      submitBody('ACTIVITY_TYPE_UPDATE_USER', org, { userId, userName: 'X', userEmail: 'not-an-email' }),
    )
    expect(badEmail.status).toBe(400)
    expect(JSON.stringify(badEmail.json)).toContain('parameters.userEmail')
    const badTag = await svc.post(
      `${S}update_user`,
      submitBody('ACTIVITY_TYPE_UPDATE_USER', org, { userId, userName: 'X', userTagIds: ['nope'] }),
    )
    expect(badTag.status).toBe(404)
    expect(JSON.stringify(badTag.json)).toContain('parameters.userTagIds[0]')
    const noUser = await svc.post(
      `${S}update_user_name`,
      submitBody('ACTIVITY_TYPE_UPDATE_USER_NAME', org, { userId: 'nope', userName: 'X' }),
    )
    expect(noUser.status).toBe(404)
    expect(JSON.stringify(noUser.json)).toContain('parameters.userId')
    const after = await user()
    expect([after.userName, after.userEmail, after.userTags]).toEqual([before.userName, before.userEmail, before.userTags])
  })
})

describe('update_user_email and update_user_phone_number', () => {
  it('sets the email with a verification token for it, once; a token for another contact is refused', async () => {
    const token = await verificationTokenFor('OTP_TYPE_EMAIL', 'erin.new@example.com')
    const wrong = await svc.post(
      `${S}update_user_email`,
      submitBody('ACTIVITY_TYPE_UPDATE_USER_EMAIL', org, { userId, userEmail: 'someone.else@example.com', verificationToken: token }),
    )
    expect(wrong.status).toBe(401)
    expect(JSON.stringify(wrong.json)).toContain('parameters.verificationToken')
    expect((await user()).userEmail).toBe('erin@example.com')

    await client.updateUserEmail({
      type: 'ACTIVITY_TYPE_UPDATE_USER_EMAIL',
      timestampMs: ts(),
      organizationId: org,
      parameters: { userId, userEmail: 'Erin.New@example.com', verificationToken: token },
    })
    expect((await user()).userEmail).toBe('erin.new@example.com')
    const replay = await svc.post(
      `${S}update_user_email`,
      submitBody('ACTIVITY_TYPE_UPDATE_USER_EMAIL', org, { userId, userEmail: 'erin.new@example.com', verificationToken: token }),
    )
    expect(replay.status).toBe(401)
    expect(replay.json.message).toContain('already been used')
  })

  it('sets and removes the phone number; an email token does not verify a phone', async () => {
    const emailToken = await verificationTokenFor('OTP_TYPE_EMAIL', 'erin.third@example.com')
    const mixed = await svc.post(
      `${S}update_user_phone_number`,
      submitBody('ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER', org, { userId, userPhoneNumber: '+15555550199', verificationToken: emailToken }),
    )
    expect(mixed.status).toBe(401)
    await client.updateUserPhoneNumber({
      type: 'ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER',
      timestampMs: ts(),
      organizationId: org,
      parameters: { userId, userPhoneNumber: '+15555550199' },
    })
    expect((await user()).userPhoneNumber).toBe('+15555550199')
    const bad = await svc.post(
      `${S}update_user_phone_number`,
      submitBody('ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER', org, { userId, userPhoneNumber: '555' }),
    )
    expect(bad.status).toBe(400)
    expect(JSON.stringify(bad.json)).toContain('parameters.userPhoneNumber')
    await client.updateUserPhoneNumber({
      type: 'ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER',
      timestampMs: ts(),
      organizationId: org,
      parameters: { userId, userPhoneNumber: '' },
    })
    expect((await user()).userPhoneNumber).toBeUndefined()
  })
})

describe('create_api_only_users', () => {
  it('creates users holding only API keys (P-256 when curveType is absent) whose keys stamp', async () => {
    const key = newApiKey('api only')
    const r = await client.createApiOnlyUsers({
      type: 'ACTIVITY_TYPE_CREATE_API_ONLY_USERS',
      timestampMs: ts(),
      organizationId: org,
      parameters: { apiOnlyUsers: [{ userName: 'robot', userTags: [], apiKeys: [{ apiKeyName: 'robot key', publicKey: key.publicKey }] }] },
    })
    const id = r.activity.result.createApiOnlyUsersResult?.userIds?.[0] as string
    const u = await user(id)
    expect(u.apiKeys.map((k) => [k.apiKeyName, k.credential.type])).toEqual([['robot key', 'CREDENTIAL_TYPE_API_KEY_P256']])
    expect(u.authenticators).toEqual([])
    const robot = new TurnkeyClient(
      { baseUrl: svc.url },
      new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKeyHex }),
    )
    expect((await robot.getWhoami({ organizationId: org })).userId).toBe(id)
    const bad = await svc.post(
      `${S}create_api_only_users`,
      submitBody('ACTIVITY_TYPE_CREATE_API_ONLY_USERS', org, {
        apiOnlyUsers: [{ userName: 'x', userTags: [], apiKeys: [{ apiKeyName: 'k', publicKey: 'zz' }] }],
      }),
    )
    expect(bad.status).toBe(400)
    expect(JSON.stringify(bad.json)).toContain('parameters.apiOnlyUsers[0].apiKeys[0]')
  })
})

describe('older versions on the same paths', () => {
  it('CREATE_USERS_V2 and CREATE_API_KEYS (V1) take API keys without curveType as P-256 keys that stamp', async () => {
    const k1 = newApiKey('v2 user key')
    const users = await svc.post(
      `${S}create_users`,
      submitBody('ACTIVITY_TYPE_CREATE_USERS_V2', org, {
        users: [{ userName: 'v2 user', apiKeys: [{ apiKeyName: 'k1', publicKey: k1.publicKey }], authenticators: [], userTags: [] }],
      }),
    )
    expect(users.status).toBe(200)
    expect(users.json.activity.intent.createUsersIntentV2.users[0].userName).toBe('v2 user')
    const id = users.json.activity.result.createUsersResult.userIds[0] as string
    const k2 = newApiKey('v1 key')
    const keys = await svc.post(
      `${S}create_api_keys`,
      submitBody('ACTIVITY_TYPE_CREATE_API_KEYS', org, { userId: id, apiKeys: [{ apiKeyName: 'k2', publicKey: k2.publicKey }] }),
    )
    expect(keys.status).toBe(200)
    const u = await user(id)
    expect(u.apiKeys.map((k) => [k.apiKeyName, k.credential.type])).toEqual([
      ['k1', 'CREDENTIAL_TYPE_API_KEY_P256'],
      ['k2', 'CREDENTIAL_TYPE_API_KEY_P256'],
    ])
    for (const k of [k1, k2]) {
      const c = new TurnkeyClient({ baseUrl: svc.url }, new ApiKeyStamper({ apiPublicKey: k.publicKey, apiPrivateKey: k.privateKeyHex }))
      expect((await c.getWhoami({ organizationId: org })).userId).toBe(id)
    }
    const bad = await svc.post(
      `${S}create_api_keys`,
      submitBody('ACTIVITY_TYPE_CREATE_API_KEYS', org, { userId: id, apiKeys: [{ apiKeyName: 'x', publicKey: '02zz' }] }),
    )
    expect(bad.status).toBe(400)
    expect(JSON.stringify(bad.json)).toContain('parameters.apiKeys[0]')
  })
})
