import type { IpAllowlistRow } from './ipAllowlists.js'
import { type MfaPolicyRow, stepsOf } from './mfaPolicies.js'
import { type QuorumColumns, quorumColumns } from './organizations.js'
import { oauthProviderToWire } from './oauthProviders.js'
import type { Sql } from './sql.js'
import { toTimestamp } from './time.js'

export type UserRow = {
  id: string
  organization_id: string
  user_name: string
  user_email: string | null
  user_phone_number: string | null
  user_tags: string[]
  created_at: number
  updated_at: number
}

export type ApiKeyRow = {
  id: string
  organization_id: string
  user_id: string
  name: string
  public_key: string
  curve_type: string
  credential_type: string
  expiration_seconds: string | null
  expires_at: number | null
  /** The session profile a login issued this session key under (migration 031); null otherwise. */
  session_profile_id?: string | null
  created_at: number
  updated_at: number
}

export type AuthenticatorRow = {
  id: string
  organization_id: string
  user_id: string
  name: string
  credential_id: string
  public_key: string
  sign_count: number
  transports: string[]
  aaguid: string
  attestation_type: string
  created_at: number
  updated_at: number
}

export type OauthProviderRow = {
  id: string
  organization_id: string
  user_id: string
  provider_name: string
  issuer: string
  audience: string
  subject: string
  /** Proven by a verified ID token (migration 018); a link stated by claims alone logs nobody in. */
  verified: boolean
  created_at: number
  updated_at: number
}

export async function getUser(sql: Sql, orgId: string, userId: string): Promise<UserRow | undefined> {
  const [row] = await sql.query<UserRow>('SELECT * FROM users WHERE id = $1 AND organization_id = $2', [userId, orgId])
  return row
}

export async function getUserById(sql: Sql, userId: string): Promise<UserRow | undefined> {
  const [row] = await sql.query<UserRow>('SELECT * FROM users WHERE id = $1', [userId])
  return row
}

export async function listUsers(sql: Sql, orgId: string): Promise<UserRow[]> {
  return sql.query<UserRow>('SELECT * FROM users WHERE organization_id = $1 ORDER BY created_at, id', [orgId])
}

export async function insertUser(
  sql: Sql,
  u: {
    id: string
    orgId: string
    userName: string
    userEmail?: string | undefined
    userPhoneNumber?: string | undefined
    userTags?: string[]
    /** Whether the contacts count for login, lookup and recovery (migration 020): proven or vouched for. */
    contactsVerified?: boolean
    now: number
  },
): Promise<void> {
  const verified = u.contactsVerified ?? false
  await sql.query(
    `INSERT INTO users (id, organization_id, user_name, user_email, user_phone_number, user_tags, created_at, updated_at,
       email_verified, phone_verified)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8, $9)`,
    [
      u.id,
      u.orgId,
      u.userName,
      u.userEmail || null,
      u.userPhoneNumber || null,
      JSON.stringify(u.userTags ?? []),
      u.now,
      verified && !!u.userEmail,
      verified && !!u.userPhoneNumber,
    ],
  )
}

/**
 * Changes the given fields of a user (`null` clears email or phone); nothing when none is given. A
 * new email or phone number counts for login and lookup only with `contactsVerified` (migration 020).
 */
export async function updateUserFields(
  sql: Sql,
  userId: string,
  f: { userName?: string; userEmail?: string | null; userPhoneNumber?: string | null; userTags?: string[]; contactsVerified?: boolean },
  now: number,
): Promise<void> {
  const sets: string[] = []
  const params: unknown[] = [userId, now]
  const set = (column: string, value: unknown, cast = '') => {
    params.push(value)
    sets.push(`${column} = $${params.length}${cast}`)
  }
  if (f.userName !== undefined) set('user_name', f.userName)
  if (f.userEmail !== undefined) {
    set('user_email', f.userEmail)
    set('email_verified', f.userEmail !== null && (f.contactsVerified ?? false))
  }
  if (f.userPhoneNumber !== undefined) {
    set('user_phone_number', f.userPhoneNumber)
    set('phone_verified', f.userPhoneNumber !== null && (f.contactsVerified ?? false))
  }
  if (f.userTags !== undefined) set('user_tags', JSON.stringify(f.userTags), '::jsonb')
  if (sets.length === 0) return
  await sql.query(`UPDATE users SET ${sets.join(', ')}, updated_at = $2 WHERE id = $1`, params)
}

