import { type PageOptions, readPage } from './page.js'
import type { Sql } from './sql.js'

export type OrganizationRow = {
  id: string
  name: string
  parent_id: string | null
  is_root: boolean
  quorum_threshold: number
  allowed_origins: string[]
  created_at: number
  updated_at: number
  /** Set by delete_sub_organization: the row stays as a tombstone and every lookup treats it as not found. */
  deleted_at: number | null
}

/** The organization, unless unknown or deleted (migration 014). */
export async function getOrganization(sql: Sql, id: string): Promise<OrganizationRow | undefined> {
  const [row] = await sql.query<OrganizationRow>('SELECT * FROM organizations WHERE id = $1 AND deleted_at IS NULL', [id])
  return row
}

/** True when the organization exists and was not deleted. Never cached: a deletion must show at once, on every instance. */
export async function organizationExists(sql: Sql, id: string): Promise<boolean> {
  const rows = await sql.query('SELECT 1 FROM organizations WHERE id = $1 AND deleted_at IS NULL', [id])
  return rows.length > 0
}

export async function getRootOrganization(sql: Sql): Promise<OrganizationRow | undefined> {
  const [row] = await sql.query<OrganizationRow>('SELECT * FROM organizations WHERE is_root')
  return row
}

export async function setOrganizationName(sql: Sql, id: string, name: string, now: number): Promise<void> {
  await sql.query('UPDATE organizations SET name = $2, updated_at = $3 WHERE id = $1', [id, name, now])
}

export async function insertOrganization(
  sql: Sql,
  org: { id: string; name: string; parentId: string | null; isRoot?: boolean; quorumThreshold: number; now: number },
): Promise<void> {
  await sql.query(
    `INSERT INTO organizations (id, name, parent_id, is_root, quorum_threshold, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6)`,
    [org.id, org.name, org.parentId, org.isRoot ?? false, org.quorumThreshold, org.now],
  )
}

/**
 * Parent links never change once an organization exists, so ancestries are cached
 * (safe across instances sharing a database). Unknown and deleted organizations are not cached;
 * a cached entry may outlive a deletion (on another instance), so whether the organization a
 * request names still exists is asked with {@link organizationExists}, never from this cache.
 */
const ancestryCache = new Map<string, string[]>()
const ANCESTRY_CACHE_LIMIT = 10_000

/**
 * The organization and its ancestors, nearest first; empty when it does not exist or was deleted
 * (an organization with live sub-organizations is never deleted, so only the first can be).
 */
export async function ancestry(sql: Sql, id: string): Promise<string[]> {
  const hit = ancestryCache.get(id)
  if (hit) return hit
  const rows = await sql.query<{ id: string; depth: number }>(
    `WITH RECURSIVE up(id, parent_id, depth) AS (
       SELECT id, parent_id, 0 FROM organizations WHERE id = $1 AND deleted_at IS NULL
       UNION ALL
       SELECT o.id, o.parent_id, up.depth + 1 FROM organizations o JOIN up ON o.id = up.parent_id
     ) SELECT id, depth FROM up ORDER BY depth`,
    [id],
  )
  const chain = rows.map((r) => r.id)
  if (chain.length > 0) {
    if (ancestryCache.size >= ANCESTRY_CACHE_LIMIT) ancestryCache.clear()
    ancestryCache.set(id, chain)
  }
  return chain
}

/**
 * How delete_sub_organization treats every table with an `organization_id` column (a test checks
 * the schema against this list, so a new table must be classified here):
 * - `purged`: the organization's own state, deleted in this order (users first: their credentials go with them);
 * - `cascaded`: rows that go with a purged row (ON DELETE CASCADE);
 * - `kept`: history that stays readable under the tombstone: its activities, and the policy sets and
 *   evaluations their votes point at (no secrets in either); and its committed webhook events.
 */
