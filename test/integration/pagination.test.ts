/**
 * One pagination on the wire and in the store: every list query (list_suborgs, list_activities,
 * list_wallet_accounts) validates `paginationOptions` with the same schema and pages the same way
 * (src/service/store/page.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newApiKey, rootUser } from './helpers/keys.js'
import { startTestService, submitBody, type TestService } from './helpers/service.js'

let svc: TestService
let root: string
/** The root organization's sub-organizations in creation order (the last one nested in the first). */
const subs: string[] = []

/** The API key of subs[0]'s root user: only an organization's own users create its sub-organizations (custody). */
const firstKey = newApiKey('sub-0 admin')

const SUB = 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8'

async function createSub(
  name: string,
  parent = root,
  parentKey?: ReturnType<typeof newApiKey>,
  key?: ReturnType<typeof newApiKey>,
): Promise<string> {
  const r = await svc.post(
    '/public/v1/submit/create_sub_organization',
    submitBody(SUB, parent, {
      subOrganizationName: name,
      rootUsers: [rootUser(`${name}-admin`, key ? [key.param] : [])],
      rootQuorumThreshold: 1,
    }),
    parentKey?.stamper,
  )
  expect(r.status, JSON.stringify(r.json)).toBe(200)
  return r.json.activity.result.createSubOrganizationResultV8.subOrganizationId
}

async function suborgs(body: Record<string, unknown>) {
  return svc.post('/public/v1/query/list_suborgs', { organizationId: root, ...body })
}