export async function insertApiKey(
  sql: Sql,
  k: {
    id: string
    orgId: string
    userId: string
    name: string
    publicKey: string
    curveType: string
    credentialType: string
    expirationSeconds?: string | undefined
    /** The session profile a login issued this key under (migration 031). */
    sessionProfileId?: string | undefined
    now: number
  },
): Promise<void> {
  const expiresAt = k.expirationSeconds ? k.now + Number(k.expirationSeconds) * 1000 : null
  await sql.query(
    `INSERT INTO api_keys (id, organization_id, user_id, name, public_key, curve_type, credential_type,
                           expiration_seconds, expires_at, created_at, updated_at, session_profile_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11)`,
    [
      k.id,
      k.orgId,
      k.userId,
      k.name,
      k.publicKey.toLowerCase(),
      k.curveType,
      k.credentialType,
      k.expirationSeconds ?? null,
      expiresAt,
      k.now,
      k.sessionProfileId ?? null,
    ],
  )
}

export async function insertAuthenticator(
  sql: Sql,
  a: {
    id: string
    orgId: string
    userId: string
    name: string
    credentialId: string
    publicKeyHex: string
    signCount: number
    transports: string[]
    aaguid: string
    attestationType: string
    now: number
  },
): Promise<void> {
  await sql.query(
    `INSERT INTO authenticators (id, organization_id, user_id, name, credential_id, public_key, sign_count,
                                 transports, aaguid, attestation_type, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)`,
    [
      a.id,
      a.orgId,
      a.userId,
      a.name,
      a.credentialId,
      a.publicKeyHex,
      a.signCount,
      JSON.stringify(a.transports),
      a.aaguid,
      a.attestationType,
      a.now,
    ],
  )
}

/**
 * Stores a user's OAuth provider. `verified`: its identity comes from a verified ID token; only such
 * a link is found by the login lookups (`findUserInTreeByOauthIdentity`, list_suborgs OIDC_TOKEN).
 */