export const ORGANIZATION_TABLES = {
  purged: [
    'invitations',
    'users',
    'wallets',
    'private_keys',
    'tags',
    'policies',
    'smart_contract_interfaces',
    'send_transactions',
    'onramp_transactions',
    'fiat_onramp_credentials',
    'otps',
    'organization_features',
    // webhooks (migration 015): its endpoints, with their subscriptions, queued deliveries and log
    'webhook_endpoints',
    // gas sponsorship (migration 021): the limits it set for itself and its sub-organizations
    'gas_usage_configs',
    // IP allow-lists (migration 025): only parent organizations have them; purged all the same
    'ip_allowlists',
    // email events (migration 026): recipients' addresses, readable by nobody once it is gone
    'email_events',
    // session profiles (migration 031): the scopes its logins could issue sessions under
    'session_profiles',
    // MFA policies (migration 027): its users' second-factor rules, and what its waiting activities still need
    'mfa_policies',
    'activity_mfa',
    // velocity controls (migration 028): its spend limits (what they counted goes with them: velocity_spends cascades)
    'velocity_controls',
    // OAuth 2.0 credentials (migration 030): its providers' client ids and sealed secrets
    'oauth2_credentials',
    // secrets (migration 029): its sealed secrets and the ingress keys pending for their import
    'secrets',
    'secret_import_keys',
  ],
  cascaded: [
    'quorum_members',
    'api_keys',
    'authenticators',
    'oauth_providers',
    'wallet_import_keys',
    'wallet_accounts',
    'private_key_addresses',
    'velocity_spends',
  ],
  // webhook_outbox: events about the organization already committed, still delivered to its parents' endpoints.
  // sponsored_sends: fees its parent's sponsor paid, still counted in the parent's window.
  // messages: emails and SMS its committed activities queued, still delivered (the outbox clears their text once sent).
  kept: ['activities', 'policy_sets', 'policy_evaluations', 'webhook_outbox', 'sponsored_sends', 'messages'],
} as const

/** The organization's row, locked until the transaction ends; undefined when unknown or deleted. */
export async function lockOrganization(sql: Sql, id: string): Promise<OrganizationRow | undefined> {
  const [row] = await sql.query<OrganizationRow>('SELECT * FROM organizations WHERE id = $1 AND deleted_at IS NULL FOR UPDATE', [id])
  return row
}

/** Ids of the live sub-organizations directly below the organization (at most `limit`). */
export async function childOrganizationIds(sql: Sql, id: string, limit: number): Promise<string[]> {
  const rows = await sql.query<{ id: string }>(
    'SELECT id FROM organizations WHERE parent_id = $1 AND deleted_at IS NULL ORDER BY created_at, id LIMIT $2',
    [id, limit],
  )
  return rows.map((r) => r.id)
}

/** Ids of the organization's wallets and private keys that were never exported, oldest first. */
export async function unexportedKeyIds(sql: Sql, id: string): Promise<{ walletIds: string[]; privateKeyIds: string[] }> {
  const rows = await sql.query<{ kind: 'wallet' | 'key'; id: string }>(
    `SELECT 'wallet' AS kind, id, seq FROM wallets WHERE organization_id = $1 AND NOT exported
     UNION ALL
     SELECT 'key' AS kind, id, seq FROM private_keys WHERE organization_id = $1 AND NOT exported
     ORDER BY kind, seq`,
    [id],
  )
  return {
    walletIds: rows.filter((r) => r.kind === 'wallet').map((r) => r.id),
    privateKeyIds: rows.filter((r) => r.kind === 'key').map((r) => r.id),
  }
}

/**
 * Deletes an organization (delete_sub_organization): purges its state ({@link ORGANIZATION_TABLES})
 * and marks its row deleted, which keeps its activity history. The caller checks that it has no
 * live sub-organization and holds the row's lock.
 */
export async function deleteOrganization(sql: Sql, id: string, now: number): Promise<void> {
  for (const table of ORGANIZATION_TABLES.purged) await sql.query(`DELETE FROM ${table} WHERE organization_id = $1`, [id])
  await sql.query(`UPDATE organizations SET deleted_at = $2, updated_at = $2, allowed_origins = '[]'::jsonb WHERE id = $1`, [id, now])
  ancestryCache.delete(id)
}

/** True when `orgId` names a deleted organization whose parent was `parentId` (its history stays readable there). */
export async function isDeletedChildOf(sql: Sql, orgId: string, parentId: string): Promise<boolean> {
  const rows = await sql.query('SELECT 1 FROM organizations WHERE id = $1 AND parent_id = $2 AND deleted_at IS NOT NULL', [orgId, parentId])
  return rows.length > 0
}

/** True when `ancestorId` is `orgId` itself or one of its ancestors. */
export async function isSelfOrAncestor(sql: Sql, ancestorId: string, orgId: string): Promise<boolean> {
  return (await ancestry(sql, orgId)).includes(ancestorId)
}

