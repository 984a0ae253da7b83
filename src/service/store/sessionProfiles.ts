/** Session profiles (migration 031): named scopes and lifetimes a login may issue a session under. */
import type { Sql } from './sql.js'

export type SessionProfileRow = {
  id: string
  organization_id: string
  name: string
  scope: string
  expiration_seconds: string | number | null
  notes: string | null
  created_at: number | string
  updated_at: number | string
}

/** Stores a new profile (profiles are immutable: there is no update). */
export async function insertSessionProfile(
  sql: Sql,
  p: {
    id: string
    organizationId: string
    name: string
    scope: string
    expirationSeconds: number | null
    notes: string | null
    now: number
  },
): Promise<void> {
  await sql.query(
    `INSERT INTO session_profiles (id, organization_id, name, scope, expiration_seconds, notes, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
    [p.id, p.organizationId, p.name, p.scope, p.expirationSeconds, p.notes, p.now],
  )
}

/** One profile of the organization; undefined when it has none with this id. */
export async function getSessionProfile(sql: Sql, organizationId: string, id: string): Promise<SessionProfileRow | undefined> {
  const [row] = await sql.query<SessionProfileRow>('SELECT * FROM session_profiles WHERE organization_id = $1 AND id = $2', [
    organizationId,
    id,
  ])
  return row
}

/** The organization's profiles, oldest first. */
export async function listSessionProfiles(sql: Sql, organizationId: string): Promise<SessionProfileRow[]> {
  return sql.query<SessionProfileRow>('SELECT * FROM session_profiles WHERE organization_id = $1 ORDER BY created_at, id', [organizationId])
}

/** A profile by id owned by one of `organizationIds` (an organization and its ancestors); undefined otherwise. */
export async function sessionProfileOfAny(
  sql: Sql,
  organizationIds: readonly string[],
  id: string,
): Promise<SessionProfileRow | undefined> {
  if (organizationIds.length === 0) return undefined
  const [row] = await sql.query<SessionProfileRow>('SELECT * FROM session_profiles WHERE id = $1 AND organization_id = ANY($2::text[])', [
    id,
    [...organizationIds],
  ])
  return row
}

/** True when the organization already has a profile of this name (names are unique per organization). */
export async function sessionProfileNameTaken(sql: Sql, organizationId: string, name: string): Promise<boolean> {
  const rows = await sql.query('SELECT 1 FROM session_profiles WHERE organization_id = $1 AND name = $2 LIMIT 1', [organizationId, name])
  return rows.length > 0
}