export async function insertOauthProvider(
  sql: Sql,
  p: {
    id: string
    orgId: string
    userId: string
    providerName: string
    issuer: string
    audience: string
    subject: string
    verified: boolean
    now: number
  },
): Promise<void> {
  await sql.query(
    `INSERT INTO oauth_providers (id, organization_id, user_id, provider_name, issuer, audience, subject, verified, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
    [p.id, p.orgId, p.userId, p.providerName, p.issuer, p.audience, p.subject, p.verified, p.now],
  )
}

/** The organization's user with this email (compared lower-cased; pass it lower-cased), if any. */
export async function findOrgUserByEmail(sql: Sql, orgId: string, email: string): Promise<UserRow | undefined> {
  const [row] = await sql.query<UserRow>('SELECT * FROM users WHERE organization_id = $1 AND lower(user_email) = $2 LIMIT 1', [
    orgId,
    email,
  ])
  return row
}

/** Deletes a user; its credentials go with it (ON DELETE CASCADE). */
export async function deleteUser(sql: Sql, userId: string): Promise<void> {
  await sql.query('DELETE FROM users WHERE id = $1', [userId])
}

/** How a user is found by contact: email (compared lower-cased; pass it lower-cased) or phone number. */
export type ContactLookup = { email: string } | { phone: string }

/**
 * The user with this verified contact in `orgId` or, failing that, in the nearest of its
 * sub-organizations (any depth; oldest user first at one depth). A contact that was never verified
 * (migration 020) finds nobody: it proves nothing about whose account it is, so a login lands
 * only in the account whose contact was proven.
 *
 * Found from the contact up, not from `orgId` down: the users with this contact come from the
 * index on it (`users_email`, `users_phone`), then each one's organization is walked up its parent
 * links until `orgId` (its depth below it) or the top of the tree (not below it). This reads a few
 * rows per user with the contact, where walking down read every organization of the tree
 * (bench/scale.ts: 100,000 sub-organizations).
 */
export async function findUserInTreeByContact(sql: Sql, orgId: string, contact: ContactLookup): Promise<UserRow | undefined> {
  const [column, value] = 'phone' in contact ? ['u.user_phone_number', contact.phone] : ['lower(u.user_email)', contact.email]
  const verified = 'phone' in contact ? 'u.phone_verified' : 'u.email_verified'
  const [row] = await sql.query<UserRow & { depth: number }>(
    `WITH RECURSIVE up(user_id, org_id, depth) AS (
       SELECT u.id, u.organization_id, 0 FROM users u WHERE ${column} = $2 AND ${verified}
       UNION ALL
       SELECT up.user_id, o.parent_id, up.depth + 1 FROM up JOIN organizations o ON o.id = up.org_id
        WHERE up.org_id <> $1 AND o.parent_id IS NOT NULL
     )
     SELECT u.*, up.depth FROM up JOIN users u ON u.id = up.user_id
      WHERE up.org_id = $1
      ORDER BY up.depth, u.created_at, u.id LIMIT 1`,
    [orgId, value],
  )
  return row
}

export async function getApiKeyById(sql: Sql, apiKeyId: string): Promise<ApiKeyRow | undefined> {
  const [row] = await sql.query<ApiKeyRow>('SELECT * FROM api_keys WHERE id = $1', [apiKeyId])
  return row
}

/** True when the organization has the API key `id` with this public key. */
export async function apiKeyExists(sql: Sql, k: { id: string; publicKey: string; orgId: string }): Promise<boolean> {
  const rows = await sql.query<{ id: string }>('SELECT id FROM api_keys WHERE id = $1 AND public_key = $2 AND organization_id = $3', [
    k.id,
    k.publicKey,
    k.orgId,
  ])
  return rows.length > 0
}

/**
 * Every API key with this public key (lower-case hex, any organization), each with the root
 * quorum of its organization read in the same statement. Unordered.
 */
export async function apiKeysByPublicKey(
  sql: Sql,
  publicKey: string,
): Promise<Array<ApiKeyRow & QuorumColumns & KeyUserColumns & KeySessionProfileColumns & KeyIpAllowlistColumns & KeyMfaColumns>> {
  return sql.query<ApiKeyRow & QuorumColumns & KeyUserColumns & KeySessionProfileColumns & KeyIpAllowlistColumns & KeyMfaColumns>(
    `SELECT k.*, ${quorumColumns('k.organization_id')},
       (SELECT json_build_object('tags', u.user_tags, 'email', u.user_email) FROM users u WHERE u.id = k.user_id) AS key_user,
       (SELECT json_build_object('id', s.id, 'name', s.name, 'scope', s.scope) FROM session_profiles s
         WHERE s.id = k.session_profile_id) AS key_session_profile,
       (SELECT json_agg(l) FROM ip_allowlists l
         WHERE l.organization_id = k.organization_id AND l.public_key IN ('', k.public_key)) AS key_ip_allowlists,
       (SELECT json_agg(m ORDER BY m.eval_order, m.created_at, m.id) FROM mfa_policies m
         WHERE m.organization_id = k.organization_id AND m.user_id = k.user_id) AS key_mfa_policies
     FROM api_keys k WHERE k.public_key = $1`,
    [publicKey],
  )
}

/** The key's user as policies see it (tags, email), read with the key (saves the policy engine a query). */
export type KeyUserColumns = { key_user: { tags: string[]; email: string | null } | string | null }

/** The IP allow-lists the key is held to (its organization's and its own, migration 025), read with the key: no query per request. */
export type KeyIpAllowlistColumns = { key_ip_allowlists: IpAllowlistRow[] | string | null }

/** {@link KeyIpAllowlistColumns} as rows (the JSON may arrive as text from some drivers). */
export function keyIpAllowlistsOf(row: KeyIpAllowlistColumns): IpAllowlistRow[] {
  const v = typeof row.key_ip_allowlists === 'string' ? (JSON.parse(row.key_ip_allowlists) as IpAllowlistRow[]) : row.key_ip_allowlists
  return v ?? []
}

/** The MFA policies of the key's user in evaluation order (migration 027), read with the key: no query per activity. */
export type KeyMfaColumns = { key_mfa_policies: MfaPolicyRow[] | string | null }

/** {@link KeyMfaColumns} as rows (the JSON may arrive as text from some drivers). */
export function keyMfaPoliciesOf(row: KeyMfaColumns): MfaPolicyRow[] {
  const v = typeof row.key_mfa_policies === 'string' ? (JSON.parse(row.key_mfa_policies) as MfaPolicyRow[]) : row.key_mfa_policies
  return v ?? []
}

/** The session profile of a session key (migration 031), read with the key: its scope is checked on every activity. */
export type KeySessionProfileColumns = { key_session_profile: SessionScope | string | null }

/** A session profile as the engine checks it. */
export type SessionScope = { id: string; name: string; scope: string }

/** {@link KeySessionProfileColumns} as a value (the JSON may arrive as text from some drivers). */
export function keySessionProfileOf(row: KeySessionProfileColumns): SessionScope | undefined {
  const v = typeof row.key_session_profile === 'string' ? (JSON.parse(row.key_session_profile) as SessionScope) : row.key_session_profile
  return v ?? undefined
}

/** {@link KeyUserColumns} as a value (the JSON may arrive as text from some drivers). */
export function keyUserOf(row: KeyUserColumns): { tags: string[]; email?: string } | undefined {
  const v = typeof row.key_user === 'string' ? (JSON.parse(row.key_user) as { tags: string[]; email: string | null }) : row.key_user
  if (!v) return undefined
  return { tags: Array.isArray(v.tags) ? v.tags : [], ...(v.email ? { email: v.email } : {}) }
}

/** Deletes one API key of the user; false when the user has no key with this id. */
export async function deleteUserApiKey(sql: Sql, userId: string, apiKeyId: string): Promise<boolean> {
  const rows = await sql.query('DELETE FROM api_keys WHERE id = $1 AND user_id = $2 RETURNING id', [apiKeyId, userId])
  return rows.length > 0
}

/** Deletes every API key of the user of this credential type (sessions, recovery keys). */
export async function deleteApiKeysOfType(sql: Sql, userId: string, credentialType: string): Promise<void> {
  await sql.query('DELETE FROM api_keys WHERE user_id = $1 AND credential_type = $2', [userId, credentialType])
}

/**
 * Every passkey with this credential id (any organization), each with the root quorum of its
 * organization read in the same statement. Unordered.
 */
export async function authenticatorsByCredentialId(sql: Sql, credentialId: string): Promise<Array<AuthenticatorRow & QuorumColumns>> {
  return sql.query<AuthenticatorRow & QuorumColumns>(
    `SELECT a.*, ${quorumColumns('a.organization_id')} FROM authenticators a WHERE a.credential_id = $1`,
    [credentialId],
  )
}

/** True when a passkey with this credential id is registered in any organization. */
export async function authenticatorCredentialExists(sql: Sql, credentialId: string): Promise<boolean> {
  const rows = await sql.query('SELECT id FROM authenticators WHERE credential_id = $1 LIMIT 1', [credentialId])
  return rows.length > 0
}

/** Records a passkey's signature counter after an assertion. */
export async function setAuthenticatorSignCount(sql: Sql, authenticatorId: string, signCount: number, now: number): Promise<void> {
  await sql.query('UPDATE authenticators SET sign_count = $2, updated_at = $3 WHERE id = $1', [authenticatorId, signCount, now])
}

/** Deletes one passkey of the user; false when the user has no passkey with this id. */
export async function deleteUserAuthenticator(sql: Sql, userId: string, authenticatorId: string): Promise<boolean> {
  const rows = await sql.query('DELETE FROM authenticators WHERE id = $1 AND user_id = $2 RETURNING id', [authenticatorId, userId])
  return rows.length > 0
}

/** The wire User object by id, in one query; undefined when the user is gone. */
export async function userWireById(sql: Sql, userId: string) {
  const [row] = await sql.query<UserRow & CredentialAggregates>(`SELECT u.*, ${CREDENTIAL_AGGREGATES} FROM users u WHERE u.id = $1`, [
    userId,
  ])
  return row ? userWire(row, row) : undefined
}

export type CredentialAggregates = {
  api_keys: ApiKeyRow[] | null
  authenticators: AuthenticatorRow[] | null
  oauth: OauthProviderRow[] | null
  /** The user's MFA policies (migration 027). */
  mfa?: MfaPolicyRow[] | null
}

/** The wire User object. */
export type UserWire = ReturnType<typeof userWire>

/** SQL: a user `u`'s credentials as JSON aggregates (read with `u.*`, then {@link userWireFromRow}). */
export const CREDENTIAL_AGGREGATES = `
  (SELECT json_agg(k) FROM api_keys k WHERE k.user_id = u.id) AS api_keys,
  (SELECT json_agg(a) FROM authenticators a WHERE a.user_id = u.id) AS authenticators,
  (SELECT json_agg(p) FROM oauth_providers p WHERE p.user_id = u.id) AS oauth,
  (SELECT json_agg(m) FROM mfa_policies m WHERE m.user_id = u.id) AS mfa`

/**
 * Oldest first, then by id: the order `ORDER BY created_at, id` gives (ids are ASCII, compared
 * as the C collation does). Sorting these few rows here is cheaper than a sort node per aggregate
 * on the embedded database.
 */
export function byCreatedThenId<T extends { created_at: number | string; id: string }>(rows: T[]): T[] {
  return rows.sort((a, b) => Number(a.created_at) - Number(b.created_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

/** The wire User object (service-interface "User"), with its credentials. */
export async function userToWire(sql: Sql, user: UserRow) {
  const [row] = await sql.query<CredentialAggregates>(`SELECT ${CREDENTIAL_AGGREGATES} FROM (SELECT $1::text AS id) u`, [user.id])
  return userWire(user, row)
}

/** The wire User object of a row read as `SELECT u.*, ${CREDENTIAL_AGGREGATES} FROM users u`. */
export function userWireFromRow(row: UserRow & CredentialAggregates): UserWire {
  return userWire(row, row)
}

function userWire(user: UserRow, row: CredentialAggregates | undefined) {
  const apiKeys = byCreatedThenId(row?.api_keys ?? [])
  const authenticators = byCreatedThenId(row?.authenticators ?? [])
  const oauth = byCreatedThenId(row?.oauth ?? [])
  return {
    userId: user.id,
    userName: user.user_name,
    ...(user.user_email ? { userEmail: user.user_email } : {}),
    ...(user.user_phone_number ? { userPhoneNumber: user.user_phone_number } : {}),
    authenticators: authenticators.map(authenticatorToWire),
    apiKeys: apiKeys.map(apiKeyToWire),
    userTags: user.user_tags,
    oauthProviders: oauth.map(oauthProviderToWire),
    createdAt: toTimestamp(Number(user.created_at)),
    updatedAt: toTimestamp(Number(user.updated_at)),
    // The user's MFA policies in evaluation order (hosted v1User.mfaPolicies).
    mfaPolicies: (row?.mfa ?? [])
      .sort((a, b) => Number(a.eval_order) - Number(b.eval_order) || Number(a.created_at) - Number(b.created_at) || (a.id < b.id ? -1 : 1))
      .map((m) => ({
        mfaPolicyId: m.id,
        mfaPolicyName: m.name,
        condition: m.condition,
        requiredAuthenticationMethods: stepsOf(m.required_methods),
        order: Number(m.eval_order),
        ...(m.notes !== null ? { notes: m.notes } : {}),
        createdAt: toTimestamp(Number(m.created_at)),
        updatedAt: toTimestamp(Number(m.updated_at)),
      })),
  }
}

export function apiKeyToWire(k: ApiKeyRow) {
  return {
    credential: {
      publicKey: k.public_key,
      type: k.credential_type,
      ...(k.session_profile_id ? { sessionProfileId: k.session_profile_id } : {}),
    },
    apiKeyId: k.id,
    apiKeyName: k.name,
    ...(k.expiration_seconds ? { expirationSeconds: k.expiration_seconds } : {}),
    createdAt: toTimestamp(Number(k.created_at)),
    updatedAt: toTimestamp(Number(k.updated_at)),
  }
}

export function authenticatorToWire(a: AuthenticatorRow) {
  return {
    transports: a.transports,
    attestationType: a.attestation_type,
    aaguid: a.aaguid,
    credentialId: a.credential_id,
    model: '',
    credential: { publicKey: a.public_key, type: 'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR' },
    authenticatorId: a.id,
    authenticatorName: a.name,
    createdAt: toTimestamp(Number(a.created_at)),
    updatedAt: toTimestamp(Number(a.updated_at)),
  }
}

/** A credential of a user, found by the public key a vote was stamped with (policies' `credentials`). */
export type VoteCredential =
  | { kind: 'API_KEY'; id: string; credential_type: string; public_key: string }
  | { kind: 'PASSKEY'; id: string; credential_id: string; public_key: string }

/** The user's API key, else passkey, with this public key; undefined when it has since been deleted. */
export async function credentialOfVote(sql: Sql, orgId: string, userId: string, publicKey: string): Promise<VoteCredential | undefined> {
  const [key] = await sql.query<{ id: string; credential_type: string; public_key: string }>(
    'SELECT id, credential_type, public_key FROM api_keys WHERE organization_id = $1 AND user_id = $2 AND public_key = $3 LIMIT 1',
    [orgId, userId, publicKey],
  )
  if (key) return { kind: 'API_KEY', ...key }
  const [passkey] = await sql.query<{ id: string; credential_id: string; public_key: string }>(
    'SELECT id, credential_id, public_key FROM authenticators WHERE organization_id = $1 AND user_id = $2 AND public_key = $3 LIMIT 1',
    [orgId, userId, publicKey],
  )
  return passkey ? { kind: 'PASSKEY', ...passkey } : undefined
}