/** What a sub-organization can be found by (list_suborgs `filterType`) and the value it must have. */
export type SubOrganizationFilter = {
  type:
    | 'NAME'
    | 'USERNAME'
    | 'EMAIL'
    | 'PHONE_NUMBER'
    | 'CREDENTIAL_ID'
    | 'PUBLIC_KEY'
    | 'OIDC_TOKEN'
    | 'WALLET_ACCOUNT_ADDRESS'
    /** Any user with a verified email or phone number (list_verified_suborgs without a filter); the value is unused. */
    | 'VERIFIED_CONTACT'
  value: string
}

/**
 * An address column `col` equal to the value `$2`: a hex address (EVM, with or without its EIP-55
 * checksum) in any case, any other (Solana base58 is case-sensitive) exactly. `lower(col)` is the
 * indexed part (migration 023); the exact check runs on the rows it finds.
 */
const addressMatches = (col: string): string => `lower(${col}) = lower($2) AND (${col} = $2 OR $2 ~ '^(0x)?[0-9a-fA-F]+$')`

/** The condition on `o` each filter is (`$2`: the value; names and emails compared case-insensitively). */
const SUB_ORGANIZATION_FILTERS: Record<SubOrganizationFilter['type'], string> = {
  NAME: 'lower(o.name) = lower($2)',
  USERNAME: 'EXISTS (SELECT 1 FROM users u WHERE u.organization_id = o.id AND u.user_name = $2)',
  // Verified contacts only (migration 020): one a user set without proof finds nothing.
  EMAIL: 'EXISTS (SELECT 1 FROM users u WHERE u.organization_id = o.id AND lower(u.user_email) = lower($2) AND u.email_verified)',
  PHONE_NUMBER: 'EXISTS (SELECT 1 FROM users u WHERE u.organization_id = o.id AND u.user_phone_number = $2 AND u.phone_verified)',
  CREDENTIAL_ID: 'EXISTS (SELECT 1 FROM authenticators a WHERE a.organization_id = o.id AND a.credential_id = $2)',
  PUBLIC_KEY: 'EXISTS (SELECT 1 FROM api_keys k WHERE k.organization_id = o.id AND k.public_key = lower($2))',
  // The value is the verified identity `{"iss","aud","sub"}` as JSON (the query verifies the token);
  // providers verified by a token only (one stated by claims alone proves nothing).
  OIDC_TOKEN: `EXISTS (SELECT 1 FROM oauth_providers p WHERE p.organization_id = o.id AND p.verified
    AND p.issuer = ($2::jsonb ->> 'iss') AND p.subject = ($2::jsonb ->> 'sub') AND p.audience = ($2::jsonb ->> 'aud'))`,
  VERIFIED_CONTACT:
    "($2::text = '' AND EXISTS (SELECT 1 FROM users u WHERE u.organization_id = o.id AND ((u.email_verified AND u.user_email IS NOT NULL) OR (u.phone_verified AND u.user_phone_number IS NOT NULL))))",
  // A wallet account or a private key of the organization with that address.
  WALLET_ACCOUNT_ADDRESS: `(EXISTS (SELECT 1 FROM wallet_accounts w WHERE w.organization_id = o.id AND ${addressMatches('w.address')})
    OR EXISTS (SELECT 1 FROM private_key_addresses k WHERE k.organization_id = o.id AND ${addressMatches('k.address')}))`,
}

/**
 * For the filters a credential or contact index answers: the organizations holding a match (`$2`:
 * the value), found through that index. Such a filter is looked up from the matches up the tree
 * (see {@link listSubOrganizationIds}) rather than by walking every organization below.
 */
const SUB_ORGANIZATION_CANDIDATES: Partial<Record<SubOrganizationFilter['type'], string>> = {
  EMAIL: 'SELECT organization_id FROM users WHERE lower(user_email) = lower($2) AND email_verified',
  PHONE_NUMBER: 'SELECT organization_id FROM users WHERE user_phone_number = $2 AND phone_verified',
  CREDENTIAL_ID: 'SELECT organization_id FROM authenticators WHERE credential_id = $2',
  PUBLIC_KEY: 'SELECT organization_id FROM api_keys WHERE public_key = lower($2)',
  OIDC_TOKEN: `SELECT organization_id FROM oauth_providers
    WHERE verified AND issuer = ($2::jsonb ->> 'iss') AND subject = ($2::jsonb ->> 'sub') AND audience = ($2::jsonb ->> 'aud')`,
  // Through the address indexes of migration 023 (the per-organization ones cannot answer it).
  WALLET_ACCOUNT_ADDRESS: `SELECT organization_id FROM wallet_accounts WHERE ${addressMatches('address')}
    UNION SELECT organization_id FROM private_key_addresses WHERE ${addressMatches('address')}`,
}

