/**
 * Private keys (migration 011): keys outside wallets, their addresses and tags. The sealed column
 * holds ciphertext only; this file never opens it.
 */
import type { Sql } from './sql.js'
import { toTimestamp } from './time.js'

export type PrivateKeyRow = {
  seq: number
  id: string
  organization_id: string
  name: string
  curve: string
  public_key: string
  private_key_enc: string
  tags: string[]
  imported: boolean
  exported: boolean
  disabled: boolean
  created_at: number
  updated_at: number
}

export type PrivateKeyAddress = { format: string; address: string }

/** A private key with its addresses, in the order they were asked for. */
export type PrivateKeyWithAddresses = PrivateKeyRow & { addresses: PrivateKeyAddress[] }

/** Sealing purpose of a private key (AAD of `rt.secrets.seal`). */
export const privateKeyPurpose = (id: string) => `private-key:${id}`

const WITH_ADDRESSES = `SELECT k.*, coalesce((SELECT json_agg(json_build_object('format', a.format, 'address', a.address) ORDER BY a.position)
  FROM private_key_addresses a WHERE a.private_key_id = k.id), '[]') AS addresses FROM private_keys k`

export async function insertPrivateKey(
  sql: Sql,
  k: Pick<
    PrivateKeyRow,
    'id' | 'organization_id' | 'name' | 'curve' | 'public_key' | 'private_key_enc' | 'tags' | 'imported' | 'created_at'
  >,
  addresses: readonly PrivateKeyAddress[],
): Promise<void> {
  await sql.query(
    `INSERT INTO private_keys (id, organization_id, name, curve, public_key, private_key_enc, tags, imported, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $9)`,
    [k.id, k.organization_id, k.name, k.curve, k.public_key, k.private_key_enc, JSON.stringify(k.tags), k.imported, k.created_at],
  )
  for (const [i, a] of addresses.entries()) {
    await sql.query(
      'INSERT INTO private_key_addresses (private_key_id, organization_id, position, format, address) VALUES ($1, $2, $3, $4, $5)',
      [k.id, k.organization_id, i, a.format, a.address],
    )
  }
}

export async function getPrivateKey(sql: Sql, orgId: string, id: string): Promise<PrivateKeyWithAddresses | undefined> {
  const [row] = await sql.query<PrivateKeyWithAddresses>(`${WITH_ADDRESSES} WHERE k.id = $1 AND k.organization_id = $2`, [id, orgId])
  return row
}

export async function listPrivateKeys(sql: Sql, orgId: string): Promise<PrivateKeyWithAddresses[]> {
  return sql.query<PrivateKeyWithAddresses>(`${WITH_ADDRESSES} WHERE k.organization_id = $1 ORDER BY k.seq`, [orgId])
}

/** The organization's private key with an address equal to `address` (hex addresses: any case). */
export async function findPrivateKeyByAddress(sql: Sql, orgId: string, address: string): Promise<PrivateKeyWithAddresses | undefined> {
  const [row] = await sql.query<PrivateKeyWithAddresses>(
    `${WITH_ADDRESSES} WHERE k.id = (SELECT a.private_key_id FROM private_key_addresses a
       WHERE a.organization_id = $1 AND lower(a.address) = lower($2)
       ORDER BY (a.address = $2) DESC LIMIT 1)`,
    [orgId, address],
  )
  // lower() matches hex addresses without their checksum; a case-sensitive format must match exactly.
  if (row && !row.addresses.some((a) => a.address === address) && !/^(0x)?[0-9a-fA-F]+$/.test(address)) return undefined
  return row
}

export async function privateKeyNameTaken(sql: Sql, orgId: string, name: string): Promise<boolean> {
  const rows = await sql.query('SELECT 1 FROM private_keys WHERE organization_id = $1 AND name = $2', [orgId, name])
  return rows.length > 0
}

export async function countPrivateKeys(sql: Sql, orgId: string): Promise<number> {
  const [row] = await sql.query<{ n: number | string }>('SELECT count(*) AS n FROM private_keys WHERE organization_id = $1', [orgId])
  return Number(row?.n ?? 0)
}

export async function deletePrivateKey(sql: Sql, id: string): Promise<void> {
  await sql.query('DELETE FROM private_keys WHERE id = $1', [id])
}

export async function disablePrivateKey(sql: Sql, id: string, now: number): Promise<void> {
  await sql.query('UPDATE private_keys SET disabled = true, updated_at = $2 WHERE id = $1', [id, now])
}

export async function markPrivateKeyExported(sql: Sql, id: string, now: number): Promise<void> {
  await sql.query('UPDATE private_keys SET exported = true, updated_at = $2 WHERE id = $1', [id, now])
}

/** Adds the tag to each key that lacks it. */
export async function tagPrivateKeys(sql: Sql, tagId: string, keyIds: readonly string[], now: number): Promise<void> {
  if (keyIds.length === 0) return
  await sql.query(
    `UPDATE private_keys SET tags = tags || jsonb_build_array($2::text), updated_at = $3
     WHERE id = ANY($1::text[]) AND NOT tags @> jsonb_build_array($2::text)`,
    [keyIds, tagId, now],
  )
}

/** Removes the tag from the given keys, or from every key of the organization; returns the keys changed. */
export async function untagPrivateKeys(
  sql: Sql,
  orgId: string,
  tagId: string,
  keyIds: readonly string[] | 'all',
  now: number,
): Promise<string[]> {
  const rows =
    keyIds === 'all'
      ? await sql.query<{ id: string }>(
          `UPDATE private_keys SET tags = tags - $2::text, updated_at = $3
           WHERE organization_id = $1 AND tags @> jsonb_build_array($2::text) RETURNING id`,
          [orgId, tagId, now],
        )
      : await sql.query<{ id: string }>(
          `UPDATE private_keys SET tags = tags - $2::text, updated_at = $3
           WHERE organization_id = $1 AND id = ANY($4::text[]) AND tags @> jsonb_build_array($2::text) RETURNING id`,
          [orgId, tagId, now, keyIds],
        )
  return rows.map((r) => r.id)
}

/** The wire v1PrivateKey. */
export function privateKeyToWire(k: PrivateKeyWithAddresses) {
  return {
    privateKeyId: k.id,
    publicKey: k.public_key,
    privateKeyName: k.name,
    curve: k.curve,
    addresses: k.addresses.map((a) => ({ format: a.format, address: a.address })),
    privateKeyTags: k.tags,
    createdAt: toTimestamp(Number(k.created_at)),
    updatedAt: toTimestamp(Number(k.updated_at)),
    exported: k.exported,
    imported: k.imported,
  }
}
