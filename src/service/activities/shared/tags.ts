/** What the tag activities share: lookups that 404 by field, name checks, the organization's room. */
import { SigilError, fieldError, invalidField } from '../../../api/errors.js'
import { MAX_USER_TAGS } from '../../../api/limits.js'
import type { Sql } from '../../store/sql.js'
import { countTags, findTagByName, getTag, type TagRow, type TagType } from '../../store/tags.js'
import { requireUser } from './lookup.js'

/** The organization's tag of this type, or a 404 naming `field` (another organization's tag reads the same). */
export async function requireTag(sql: Sql, orgId: string, type: TagType, id: string, field: string): Promise<TagRow> {
  const tag = await getTag(sql, orgId, type, id)
  if (!tag) throw fieldError('NOT_FOUND', field, `no such ${type === 'TAG_TYPE_USER' ? 'user' : 'private key'} tag in the organization`)
  return tag
}

/**
 * A new tag name: not blank, and not the name of another tag of this type in the organization.
 *
 * @throws INVALID_ARGUMENT when blank; ALREADY_EXISTS when taken
 */
export async function assertTagName(sql: Sql, orgId: string, type: TagType, name: string, field: string, selfId?: string): Promise<string> {
  const trimmed = name.trim()
  if (trimmed === '') throw invalidField(field, 'must not be blank')
  const taken = await findTagByName(sql, orgId, type, trimmed)
  if (taken && taken.id !== selfId) throw fieldError('ALREADY_EXISTS', field, `a tag named '${trimmed}' already exists`)
  return trimmed
}

/** Hosted resource limits: at most MAX_USER_TAGS (100) tags per organization. */
export async function assertTagRoom(sql: Sql, orgId: string): Promise<void> {
  const held = await countTags(sql, orgId)
  if (held >= MAX_USER_TAGS) {
    throw new SigilError(
      'FAILED_PRECONDITION',
      `the organization holds ${held} tags and may hold at most ${MAX_USER_TAGS}; delete some first`,
    )
  }
}

/** Every id names a user of the organization (404 naming `field[i]`); duplicates dropped. */
export async function requireUsers(sql: Sql, orgId: string, userIds: readonly string[], field: string): Promise<string[]> {
  const out = new Set<string>()
  for (const [i, id] of userIds.entries()) out.add((await requireUser(sql, orgId, id, `${field}[${i}]`)).id)
  return [...out]
}