/**
 * A page of the ids of the organization's sub-organizations (any depth), optionally filtered,
 * oldest first; `after`/`before` are ids of its sub-organizations, see `page.ts`.
 *
 * Unfiltered, or by NAME / USERNAME, the tree is walked down from the organization. By a contact,
 * credential, OIDC identity (the relay's account lookup at each login) or address, the organizations holding
 * a match come from that index and each is kept when walking up its parent links reaches the
 * organization: a few rows per match instead of every organization of the tree. Both keep live
 * organizations only (a deleted one has no live sub-organizations, so none is reached through one).
 */
export async function listSubOrganizationIds(
  sql: Sql,
  orgId: string,
  filter: SubOrganizationFilter | undefined,
  page: PageOptions | undefined,
): Promise<string[]> {
  const candidates = filter && SUB_ORGANIZATION_CANDIDATES[filter.type]
  const tree = candidates
    ? `WITH RECURSIVE up(start, id) AS (
       SELECT o.id, o.parent_id FROM organizations o WHERE o.id IN (${candidates}) AND o.deleted_at IS NULL
       UNION ALL
       SELECT up.start, o.parent_id FROM up JOIN organizations o ON o.id = up.id WHERE up.id <> $1
     ), down(id) AS (SELECT DISTINCT start FROM up WHERE id = $1)`
    : `WITH RECURSIVE down(id) AS (
       SELECT id FROM organizations WHERE parent_id = $1 AND deleted_at IS NULL
       UNION ALL
       SELECT o.id FROM organizations o JOIN down ON o.parent_id = down.id WHERE o.deleted_at IS NULL
     )`
  const rows = await readPage<{ id: string }>(
    sql,
    {
      select: `${tree}
     SELECT o.id FROM organizations o JOIN down ON o.id = down.id`,
      where: filter ? [SUB_ORGANIZATION_FILTERS[filter.type]] : [],
      params: filter ? [orgId, filter.value] : [orgId],
    },
    {
      columns: ['o.created_at', 'o.id'],
      order: 'ASC',
      noun: 'sub-organization',
      keyOf: async (id) => {
        if (id === orgId || !(await isSelfOrAncestor(sql, orgId, id))) return undefined
        const [row] = await sql.query<{ created_at: number; id: string }>(
          'SELECT created_at, id FROM organizations WHERE id = $1 AND deleted_at IS NULL',
          [id],
        )
        return row && [row.created_at, row.id]
      },
    },
    page,
  )
  return rows.map((r) => r.id)
}

/**
 * SQL columns `quorum_threshold` and `quorum_user_ids`: the root quorum of the organization
 * `orgIdExpr` names, for a lookup that reads it in the same statement (see {@link quorumOf}); and
 * `policies_version`, the version of its policies (migration 009), which the engine checks its
 * parsed policies against.
 */
export function quorumColumns(orgIdExpr: string): string {
  return `(SELECT o.quorum_threshold FROM organizations o WHERE o.id = ${orgIdExpr}) AS quorum_threshold,
    (SELECT array_agg(q.user_id) FROM quorum_members q WHERE q.organization_id = ${orgIdExpr}) AS quorum_user_ids,
    (SELECT o.policies_version FROM organizations o WHERE o.id = ${orgIdExpr}) AS policies_version`
}

/** The columns {@link quorumColumns} adds to a row. */
export type QuorumColumns = { quorum_threshold: number | null; quorum_user_ids: string[] | null; policies_version: string | null }

/** The quorum of a row read with {@link quorumColumns} (same defaults as {@link getQuorum}). */
export function quorumOf(row: { quorum_threshold?: number | null; quorum_user_ids?: string[] | null }): {
  threshold: number
  userIds: string[]
} {
  // Sorted here as `ORDER BY user_id` would (ids are ASCII): cheaper than a sort node on the embedded database.
  return { threshold: row.quorum_threshold ?? 1, userIds: (row.quorum_user_ids ?? []).sort() }
}