/** 400 INVALID_ARGUMENT naming `field` in the message and in a BadRequest field violation. */
function expectFieldError(r: { status: number; json: any }, field: string) {
  expect(r.status, JSON.stringify(r.json)).toBe(400)
  expect(r.json.code).toBe(3)
  expect(r.json.message).toContain(field)
  const bad = r.json.details.find((d: any) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest')
  expect(bad?.fieldViolations.map((v: any) => v.field)).toContain(field)
}

beforeAll(async () => {
  svc = await startTestService()
  root = svc.admin.organizationId
  for (let i = 0; i < 11; i++)
    subs.push(await createSub(i === 3 || i === 7 ? 'twin' : `sub-${i}`, root, undefined, i === 0 ? firstKey : undefined))
  subs.push(await createSub('nested', subs[0], firstKey))
})
afterAll(async () => {
  await svc?.stop()
})

describe('list_suborgs paginationOptions', () => {
  it('refuses a limit that is not digits 1..100 with 400 INVALID_ARGUMENT naming paginationOptions.limit', async () => {
    for (const limit of ['-0', '0', '101', 'abc', "'; DROP TABLE users;--", '1.5', '', ' 5', '1000']) {
      expectFieldError(await suborgs({ paginationOptions: { limit } }), 'paginationOptions.limit')
    }
    expectFieldError(await suborgs({ paginationOptions: { limit: 5 } }), 'paginationOptions.limit')
    // Nothing reached the database: its users are all still there.
    const users = await svc.post('/public/v1/query/list_users', { organizationId: root })
    expect(users.status).toBe(200)
    expect(users.json.users.map((u: any) => u.userId)).toContain(svc.admin.userId)
  })

  it('lists every depth oldest first; limit 10 by default, at most 100', async () => {
    const all = await suborgs({ paginationOptions: { limit: '100' } })
    expect(all.status).toBe(200)
    expect(all.json.organizationIds).toEqual(subs)
    expect((await suborgs({})).json.organizationIds).toEqual(subs.slice(0, 10))
    expect((await suborgs({ paginationOptions: { limit: '3' } })).json.organizationIds).toEqual(subs.slice(0, 3))
  })

  it('pages with after and before (sub-organization ids, exclusive)', async () => {
    const seen: string[] = []
    let after: string | undefined
    for (;;) {
      const r = await suborgs({ paginationOptions: { limit: '5', ...(after ? { after } : {}) } })
      expect(r.status).toBe(200)
      const page: string[] = r.json.organizationIds
      expect(page.length).toBeLessThanOrEqual(5)
      if (page.length === 0) break
      seen.push(...page)
      after = page[page.length - 1]
    }
    expect(seen).toEqual(subs)
    expect((await suborgs({ paginationOptions: { limit: '3', before: subs[10] } })).json.organizationIds).toEqual(subs.slice(7, 10))
    expect((await suborgs({ paginationOptions: { limit: '100', after: subs[2], before: subs[6] } })).json.organizationIds).toEqual(
      subs.slice(3, 6),
    )
    // An empty cursor is no cursor.
    expect((await suborgs({ paginationOptions: { limit: '2', after: '' } })).json.organizationIds).toEqual(subs.slice(0, 2))
  })

  it('pages a filtered list', async () => {
    const twins = [subs[3], subs[7]]
    expect((await suborgs({ filterType: 'NAME', filterValue: 'TWIN' })).json.organizationIds).toEqual(twins)
    const first = await suborgs({ filterType: 'NAME', filterValue: 'twin', paginationOptions: { limit: '1' } })
    expect(first.json.organizationIds).toEqual([twins[0]])
    const next = await suborgs({ filterType: 'NAME', filterValue: 'twin', paginationOptions: { limit: '1', after: twins[0] } })
    expect(next.json.organizationIds).toEqual([twins[1]])
    const prev = await suborgs({ filterType: 'NAME', filterValue: 'twin', paginationOptions: { before: twins[1] } })
    expect(prev.json.organizationIds).toEqual([twins[0]])
  })

  it('a cursor that is not a sub-organization of the organization is a 400 naming it', async () => {
    expectFieldError(await suborgs({ paginationOptions: { after: 'nope' } }), 'paginationOptions.after')
    expectFieldError(await suborgs({ paginationOptions: { before: "'; DROP TABLE users;--" } }), 'paginationOptions.before')
    // The organization itself is not one of its sub-organizations.
    expectFieldError(await suborgs({ paginationOptions: { after: root } }), 'paginationOptions.after')
    // A sibling is not under subs[0]; its nested sub-organization is.
    const underFirst = await svc.post('/public/v1/query/list_suborgs', { organizationId: subs[0], paginationOptions: { limit: '10' } })
    expect(underFirst.json.organizationIds).toEqual([subs[11]])
    expectFieldError(
      await svc.post('/public/v1/query/list_suborgs', { organizationId: subs[0], paginationOptions: { after: subs[1] } }),
      'paginationOptions.after',
    )
  })
})

describe('every list query pages the same way', () => {
  const LISTS = ['list_suborgs', 'list_activities', 'list_wallet_accounts']

  it('the same limit errors', async () => {
    for (const name of LISTS) {
      for (const limit of ['-0', '0', '101', 'abc', "'; DROP TABLE users;--"]) {
        expectFieldError(
          await svc.post(`/public/v1/query/${name}`, { organizationId: root, paginationOptions: { limit } }),
          'paginationOptions.limit',
        )
      }
    }
  })

  it('the same cursor errors: an id that is not a row of the list', async () => {
    for (const name of LISTS) {
      for (const which of ['after', 'before']) {
        expectFieldError(
          await svc.post(`/public/v1/query/${name}`, { organizationId: root, paginationOptions: { [which]: 'nope' } }),
          `paginationOptions.${which}`,
        )
      }
    }
    // An activity of another organization is not a row of this organization's list.
    const theirs = await svc.post('/public/v1/query/list_activities', { organizationId: subs[0], paginationOptions: { limit: '1' } })
    const foreign = theirs.json.activities[0]?.id
    expect(foreign).toBeDefined()
    const mine = await svc.post('/public/v1/query/list_activities', { organizationId: subs[1], paginationOptions: { after: foreign } })
    expectFieldError(mine, 'paginationOptions.after')
  })

  it('list_activities still pages newest first by activity id', async () => {
    const all = (await svc.post('/public/v1/query/list_activities', { organizationId: root, paginationOptions: { limit: '100' } })).json
      .activities
    const ids: string[] = all.map((a: any) => a.id)
    expect(ids.length).toBe(11)
    const page = async (p: Record<string, string>) =>
      (await svc.post('/public/v1/query/list_activities', { organizationId: root, paginationOptions: p })).json.activities.map(
        (a: any) => a.id,
      )
    expect(await page({ limit: '3', after: ids[1]! })).toEqual(ids.slice(2, 5))
    expect(await page({ limit: '2', before: ids[5]! })).toEqual(ids.slice(3, 5))
    expect(await page({ after: ids[0]!, before: ids[4]! })).toEqual(ids.slice(1, 4))
    expect(await page({})).toEqual(ids.slice(0, 10))
  })
})
