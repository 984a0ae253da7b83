/**
 * findUserInTreeByContact (found from the contact up the tree, not by walking the
 * whole tree down): the user with the contact in the organization itself, else in the nearest
 * sub-organization at any depth, the oldest first at one depth; never one outside the organization's
 * tree (a sibling, a parent); email compared lower-cased, phone as stored. And list_suborgs by a
 * contact or credential (the relay's account lookup), found from the matches up the tree too.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrate } from '../../src/service/store/migrate.js'
import { deleteOrganization, insertOrganization, listSubOrganizationIds } from '../../src/service/store/organizations.js'
import { openPglite } from '../../src/service/store/pglite.js'
import type { Database } from '../../src/service/store/sql.js'
import { findUserInTreeByContact, insertApiKey, insertUser } from '../../src/service/store/users.js'

const dir = mkdtempSync(join(tmpdir(), 'sigil-contact-'))
let db: Database

// root ─┬─ a ── a1 ── a2
//       ├─ b
//       ├─ c
//       └─ d (deleted)
const tree: Array<[string, string | null, number]> = [
  ['root', null, 1],
  ['a', 'root', 4],
  ['a1', 'a', 3],
  ['a2', 'a1', 2],
  ['b', 'root', 5],
  ['c', 'root', 6],
  ['d', 'root', 7],
]

beforeAll(async () => {
  db = await openPglite(dir)
  await migrate(db)
  for (const [id, parentId, now] of tree) {
    await insertOrganization(db, { id, name: id, parentId, isRoot: parentId === null, quorumThreshold: 1, now })
  }
  const user = (id: string, orgId: string, now: number, f: { userEmail?: string; userPhoneNumber?: string }, contactsVerified = true) =>
    insertUser(db, { id, orgId, userName: id, now, contactsVerified, ...f })
  // "deep@x.test": in a2 (depth 3 below root) and, newer, in b (depth 1).
  await user('u-a2-deep', 'a2', 10, { userEmail: 'Deep@X.test' })
  await user('u-b-deep', 'b', 20, { userEmail: 'deep@x.test' })
  // "twin@x.test": in b and c (both depth 1); c's is older, b's id sorts first.
  await user('u-b-twin', 'b', 30, { userEmail: 'twin@x.test' })
  await user('u-c-twin', 'c', 25, { userEmail: 'twin@x.test' })
  // "same@x.test": two users at one depth and one time: the smaller id.
  await user('u-c-same-2', 'c', 40, { userEmail: 'same@x.test' })
  await user('u-c-same-1', 'c', 40, { userEmail: 'same@x.test' })
  // "top@x.test": in a (depth 1 below root, 0 below a) and in a1.
  await user('u-a1-top', 'a1', 5, { userEmail: 'top@x.test' })
  await user('u-a-top', 'a', 50, { userEmail: 'top@x.test' })
  await user('u-a1-phone', 'a1', 60, { userPhoneNumber: '+15555550123' })
  await user('u-d-deep', 'd', 70, { userEmail: 'deep@x.test' })
  await deleteOrganization(db, 'd', 80)
  // Unverified contacts (migration 020), the oldest of all: found by nothing.
  await user('u-c-unverified-deep', 'c', 0, { userEmail: 'deep@x.test' }, false)
  await user('u-a-unverified-phone', 'a', 0, { userPhoneNumber: '+15555550123' }, false)
  await user('u-b-unverified-only', 'b', 0, { userEmail: 'only@x.test' }, false)
  // One public key registered in a2, b and root.
  for (const [orgId, userId] of [
    ['a2', 'u-a2-deep'],
    ['b', 'u-b-deep'],
  ] as const) {
    await insertApiKey(db, {
      id: `k-${orgId}`,
      orgId,
      userId,
      name: 'k',
      publicKey: '02AB',
      curveType: 'API_KEY_CURVE_P256',
      credentialType: 'CREDENTIAL_TYPE_API_KEY_P256',
      now: 1,
    })
  }
  await user('u-root', 'root', 1, {})
  await insertApiKey(db, {
    id: 'k-root',
    orgId: 'root',
    userId: 'u-root',
    name: 'k',
    publicKey: '02ab',
    curveType: 'API_KEY_CURVE_P256',
    credentialType: 'CREDENTIAL_TYPE_API_KEY_P256',
    now: 1,
  })
}, 60_000)

afterAll(async () => {
  await db?.close()
  rmSync(dir, { recursive: true, force: true })
})

const find = async (orgId: string, contact: { email: string } | { phone: string }) =>
  (await findUserInTreeByContact(db, orgId, contact))?.id

describe('findUserInTreeByContact', () => {
  it('takes the nearest depth below the organization, whatever the users’ ages', async () => {
    expect(await find('root', { email: 'deep@x.test' })).toBe('u-b-deep')
    expect(await find('a', { email: 'deep@x.test' })).toBe('u-a2-deep')
    expect(await find('a2', { email: 'deep@x.test' })).toBe('u-a2-deep')
  })

  it('prefers the organization itself to any sub-organization', async () => {
    expect(await find('a', { email: 'top@x.test' })).toBe('u-a-top')
    expect(await find('root', { email: 'top@x.test' })).toBe('u-a-top')
    expect(await find('a1', { email: 'top@x.test' })).toBe('u-a1-top')
  })

  it('at one depth takes the oldest user, then the smaller id', async () => {
    expect(await find('root', { email: 'twin@x.test' })).toBe('u-c-twin')
    expect(await find('root', { email: 'same@x.test' })).toBe('u-c-same-1')
  })

  it('never finds a user outside the organization’s tree', async () => {
    expect(await find('b', { email: 'twin@x.test' })).toBe('u-b-twin')
    expect(await find('c', { email: 'deep@x.test' })).toBeUndefined()
    expect(await find('a2', { email: 'top@x.test' })).toBeUndefined()
    expect(await find('b', { email: 'top@x.test' })).toBeUndefined()
    expect(await find('unknown', { email: 'deep@x.test' })).toBeUndefined()
    expect(await find('root', { email: 'nobody@x.test' })).toBeUndefined()
  })

  it('never finds a user by a contact that was not verified', async () => {
    expect(await find('c', { email: 'deep@x.test' })).toBeUndefined()
    expect(await find('a', { phone: '+15555550123' })).toBe('u-a1-phone')
    expect(await find('root', { email: 'only@x.test' })).toBeUndefined()
    expect(await find('b', { email: 'only@x.test' })).toBeUndefined()
  })

  it('finds by phone number too', async () => {
    expect(await find('root', { phone: '+15555550123' })).toBe('u-a1-phone')
    expect(await find('a1', { phone: '+15555550123' })).toBe('u-a1-phone')
    expect(await find('b', { phone: '+15555550123' })).toBeUndefined()
  })
})

describe('listSubOrganizationIds by contact or credential', () => {
  const ids = (
    orgId: string,
    type: 'EMAIL' | 'PHONE_NUMBER' | 'PUBLIC_KEY',
    value: string,
    page?: { after?: string; before?: string; limit?: string },
  ) => listSubOrganizationIds(db, orgId, { type, value }, page)

  it('lists every live sub-organization at any depth with a match, oldest first, never the organization itself', async () => {
    expect(await ids('root', 'EMAIL', 'DEEP@x.test')).toEqual(['a2', 'b'])
    expect(await ids('root', 'EMAIL', 'top@x.test')).toEqual(['a1', 'a'])
    expect(await ids('a', 'EMAIL', 'top@x.test')).toEqual(['a1'])
    expect(await ids('a1', 'EMAIL', 'top@x.test')).toEqual([])
    expect(await ids('root', 'EMAIL', 'twin@x.test')).toEqual(['b', 'c'])
    expect(await ids('b', 'EMAIL', 'deep@x.test')).toEqual([])
    expect(await ids('root', 'PHONE_NUMBER', '+15555550123')).toEqual(['a1'])
    expect(await ids('root', 'PUBLIC_KEY', '02AB')).toEqual(['a2', 'b'])
    expect(await ids('a', 'PUBLIC_KEY', '02ab')).toEqual(['a2'])
    // Contacts nobody verified find nothing.
    expect(await ids('root', 'EMAIL', 'only@x.test')).toEqual([])
  })

  it('pages by the cursors', async () => {
    expect(await ids('root', 'EMAIL', 'deep@x.test', { limit: '1' })).toEqual(['a2'])
    expect(await ids('root', 'EMAIL', 'deep@x.test', { after: 'a2' })).toEqual(['b'])
    expect(await ids('root', 'EMAIL', 'deep@x.test', { before: 'b' })).toEqual(['a2'])
  })
})

describe('migration 020 on a database of an earlier release', () => {
  it('keeps existing contacts verified, except one a user set without a verification token', async () => {
    const old = mkdtempSync(join(tmpdir(), 'sigil-contact-020-'))
    const d = await openPglite(old)
    try {
      await migrate(d)
      await insertOrganization(d, { id: 'r', name: 'r', parentId: null, isRoot: true, quorumThreshold: 1, now: 1 })
      await insertOrganization(d, { id: 's', name: 's', parentId: 'r', quorumThreshold: 1, now: 1 })
      await insertUser(d, { id: 'kept', orgId: 's', userName: 'kept', userEmail: 'kept@x.test', userPhoneNumber: '+15555550100', now: 2 })
      await insertUser(d, { id: 'squat', orgId: 's', userName: 'squat', userEmail: 'victim@x.test', now: 2 })
      await insertUser(d, { id: 'proven', orgId: 's', userName: 'proven', userEmail: 'proven@x.test', now: 2 })
      const activity = (id: string, type: string, intent: Record<string, unknown>) =>
        d.query(
          `INSERT INTO activities (id, organization_id, quorum_org_id, submitter_user_id, submitter_org_id, type, status, intent_key,
             intent, result_key, fingerprint, body, timestamp_ms, created_at, updated_at)
           VALUES ($1, 's', 's', 'squat', 's', $2, 'ACTIVITY_STATUS_COMPLETED', 'k', $3, 'r', $1, '{}', '1', 3, 3)`,
          [id, type, JSON.stringify(intent)],
        )
      await activity('a1', 'ACTIVITY_TYPE_UPDATE_USER_EMAIL', { userId: 'squat', userEmail: 'victim@x.test' })
      await activity('a2', 'ACTIVITY_TYPE_UPDATE_USER_EMAIL', { userId: 'proven', userEmail: 'proven@x.test', verificationToken: 'x.y.z' })
      // As an earlier release had it: no verified columns, migration 020 not applied.
      await d.query('DROP INDEX users_email_verified')
      await d.query('DROP INDEX users_phone_verified')
      await d.query('ALTER TABLE users DROP COLUMN email_verified')
      await d.query('ALTER TABLE users DROP COLUMN phone_verified')
      await d.query('DELETE FROM schema_migrations WHERE version = 20')
      await migrate(d)
      const found = async (email: string) => (await findUserInTreeByContact(d, 'r', { email }))?.id
      expect(await found('kept@x.test')).toBe('kept')
      expect((await findUserInTreeByContact(d, 'r', { phone: '+15555550100' }))?.id).toBe('kept')
      expect(await found('proven@x.test')).toBe('proven')
      expect(await found('victim@x.test')).toBeUndefined()
    } finally {
      await d.close()
      rmSync(old, { recursive: true, force: true })
    }
  }, 60_000)
})
