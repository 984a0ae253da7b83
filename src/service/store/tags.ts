/**
 * Tags (migration 010): user and private-key tags of an organization. Membership of user tags is
 * `users.user_tags` (a JSON array of tag ids).
 */
import type { Sql } from './sql.js'
import { toTimestamp } from './time.js'

export type TagType = 'TAG_TYPE_USER' | 'TAG_TYPE_PRIVATE_KEY'

export type TagRow = {
  seq: number
  id: string
  organization_id: string
  name: string
  type: TagType
  created_at: number
  updated_at: number
}

export async function insertTag(sql: Sql, t: { id: string; orgId: string; name: string; type: TagType; now: number }): Promise<void> {
  await sql.query('INSERT INTO tags (id, organization_id, name, type, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)', [
    t.id,
    t.orgId,
    t.name,
    t.type,
    t.now,
  ])
}

export async function getTag(sql: Sql, orgId: string, type: TagType, id: string): Promise<TagRow | undefined> {
  const [row] = await sql.query<TagRow>('SELECT * FROM tags WHERE id = $1 AND organization_id = $2 AND type = $3', [id, orgId, type])
  return row
}

export async function findTagByName(sql: Sql, orgId: string, type: TagType, name: string): Promise<TagRow | undefined> {
  const [row] = await sql.query<TagRow>('SELECT * FROM tags WHERE organization_id = $1 AND type = $2 AND name = $3', [orgId, type, name])
  return row
}

export async function listTags(sql: Sql, orgId: string, type: TagType): Promise<TagRow[]> {
  return sql.query<TagRow>('SELECT * FROM tags WHERE organization_id = $1 AND type = $2 ORDER BY seq', [orgId, type])
}

export async function countTags(sql: Sql, orgId: string): Promise<number> {
  const [row] = await sql.query<{ n: number | string }>('SELECT count(*) AS n FROM tags WHERE organization_id = $1', [orgId])
  return Number(row?.n ?? 0)
}

export async function renameTag(sql: Sql, id: string, name: string, now: number): Promise<void> {
  await sql.query('UPDATE tags SET name = $2, updated_at = $3 WHERE id = $1', [id, name, now])
}

export async function deleteTag(sql: Sql, id: string): Promise<void> {
  await sql.query('DELETE FROM tags WHERE id = $1', [id])
}

/** Adds the tag to each user that lacks it. */
export async function tagUsers(sql: Sql, tagId: string, userIds: readonly string[], now: number): Promise<void> {
  if (userIds.length === 0) return
  await sql.query(
    `UPDATE users SET user_tags = user_tags || jsonb_build_array($2::text), updated_at = $3
     WHERE id = ANY($1::text[]) AND NOT user_tags @> jsonb_build_array($2::text)`,
    [userIds, tagId, now],
  )
}

/** Removes the tag from the given users, or from every user of the organization; returns the users changed. */
export async function untagUsers(
  sql: Sql,
  orgId: string,
  tagId: string,
  userIds: readonly string[] | 'all',
  now: number,
): Promise<string[]> {
  const rows =
    userIds === 'all'
      ? await sql.query<{ id: string }>(
          `UPDATE users SET user_tags = user_tags - $2::text, updated_at = $3
           WHERE organization_id = $1 AND user_tags @> jsonb_build_array($2::text) RETURNING id`,
          [orgId, tagId, now],
        )
      : await sql.query<{ id: string }>(
          `UPDATE users SET user_tags = user_tags - $2::text, updated_at = $3
           WHERE organization_id = $1 AND id = ANY($4::text[]) AND user_tags @> jsonb_build_array($2::text) RETURNING id`,
          [orgId, tagId, now, userIds],
        )
  return rows.map((r) => r.id)
}

export function tagToWire(t: TagRow) {
  return {
    tagId: t.id,
    tagName: t.name,
    tagType: t.type,
    createdAt: toTimestamp(Number(t.created_at)),
    updatedAt: toTimestamp(Number(t.updated_at)),
  }
}
