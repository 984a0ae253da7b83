/**
 * An organization's secrets and the ingress keys they are imported through (migration 029). Values
 * and ingress private keys are sealed under the master key (`rt.secrets`, store/secrets.ts) with the
 * purposes below; nothing here returns a value unsealed.
 */
import { MAX_PENDING_SECRET_IMPORT_KEYS } from '../../api/limits.js'
import { type PageOptions, readPage } from './page.js'
import type { Sql } from './sql.js'

/** Purpose strings of the sealed columns (AAD of `rt.secrets.seal`): a sealed value belongs to one row. */
export const secretSealPurpose = {
  importKey: (orgId: string, publicKeyHex: string) => `secret-import-key:${orgId}:${publicKeyHex}`,
  value: (orgId: string, secretId: string) => `secret-value:${orgId}:${secretId}`,
}

export type SecretImportKeyRow = {
  organization_id: string
  public_key: string
  user_id: string
  private_key_enc: string
  created_at: number | string
}

export type SecretRow = {
  id: string
  organization_id: string
  name: string | null
  static_properties: unknown
  value_enc: string
  created_at: number | string
}

/** A secret as a list shows it: everything but its sealed value. */
export type SecretMetadataRow = Omit<SecretRow, 'value_enc'>

/** Stores a pending ingress key, and drops the organization's oldest beyond {@link MAX_PENDING_SECRET_IMPORT_KEYS}. */
export async function insertSecretImportKey(sql: Sql, k: SecretImportKeyRow): Promise<void> {
  await sql.query(
    `INSERT INTO secret_import_keys (organization_id, public_key, user_id, private_key_enc, created_at) VALUES ($1, $2, $3, $4, $5)`,
    [k.organization_id, k.public_key, k.user_id, k.private_key_enc, k.created_at],
  )
  await sql.query(
    `DELETE FROM secret_import_keys WHERE organization_id = $1 AND public_key NOT IN (
       SELECT public_key FROM secret_import_keys WHERE organization_id = $1 ORDER BY created_at DESC, public_key LIMIT $2)`,
    [k.organization_id, MAX_PENDING_SECRET_IMPORT_KEYS],
  )
}

/** Takes a pending ingress key (deleting it: single use); undefined when the organization has none with this public key. */
export async function takeSecretImportKey(sql: Sql, orgId: string, publicKeyHex: string): Promise<SecretImportKeyRow | undefined> {
  const [row] = await sql.query<SecretImportKeyRow>(
    'DELETE FROM secret_import_keys WHERE organization_id = $1 AND public_key = $2 RETURNING *',
    [orgId, publicKeyHex],
  )
  return row
}

/** Stores a secret with its sealed value. */
export async function insertSecret(
  sql: Sql,
  s: { id: string; organizationId: string; name: string | undefined; staticProperties: unknown; valueEnc: string; now: number },
): Promise<void> {
  await sql.query(
    `INSERT INTO secrets (id, organization_id, name, static_properties, value_enc, created_at) VALUES ($1, $2, $3, $4::jsonb, $5, $6)`,
    [s.id, s.organizationId, s.name ?? null, JSON.stringify(s.staticProperties), s.valueEnc, s.now],
  )
}

/** True when the organization has a secret with this name. */
export async function secretNameTaken(sql: Sql, orgId: string, name: string): Promise<boolean> {
  const rows = await sql.query('SELECT 1 FROM secrets WHERE organization_id = $1 AND name = $2', [orgId, name])
  return rows.length > 0
}

/** One secret of the organization, sealed value included; undefined when it has none with this id. */
export async function getSecret(sql: Sql, orgId: string, id: string): Promise<SecretRow | undefined> {
  const [row] = await sql.query<SecretRow>('SELECT * FROM secrets WHERE organization_id = $1 AND id = $2', [orgId, id])
  return row
}

/** Deletes one secret of the organization; false when it has none with this id. */
export async function deleteSecret(sql: Sql, orgId: string, id: string): Promise<boolean> {
  const rows = await sql.query('DELETE FROM secrets WHERE organization_id = $1 AND id = $2 RETURNING id', [orgId, id])
  return rows.length > 0
}

const json = (v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as unknown) : v)

/** A page of the organization's secrets, newest first (cursors are secret ids), without their values. */
export async function listSecrets(sql: Sql, orgId: string, page: PageOptions | undefined): Promise<SecretMetadataRow[]> {
  const rows = await readPage<SecretMetadataRow>(
    sql,
    {
      select: 'SELECT s.id, s.organization_id, s.name, s.static_properties, s.created_at FROM secrets s',
      where: ['s.organization_id = $1'],
      params: [orgId],
    },
    {
      columns: ['s.created_at', 's.id'],
      order: 'DESC',
      noun: 'secret',
      keyOf: async (id) => {
        const [row] = await sql.query<{ created_at: number; id: string }>(
          'SELECT created_at, id FROM secrets WHERE id = $1 AND organization_id = $2',
          [id, orgId],
        )
        return row && [row.created_at, row.id]
      },
    },
    page,
  )
  return rows.map((r) => ({ ...r, static_properties: json(r.static_properties) }))
}
