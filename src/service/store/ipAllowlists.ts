/** IP allow-lists of parent organizations (migration 025): one organization-level list, and per API key. */
import type { Sql } from './sql.js'

/** One stored rule: the block as normalised at set time, its label, when it was first added (ms). */
export type IpAllowlistRuleRow = { cidr: string; label?: string; createdAt: number }

export type IpAllowlistRow = {
  organization_id: string
  /** '' for the organization-level list. */
  public_key: string
  /** Organization-level lists only; null for an API key's. */
  enabled: boolean | null
  on_evaluation_error: 'ALLOW' | 'DENY'
  rules: IpAllowlistRuleRow[]
  created_at: number
  updated_at: number
}

/** The organization-level list (`publicKey` undefined) or the list of one API key. */
export async function getIpAllowlist(sql: Sql, organizationId: string, publicKey?: string): Promise<IpAllowlistRow | undefined> {
  const [row] = await sql.query<IpAllowlistRow>('SELECT * FROM ip_allowlists WHERE organization_id = $1 AND public_key = $2', [
    organizationId,
    publicKey ?? '',
  ])
  return row
}

/**
 * What decides a request of a credential of `organizationId`: the organization-level list and the
 * list of `publicKey`, in one statement (every request of an organization with a list reads it).
 */
export async function ipAllowlistsFor(
  sql: Sql,
  organizationId: string,
  publicKey: string,
): Promise<{ organization: IpAllowlistRow | undefined; key: IpAllowlistRow | undefined }> {
  const rows = await sql.query<IpAllowlistRow>("SELECT * FROM ip_allowlists WHERE organization_id = $1 AND public_key IN ('', $2)", [
    organizationId,
    publicKey,
  ])
  return {
    organization: rows.find((r) => r.public_key === ''),
    key: publicKey === '' ? undefined : rows.find((r) => r.public_key === publicKey),
  }
}

/** Creates or replaces a list. */
export async function putIpAllowlist(
  sql: Sql,
  list: {
    organizationId: string
    publicKey: string
    enabled: boolean | null
    onEvaluationError: 'ALLOW' | 'DENY'
    rules: IpAllowlistRuleRow[]
    now: number
  },
): Promise<void> {
  await sql.query(
    `INSERT INTO ip_allowlists (organization_id, public_key, enabled, on_evaluation_error, rules, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $6)
     ON CONFLICT (organization_id, public_key) DO UPDATE
       SET enabled = EXCLUDED.enabled, on_evaluation_error = EXCLUDED.on_evaluation_error, rules = EXCLUDED.rules, updated_at = EXCLUDED.updated_at`,
    [list.organizationId, list.publicKey, list.enabled, list.onEvaluationError, JSON.stringify(list.rules), list.now],
  )
}

/** Removes a list; false when there was none. */
export async function deleteIpAllowlist(sql: Sql, organizationId: string, publicKey: string): Promise<boolean> {
  const rows = await sql.query('DELETE FROM ip_allowlists WHERE organization_id = $1 AND public_key = $2 RETURNING public_key', [
    organizationId,
    publicKey,
  ])
  return rows.length > 0
}

/** True when `publicKey` (lower-case hex) is an API key of a user of the organization. */
export async function organizationHasApiKey(sql: Sql, organizationId: string, publicKey: string): Promise<boolean> {
  const rows = await sql.query('SELECT 1 FROM api_keys WHERE organization_id = $1 AND public_key = $2 LIMIT 1', [organizationId, publicKey])
  return rows.length > 0
}
