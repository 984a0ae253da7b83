import { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newApiKey } from './helpers/keys.js'
import { adminTurnkeyClient, startTestService, submitBody, type TestService } from './helpers/service.js'

let svc: TestService
let client: TurnkeyClient
let org: string
let subOrg: string
let alice: string
let bob: string
/** The sub-organization's root user's key: only its own users act in it (custody). */
const subKey = newApiKey('s')

const ts = () => String(Date.now())

async function tagsOf(userId: string): Promise<string[]> {
  return (await client.getUser({ organizationId: org, userId })).user.userTags
}

async function addUser(name: string, userTags: string[] = []): Promise<string> {
  const r = await client.createUsers({
    type: 'ACTIVITY_TYPE_CREATE_USERS_V4',
    timestampMs: ts(),
    organizationId: org,
    parameters: { users: [{ userName: name, apiKeys: [newApiKey(name).param], authenticators: [], oauthProviders: [], userTags }] },
  })
  return r.activity.result.createUsersResult?.userIds?.[0] as string
}

beforeAll(async () => {
  svc = await startTestService()
  org = svc.admin.organizationId
  client = adminTurnkeyClient(svc)
  alice = await addUser('alice')
  bob = await addUser('bob')
  const r = await client.createSubOrganization({
    type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
    timestampMs: ts(),
    organizationId: org,
    parameters: {
      subOrganizationName: 'tags sub',
      rootUsers: [{ userName: 'sub root', apiKeys: [subKey.param], authenticators: [], oauthProviders: [] }],
      rootQuorumThreshold: 1,
    },
  })
  subOrg = r.activity.result.createSubOrganizationResultV8?.subOrganizationId as string
})
afterAll(async () => {
  await svc?.stop()
})

describe('user tags', () => {
  it('create → list → update → delete, with the tag ids on each user', async () => {
    const created = await client.createUserTag({
      type: 'ACTIVITY_TYPE_CREATE_USER_TAG',
      timestampMs: ts(),
      organizationId: org,
      parameters: { userTagName: 'treasury', userIds: [alice] },
    })
    const tagId = created.activity.result.createUserTagResult?.userTagId as string
    expect(created.activity.result.createUserTagResult?.userIds).toEqual([alice])
    expect(await tagsOf(alice)).toEqual([tagId])
    expect(await tagsOf(bob)).toEqual([])

    const { userTags } = await client.listUserTags({ organizationId: org })
    expect(userTags.map((t) => [t.tagId, t.tagName, t.tagType])).toEqual([[tagId, 'treasury', 'TAG_TYPE_USER']])

    await client.updateUserTag({
      type: 'ACTIVITY_TYPE_UPDATE_USER_TAG',
      timestampMs: ts(),
      organizationId: org,
      parameters: { userTagId: tagId, newUserTagName: 'approvers', addUserIds: [bob], removeUserIds: [alice] },
    })
    expect(await tagsOf(alice)).toEqual([])
    expect(await tagsOf(bob)).toEqual([tagId])
    expect((await client.listUserTags({ organizationId: org })).userTags[0]?.tagName).toBe('approvers')

    const carol = await addUser('carol', [tagId])
    expect(await tagsOf(carol)).toEqual([tagId])

    const deleted = await client.deleteUserTags({
      type: 'ACTIVITY_TYPE_DELETE_USER_TAGS',
      timestampMs: ts(),
      organizationId: org,
      parameters: { userTagIds: [tagId] },
    })
    expect(deleted.activity.result.deleteUserTagsResult?.userTagIds).toEqual([tagId])
    expect([...(deleted.activity.result.deleteUserTagsResult?.userIds ?? [])].sort()).toEqual([bob, carol].sort())
    expect(await tagsOf(bob)).toEqual([])
    expect(await tagsOf(carol)).toEqual([])
    expect((await client.listUserTags({ organizationId: org })).userTags).toEqual([])
  })

  it('a duplicate name is 409; an unknown user in the list creates nothing (404 naming its index)', async () => {
    const first = await svc.post(
      '/public/v1/submit/create_user_tag',
      submitBody('ACTIVITY_TYPE_CREATE_USER_TAG', org, { userTagName: 'ops', userIds: [] }),
    )
    expect(first.status).toBe(200)
    const again = await svc.post(
      '/public/v1/submit/create_user_tag',
      submitBody('ACTIVITY_TYPE_CREATE_USER_TAG', org, { userTagName: 'ops', userIds: [] }),
    )
    expect(again.status).toBe(409)
    expect(JSON.stringify(again.json)).toContain('parameters.userTagName')
    const unknown = await svc.post(
      '/public/v1/submit/create_user_tag',
      submitBody('ACTIVITY_TYPE_CREATE_USER_TAG', org, { userTagName: 'nobody', userIds: [alice, 'no-such-user'] }),
    )
    expect(unknown.status).toBe(404)
    expect(JSON.stringify(unknown.json)).toContain('parameters.userIds[1]')
    const names = (await client.listUserTags({ organizationId: org })).userTags.map((t) => t.tagName)
    expect(names).toEqual(['ops'])
    expect(await tagsOf(alice)).toEqual([])
  })

  it("another organization's tag and users are the same 404; create_users refuses an unknown tag id", async () => {
    const subTag = await svc.post(
      '/public/v1/submit/create_user_tag',
      submitBody('ACTIVITY_TYPE_CREATE_USER_TAG', subOrg, { userTagName: 'sub tag', userIds: [] }),
      subKey.stamper,
    )
    expect(subTag.status, JSON.stringify(subTag.json)).toBe(200)
    const subTagId = subTag.json.activity.result.createUserTagResult.userTagId as string
    const foreign = await svc.post(
      '/public/v1/submit/update_user_tag',
      submitBody('ACTIVITY_TYPE_UPDATE_USER_TAG', org, { userTagId: subTagId, addUserIds: [], removeUserIds: [] }),
    )
    expect(foreign.status).toBe(404)
    expect(JSON.stringify(foreign.json)).toContain('parameters.userTagId')
    const foreignDelete = await svc.post(
      '/public/v1/submit/delete_user_tags',
      submitBody('ACTIVITY_TYPE_DELETE_USER_TAGS', org, { userTagIds: [subTagId] }),
    )
    expect(foreignDelete.status).toBe(404)
    const crossUser = await svc.post(
      '/public/v1/submit/create_user_tag',
      submitBody('ACTIVITY_TYPE_CREATE_USER_TAG', subOrg, { userTagName: 'cross', userIds: [alice] }),
      subKey.stamper,
    )
    expect(crossUser.status).toBe(404)
    const badTag = await svc.post(
      '/public/v1/submit/create_users',
      submitBody('ACTIVITY_TYPE_CREATE_USERS_V4', org, {
        users: [{ userName: 'dave', apiKeys: [], authenticators: [], oauthProviders: [], userTags: [subTagId] }],
      }),
    )
    expect(badTag.status).toBe(404)
    expect(JSON.stringify(badTag.json)).toContain('parameters.users[0].userTags[0]')
    expect((await client.getUsers({ organizationId: org })).users.some((u) => u.userName === 'dave')).toBe(false)
  })
})
