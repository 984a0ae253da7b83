import { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXTENSION_ORIGIN } from '../../src/api/identity.js'
import { authenticatorParam, createSoftAuthenticator, randomChallenge, type SoftAuthenticator } from '../helpers/softAuthenticator.js'
import type { Stamper } from '../../src/api/stamper.js'
import { newApiKey } from './helpers/keys.js'
import { adminTurnkeyClient, startTestService, submitBody, type TestService } from './helpers/service.js'

const ACCEPT = '/public/v1/submit/accept_invitation'
const CREATE = '/public/v1/submit/create_invitations'
const DELETE = '/public/v1/submit/delete_invitation'

let svc: TestService
let client: TurnkeyClient
let org: string
let subOrg: string
/** The sub-organization's root user's key: only its own users act in it (custody). */
const subKey = newApiKey('s')
let alice: string
let teamTag: string
/** Added to the service's clock (and to request timestamps) to move past expiry. */
let offsetMs = 0

const ts = () => String(Date.now() + offsetMs)
const passkey = () => createSoftAuthenticator({ rpId: EXTENSION_ORIGIN, origin: EXTENSION_ORIGIN })
const post = (path: string, type: string, organizationId: string, parameters: unknown, stamper?: Stamper) =>
  svc.post(path, submitBody(type, organizationId, parameters, { timestampMs: ts() }), stamper)

type Mail = { invitationId: string; userId: string; code: string; text: string; subject: string }

/** The newest invitation email to `to`, with the ids and code read from its text. */
async function mailTo(to: string): Promise<Mail> {
  const res = await fetch(`${svc.url}/dev/messages`)
  const { messages } = (await res.json()) as { messages: Array<{ to: string; text: string; subject: string }> }
  const m = messages.find((x) => x.to === to)
  expect(m, `no mail to ${to}`).toBeDefined()
  const field = (label: string) => m!.text.match(new RegExp(`${label}: (\\S+)`))?.[1] ?? ''
  return {
    invitationId: field('Invitation id'),
    userId: field('Your user id'),
    code: field('Invitation code'),
    text: m!.text,
    subject: m!.subject,
  }
}

function invite(email: string, extra: Record<string, unknown> = {}, organizationId = org) {
  return client.createInvitations({
    type: 'ACTIVITY_TYPE_CREATE_INVITATIONS',
    timestampMs: ts(),
    organizationId,
    parameters: {
      invitations: [
        {
          receiverUserName: email.split('@')[0]!,
          receiverUserEmail: email,
          receiverUserTags: [],
          accessType: 'ACCESS_TYPE_ALL',
          senderUserId: alice,
          ...extra,
        },
      ],
    },
  })
}

function accept(m: { invitationId: string; userId: string }, challenge: string, soft: SoftAuthenticator = passkey(), organizationId = org) {
  return post(ACCEPT, 'ACTIVITY_TYPE_ACCEPT_INVITATION_V2', organizationId, {
    invitationId: m.invitationId,
    userId: m.userId,
    authenticator: authenticatorParam(soft, challenge, 'invitee passkey'),
  })
}

async function invitations() {
  return (await client.getOrganization({ organizationId: org })).organizationData.invitations ?? []
}

async function userExists(userId: string): Promise<boolean> {
  return (await client.getUsers({ organizationId: org })).users.some((u) => u.userId === userId)
}

beforeAll(async () => {
  svc = await startTestService({ now: () => Date.now() + offsetMs })
  org = svc.admin.organizationId
  client = adminTurnkeyClient(svc)
  const users = await client.createUsers({
    type: 'ACTIVITY_TYPE_CREATE_USERS_V4',
    timestampMs: ts(),
    organizationId: org,
    parameters: {
      users: [
        {
          userName: 'alice',
          userEmail: 'alice@example.com',
          apiKeys: [newApiKey('a').param],
          authenticators: [],
          oauthProviders: [],
          userTags: [],
        },
      ],
    },
  })
  alice = users.activity.result.createUsersResult?.userIds?.[0] as string
  const tag = await client.createUserTag({
    type: 'ACTIVITY_TYPE_CREATE_USER_TAG',
    timestampMs: ts(),
    organizationId: org,
    parameters: { userTagName: 'team', userIds: [] },
  })
  teamTag = tag.activity.result.createUserTagResult?.userTagId as string
  const sub = await client.createSubOrganization({
    type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
    timestampMs: ts(),
    organizationId: org,
    parameters: {
      subOrganizationName: 'invitations sub',
      rootUsers: [{ userName: 'sub root', apiKeys: [subKey.param], authenticators: [], oauthProviders: [] }],
      rootQuorumThreshold: 1,
    },
  })
  subOrg = sub.activity.result.createSubOrganizationResultV8?.subOrganizationId as string
})
afterAll(async () => {
  await svc?.stop()
})