/** The allowed origins (update_allowed_origins) of these organizations, all in one list. */
export async function allowedOriginsOf(sql: Sql, orgIds: string[]): Promise<string[]> {
  const rows = await sql.query<{ allowed_origins: string[] }>('SELECT allowed_origins FROM organizations WHERE id = ANY($1::text[])', [
    orgIds,
  ])
  return rows.flatMap((r) => r.allowed_origins)
}

/** Replaces the organization's allowed origins. */
export async function setAllowedOrigins(sql: Sql, orgId: string, origins: string[], now: number): Promise<void> {
  await sql.query('UPDATE organizations SET allowed_origins = $2::jsonb, updated_at = $3 WHERE id = $1', [
    orgId,
    JSON.stringify(origins),
    now,
  ])
}

export async function getQuorum(sql: Sql, orgId: string): Promise<{ threshold: number; userIds: string[] }> {
  const [row] = await sql.query<{ threshold: number; user_ids: string[] | null }>(
    `SELECT o.quorum_threshold AS threshold,
            (SELECT array_agg(q.user_id ORDER BY q.user_id) FROM quorum_members q WHERE q.organization_id = o.id) AS user_ids
       FROM organizations o WHERE o.id = $1`,
    [orgId],
  )
  return { threshold: row?.threshold ?? 1, userIds: row?.user_ids ?? [] }
}

/**
 * Sets the root quorum in one statement: the threshold, members not in `userIds` removed, the others
 * added (those already members stay: a row is never deleted and inserted again by one statement).
 */
export async function setQuorum(sql: Sql, orgId: string, threshold: number, userIds: string[], now: number): Promise<void> {
  await sql.query(
    `WITH o AS (UPDATE organizations SET quorum_threshold = $2, updated_at = $3 WHERE id = $1),
       d AS (DELETE FROM quorum_members WHERE organization_id = $1 AND NOT (user_id = ANY($4::text[])))
     INSERT INTO quorum_members (organization_id, user_id) SELECT $1, u FROM unnest($4::text[]) AS u
       ON CONFLICT (organization_id, user_id) DO NOTHING`,
    [orgId, threshold, now, userIds],
  )
}

/** The root quorum's members of an organization created in this transaction (its threshold was set with it). */
export async function insertQuorumMembers(sql: Sql, orgId: string, userIds: string[]): Promise<void> {
  await sql.query('INSERT INTO quorum_members (organization_id, user_id) SELECT $1, u FROM unnest($2::text[]) AS u', [orgId, userIds])
}

export async function listFeatures(sql: Sql, orgId: string): Promise<Array<{ name: string; value: string }>> {
  return sql.query<{ name: string; value: string }>(
    'SELECT name, value FROM organization_features WHERE organization_id = $1 ORDER BY name',
    [orgId],
  )
}

export async function setFeature(sql: Sql, orgId: string, name: string, value: string): Promise<void> {
  await sql.query(
    `INSERT INTO organization_features (organization_id, name, value) VALUES ($1, $2, $3)
     ON CONFLICT (organization_id, name) DO UPDATE SET value = EXCLUDED.value`,
    [orgId, name, value],
  )
}

/**
 * Sets a feature and returns every feature of the organization after the change, by name, in one
 * statement (the upsert's row joins the others: a statement does not see its own writes).
 */
export async function setFeatureAndList(
  sql: Sql,
  orgId: string,
  name: string,
  value: string,
): Promise<Array<{ name: string; value: string }>> {
  return sql.query<{ name: string; value: string }>(
    `WITH up AS (
       INSERT INTO organization_features (organization_id, name, value) VALUES ($1, $2, $3)
       ON CONFLICT (organization_id, name) DO UPDATE SET value = EXCLUDED.value
       RETURNING name, value)
     SELECT name, value FROM up
     UNION ALL
     SELECT name, value FROM organization_features WHERE organization_id = $1 AND name <> $2
     ORDER BY name`,
    [orgId, name, value],
  )
}

export async function removeFeature(sql: Sql, orgId: string, name: string): Promise<boolean> {
  const rows = await sql.query('DELETE FROM organization_features WHERE organization_id = $1 AND name = $2 RETURNING name', [orgId, name])
  return rows.length > 0
}
