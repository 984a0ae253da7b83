/**
 * getVerifiedSubOrgIds (list_verified_suborgs) through the official client: the sub-organizations
 * whose users hold a verified email or phone number — set by the operator's own organization, or
 * proven — found by that contact (email in any case) or, without a filter, all of them; a contact
 * typed by another organization's user (unverified) finds nothing; only the caller's own tree.
 */
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newApiKey } from './helpers/keys.js'
import { adminTurnkeyClient, startTestService, type TestService } from './helpers/service.js'

let svc: TestService
let admin: TurnkeyClient
let root: string

const ts = () => String(Date.now())
const clientOf = (key: ReturnType<typeof newApiKey>) =>
  new TurnkeyClient({ baseUrl: svc.url }, new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKeyHex }))

/** A sub-organization of `parent` created by `by`, whose root user has the given contacts. */
async function newSub(name: string, parent: string, by: TurnkeyClient, contacts: { userEmail?: string; userPhoneNumber?: string }) {
  const key = newApiKey(`${name} admin`)
  const r = await by.createSubOrganization({
    type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
    timestampMs: ts(),
    organizationId: parent,
    parameters: {
      subOrganizationName: name,
      rootUsers: [{ userName: `${name}-admin`, ...contacts, apiKeys: [key.param], authenticators: [], oauthProviders: [] }],
      rootQuorumThreshold: 1,
    },
  })
  const id = r.activity.result.createSubOrganizationResultV8?.subOrganizationId as string
  expect(id).toBeTruthy()
  return { id, client: clientOf(key) }
}

let withEmail: Awaited<ReturnType<typeof newSub>>
let withPhone: Awaited<ReturnType<typeof newSub>>
let noContact: Awaited<ReturnType<typeof newSub>>
let typedByOther: Awaited<ReturnType<typeof newSub>>
const EMAIL = `Verified.${Date.now()}@example.test`
const PHONE = '+15555550123'

beforeAll(async () => {
  svc = await startTestService()
  admin = adminTurnkeyClient(svc)
  root = svc.admin.organizationId
  withEmail = await newSub('verified-email', root, admin, { userEmail: EMAIL })
  withPhone = await newSub('verified-phone', root, admin, { userPhoneNumber: PHONE })
  noContact = await newSub('no-contact', root, admin, {})
  // The same email typed by the sub-organization's own user for a sub-organization it creates: not proven.
  typedByOther = await newSub('typed-email', withEmail.id, withEmail.client, { userEmail: EMAIL })
}, 60_000)

afterAll(async () => {
  await svc?.close()
})

const verified = (by: TurnkeyClient, organizationId: string, filter: { filterType?: string; filterValue?: string } = {}) =>
  by.getVerifiedSubOrgIds({ organizationId, ...filter }).then((r) => r.organizationIds)

describe('list_verified_suborgs (official client)', () => {
  it('finds the sub-organization by its verified email, in any case, and not the one where the same email was only typed', async () => {
    expect(await verified(admin, root, { filterType: 'EMAIL', filterValue: EMAIL.toLowerCase() })).toEqual([withEmail.id])
    expect(await verified(admin, root, { filterType: 'EMAIL', filterValue: EMAIL.toUpperCase() })).toEqual([withEmail.id])
    // The unverified copy is found by nothing, even from the organization that typed it.
    expect(await verified(withEmail.client, withEmail.id, { filterType: 'EMAIL', filterValue: EMAIL })).toEqual([])
    // list_suborgs by name still sees it: it exists, it is just not verified.
    expect((await admin.getSubOrgIds({ organizationId: root, filterType: 'NAME', filterValue: 'typed-email' })).organizationIds).toEqual([
      typedByOther.id,
    ])
  })

  it('finds by verified phone number, and without a filter lists every sub-organization with a verified contact, oldest first', async () => {
    expect(await verified(admin, root, { filterType: 'PHONE_NUMBER', filterValue: PHONE })).toEqual([withPhone.id])
    expect(await verified(admin, root, { filterType: 'PHONE_NUMBER', filterValue: '+15555550199' })).toEqual([])
    const all = await verified(admin, root)
    expect(all).toContain(withEmail.id)
    expect(all).toContain(withPhone.id)
    expect(all).not.toContain(noContact.id)
    expect(all).not.toContain(typedByOther.id)
    expect(all.indexOf(withEmail.id)).toBeLessThan(all.indexOf(withPhone.id))
    // Paginated as every list.
    const first = await admin.getVerifiedSubOrgIds({ organizationId: root, paginationOptions: { limit: '1', after: withEmail.id } })
    expect(first.organizationIds).toEqual([all[all.indexOf(withEmail.id) + 1]])
  })

  it('never reaches outside the caller’s tree', async () => {
    expect(await verified(withPhone.client, withPhone.id, { filterType: 'EMAIL', filterValue: EMAIL })).toEqual([])
    await expect(verified(withPhone.client, root)).rejects.toThrow()
  })

  it('names the field at fault', async () => {
    await expect(verified(admin, root, { filterType: 'EMAIL' })).rejects.toThrow(/filterValue/)
    await expect(verified(admin, root, { filterValue: EMAIL })).rejects.toThrow(/filterType/)
    await expect(verified(admin, root, { filterType: 'NAME', filterValue: 'x' })).rejects.toThrow(/filterType/)
  })
})