describe('invitations', () => {
  it('create → email → accept with the code as passkey challenge → the user exists and stamps with the passkey', async () => {
    const created = await invite('Carol@Example.com', { receiverUserName: 'Carol', receiverUserTags: [teamTag] })
    const [invitationId] = created.activity.result.createInvitationsResult?.invitationIds ?? []
    expect(typeof invitationId).toBe('string')

    const mail = await mailTo('carol@example.com')
    expect(mail.invitationId).toBe(invitationId)
    expect(mail.code).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(mail.text).toContain('alice invited you to join the organization')
    expect(mail.text).toContain('/v1/accept_invitation')
    expect(await userExists(mail.userId)).toBe(false)

    const listed = (await invitations()).find((i) => i.invitationId === invitationId)
    expect(listed).toMatchObject({
      receiverUserName: 'Carol',
      receiverEmail: 'carol@example.com',
      receiverUserTags: [teamTag],
      accessType: 'ACCESS_TYPE_ALL',
      status: 'INVITATION_STATUS_CREATED',
      senderUserId: alice,
    })
    // The code is never stored or echoed anywhere readable.
    expect(JSON.stringify(await client.getOrganization({ organizationId: org }))).not.toContain(mail.code)

    const soft = passkey()
    const res = await accept(mail, mail.code, soft)
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(res.json.activity.result.acceptInvitationResult).toEqual({ invitationId, userId: mail.userId })

    const { user } = await client.getUser({ organizationId: org, userId: mail.userId })
    expect(user.userName).toBe('Carol')
    expect(user.userEmail).toBe('carol@example.com')
    expect(user.userTags).toEqual([teamTag])
    expect(user.authenticators.map((a) => a.credentialId)).toEqual([soft.credentialId])
    expect((await invitations()).find((i) => i.invitationId === invitationId)?.status).toBe('INVITATION_STATUS_ACCEPTED')

    const who = await svc.post('/public/v1/query/whoami', { organizationId: org }, soft.stamper())
    expect(who.status, JSON.stringify(who.json)).toBe(200)
    expect(who.json.userId).toBe(mail.userId)

    // Accepted: a second acceptance and a revocation are refused (412), nothing changes.
    const again = await accept(mail, mail.code)
    expect(again.status).toBe(412)
    expect(again.json.message).toContain('already accepted')
    const del = await post(DELETE, 'ACTIVITY_TYPE_DELETE_INVITATION', org, { invitationId })
    expect(del.status).toBe(412)
    expect((await invitations()).find((i) => i.invitationId === invitationId)?.status).toBe('INVITATION_STATUS_ACCEPTED')
  })

  it('a wrong code is 400 naming the challenge and creates nothing; a wrong userId is 404 naming it', async () => {
    await invite('dan@example.com')
    const mail = await mailTo('dan@example.com')
    const wrong = await accept(mail, randomChallenge())
    expect(wrong.status).toBe(400)
    expect(JSON.stringify(wrong.json)).toContain('parameters.authenticator.challenge')
    expect(wrong.json.message).toContain('does not match the invitation')
    expect(await userExists(mail.userId)).toBe(false)

    const otherUser = await accept({ invitationId: mail.invitationId, userId: alice }, mail.code)
    expect(otherUser.status).toBe(404)
    expect(JSON.stringify(otherUser.json)).toContain('parameters.userId')

    // A passkey registered for another challenge does not verify even with the right code claimed.
    const soft = passkey()
    const mismatched = await post(ACCEPT, 'ACTIVITY_TYPE_ACCEPT_INVITATION_V2', org, {
      invitationId: mail.invitationId,
      userId: mail.userId,
      authenticator: { authenticatorName: 'x', challenge: mail.code, attestation: soft.register(randomChallenge()).attestation },
    })
    expect(mismatched.status).toBe(400)
    expect(await userExists(mail.userId)).toBe(false)
    expect((await invitations()).find((i) => i.invitationId === mail.invitationId)?.status).toBe('INVITATION_STATUS_CREATED')
  })

  it('a revoked invitation is kept as REVOKED and no longer accepts (412)', async () => {
    await invite('erin@example.com')
    const mail = await mailTo('erin@example.com')
    const del = await client.deleteInvitation({
      type: 'ACTIVITY_TYPE_DELETE_INVITATION',
      timestampMs: ts(),
      organizationId: org,
      parameters: { invitationId: mail.invitationId },
    })
    expect(del.activity.result.deleteInvitationResult?.invitationId).toBe(mail.invitationId)
    expect((await invitations()).find((i) => i.invitationId === mail.invitationId)?.status).toBe('INVITATION_STATUS_REVOKED')
    const res = await accept(mail, mail.code)
    expect(res.status).toBe(412)
    expect(res.json.message).toContain('revoked')
    expect(await userExists(mail.userId)).toBe(false)
    // Revoked, the email may be invited again.
    await invite('erin@example.com')
    expect((await mailTo('erin@example.com')).invitationId).not.toBe(mail.invitationId)
  })

  it('an expired invitation is 412', async () => {
    await invite('frank@example.com')
    const mail = await mailTo('frank@example.com')
    offsetMs = 73 * 3_600_000
    try {
      const res = await accept(mail, mail.code)
      expect(res.status, JSON.stringify(res.json)).toBe(412)
      expect(res.json.message).toContain('expired')
    } finally {
      offsetMs = 0
    }
    expect(await userExists(mail.userId)).toBe(false)
  })

  it('unknown and other-organization invitation ids are the same 404 naming parameters.invitationId', async () => {
    await invite('gina@example.com')
    const mail = await mailTo('gina@example.com')
    for (const [invitationId, organizationId] of [
      ['no-such-invitation', org],
      [mail.invitationId, subOrg],
    ] as const) {
      const a = await accept({ invitationId, userId: mail.userId }, mail.code, passkey(), organizationId)
      expect(a.status).toBe(404)
      expect(JSON.stringify(a.json)).toContain('parameters.invitationId')
      // Revoking is done by the organization's own users: the sub-organization's with its key.
      const d = await post(
        DELETE,
        'ACTIVITY_TYPE_DELETE_INVITATION',
        organizationId,
        { invitationId },
        organizationId === subOrg ? subKey.stamper : undefined,
      )
      expect(d.status).toBe(404)
      expect(JSON.stringify(d.json)).toContain('parameters.invitationId')
    }
    expect((await invitations()).find((i) => i.invitationId === mail.invitationId)?.status).toBe('INVITATION_STATUS_CREATED')
  })

  it('refuses duplicates (409), unknown senders and tags (404) and bad emails (400), creating nothing', async () => {
    const before = (await invitations()).length
    const params = (email: string, extra: Record<string, unknown> = {}) => ({
      receiverUserName: 'x',
      receiverUserEmail: email,
      receiverUserTags: [],
      accessType: 'ACCESS_TYPE_WEB',
      senderUserId: alice,
      ...extra,
    })
    const cases: Array<[unknown[], number, string]> = [
      // gina has an open invitation (previous test); Gina@ is the same address
      [[params('Gina@example.com')], 409, 'parameters.invitations[0].receiverUserEmail'],
      // alice is a user of the organization
      [[params('alice@example.com')], 409, 'parameters.invitations[0].receiverUserEmail'],
      // twice in one request: the first would be created, so nothing is
      [[params('hal@example.com'), params('HAL@example.com')], 409, 'parameters.invitations[1].receiverUserEmail'],
      [[params('ivy@example.com', { senderUserId: 'no-such-user' })], 404, 'parameters.invitations[0].senderUserId'],
      [[params('ivy@example.com', { receiverUserTags: ['no-such-tag'] })], 404, 'parameters.invitations[0].receiverUserTags[0]'],
      [[params('not-an-email')], 400, 'parameters.invitations[0].receiverUserEmail'],
      [[params('ivy@example.com', { receiverUserName: '  ' })], 400, 'parameters.invitations[0].receiverUserName'],
    ]
    for (const [list, status, field] of cases) {
      const res = await post(CREATE, 'ACTIVITY_TYPE_CREATE_INVITATIONS', org, { invitations: list })
      expect(res.status, `${field}: ${JSON.stringify(res.json)}`).toBe(status)
      expect(JSON.stringify(res.json)).toContain(field)
    }
    // The sub-organization's sender is unknown here alike.
    const foreign = await post(
      CREATE,
      'ACTIVITY_TYPE_CREATE_INVITATIONS',
      subOrg,
      { invitations: [params('ivy@example.com')] },
      subKey.stamper,
    )
    expect(foreign.status).toBe(404)
    expect(JSON.stringify(foreign.json)).toContain('parameters.invitations[0].senderUserId')
    expect((await invitations()).length).toBe(before)
    const mailbox = (await (await fetch(`${svc.url}/dev/messages`)).json()) as { messages: Array<{ to: string }> }
    expect(mailbox.messages.some((m) => m.to === 'hal@example.com' || m.to === 'ivy@example.com')).toBe(false)
  })

  it('ACCEPT_INVITATION (V1) takes the legacy attestation shape on the same path', async () => {
    await invite('jo@example.com')
    const mail = await mailTo('jo@example.com')
    const soft = passkey()
    const { attestation } = soft.register(mail.code)
    const res = await post(ACCEPT, 'ACTIVITY_TYPE_ACCEPT_INVITATION', org, {
      invitationId: mail.invitationId,
      userId: mail.userId,
      authenticator: {
        authenticatorName: 'legacy',
        userId: mail.userId,
        challenge: mail.code,
        attestation: {
          id: attestation.credentialId,
          type: 'public-key',
          rawId: attestation.credentialId,
          response: {
            clientDataJson: attestation.clientDataJson,
            attestationObject: attestation.attestationObject,
            transports: attestation.transports,
          },
          clientExtensionResults: {},
        },
      },
    })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(res.json.activity.result.acceptInvitationResult.userId).toBe(mail.userId)
    const { user } = await client.getUser({ organizationId: org, userId: mail.userId })
    expect(user.authenticators.map((a) => a.credentialId)).toEqual([soft.credentialId])
  })
})

