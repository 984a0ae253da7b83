/**
 * OAuth 2.0 credential rows (migration 030). The client secret is sealed under the master key and
 * leaves this module only through {@link openClientSecret}, in memory.
 */
import type { Oauth2Credential, Oauth2Provider } from '../../api/oauth2.js'
import type { SecretBox } from './secrets.js'
import type { Sql } from './sql.js'
import { toTimestamp } from './time.js'

export type Oauth2CredentialRow = {
  id: string
  organization_id: string
  provider: Oauth2Provider
  client_id: string
  encrypted_client_secret: string
  client_secret_sealed: string
  created_at: number
  updated_at: number
}

/** The seal purpose binds a sealed secret to its credential row. */
const purpose = (id: string) => `oauth2-credential:${id}:client-secret`

const num = (r: Oauth2CredentialRow): Oauth2CredentialRow => ({ ...r, created_at: Number(r.created_at), updated_at: Number(r.updated_at) })

/** What create and update store: the client secret in the clear (in memory only) beside what the client sent. */
export type Oauth2CredentialFields = {
  provider: Oauth2Provider
  clientId: string
  encryptedClientSecret: string
  clientSecret: Uint8Array
}

export async function insertOauth2Credential(
  sql: Sql,
  box: SecretBox,
  c: Oauth2CredentialFields & { id: string; orgId: string; now: number },
): Promise<void> {
  await sql.query(
    `INSERT INTO oauth2_credentials (id, organization_id, provider, client_id, encrypted_client_secret, client_secret_sealed, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
    [c.id, c.orgId, c.provider, c.clientId, c.encryptedClientSecret, box.seal(c.clientSecret, purpose(c.id)), c.now],
  )
}

/** Replaces provider, client id and secret; false when the organization has no such credential. */
export async function updateOauth2Credential(
  sql: Sql,
  box: SecretBox,
  c: Oauth2CredentialFields & { id: string; orgId: string; now: number },
): Promise<boolean> {
  const rows = await sql.query(
    `UPDATE oauth2_credentials SET provider = $3, client_id = $4, encrypted_client_secret = $5, client_secret_sealed = $6, updated_at = $7
      WHERE id = $1 AND organization_id = $2 RETURNING id`,
    [c.id, c.orgId, c.provider, c.clientId, c.encryptedClientSecret, box.seal(c.clientSecret, purpose(c.id)), c.now],
  )
  return rows.length > 0
}

export async function getOauth2Credential(sql: Sql, orgId: string, id: string): Promise<Oauth2CredentialRow | undefined> {
  const [row] = await sql.query<Oauth2CredentialRow>('SELECT * FROM oauth2_credentials WHERE id = $1 AND organization_id = $2', [id, orgId])
  return row && num(row)
}

export async function listOauth2Credentials(sql: Sql, orgId: string): Promise<Oauth2CredentialRow[]> {
  const rows = await sql.query<Oauth2CredentialRow>('SELECT * FROM oauth2_credentials WHERE organization_id = $1 ORDER BY created_at, id', [
    orgId,
  ])
  return rows.map(num)
}

export async function deleteOauth2Credential(sql: Sql, orgId: string, id: string): Promise<boolean> {
  const rows = await sql.query('DELETE FROM oauth2_credentials WHERE id = $1 AND organization_id = $2 RETURNING id', [id, orgId])
  return rows.length > 0
}

/** Opens a credential's client secret, in memory only; the caller zeroes it when done. */
export function openClientSecret(box: SecretBox, row: Oauth2CredentialRow): Uint8Array {
  return box.open(row.client_secret_sealed, purpose(row.id))
}

/** The wire form (get_ / list_oauth2_credentials): never the secret in the clear. */
export function oauth2CredentialToWire(row: Oauth2CredentialRow): Oauth2Credential {
  return {
    oauth2CredentialId: row.id,
    organizationId: row.organization_id,
    provider: row.provider,
    clientId: row.client_id,
    encryptedClientSecret: row.encrypted_client_secret,
    createdAt: toTimestamp(row.created_at),
    updatedAt: toTimestamp(row.updated_at),
  }
}