describe('relay /v1/accept_invitation', () => {
  it('submits ACCEPT_INVITATION_V2 upstream for an invitee without credentials', async () => {
    await invite('kim@example.com')
    const mail = await mailTo('kim@example.com')
    const soft = passkey()
    const body = {
      organizationId: org,
      invitationId: mail.invitationId,
      userId: mail.userId,
      authenticator: authenticatorParam(soft, mail.code, 'relay passkey'),
    }
    const res = await fetch(`${svc.url}/auth/v1/accept_invitation`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'http://localhost:5173', 'X-Auth-Proxy-Config-ID': 'local' },
      body: JSON.stringify(body),
    })
    const json = (await res.json()) as any
    expect(res.status, JSON.stringify(json)).toBe(200)
    expect(json).toEqual({ organizationId: org, invitationId: mail.invitationId, userId: mail.userId })
    const who = await svc.post('/public/v1/query/whoami', { organizationId: org }, soft.stamper())
    expect(who.json.userId).toBe(mail.userId)
    // The same again: the upstream's 412 passes through.
    const again = await fetch(`${svc.url}/auth/v1/accept_invitation`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'http://localhost:5173', 'X-Auth-Proxy-Config-ID': 'local' },
      body: JSON.stringify({ ...body, authenticator: authenticatorParam(passkey(), mail.code, 'again') }),
    })
    expect(again.status).toBe(412)
  })
})
