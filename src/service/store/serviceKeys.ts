/**
 * The service's own keys (migration 001 `service_keys`): one row per name, the private half
 * sealed under the master key (`keys.ts` seals and opens it; this file never does).
 */
import type { Sql } from './sql.js'

export type ServiceKeyRow = { name: string; public_key: string; private_key_enc: string }

/** Stores a key under `name` unless one is there already: the first writer wins when instances start at once. */
export async function insertServiceKeyIfAbsent(
  sql: Sql,
  k: { name: string; publicKey: string; privateKeyEnc: string; createdAt: number },
): Promise<void> {
  await sql.query(
    `INSERT INTO service_keys (name, public_key, private_key_enc, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (name) DO NOTHING`,
    [k.name, k.publicKey, k.privateKeyEnc, k.createdAt],
  )
}

/** Every stored service key. */
export async function listServiceKeys(sql: Sql): Promise<ServiceKeyRow[]> {
  return sql.query<ServiceKeyRow>('SELECT name, public_key, private_key_enc FROM service_keys')
}

/** How many service keys the database holds (any: it was sealed under some master key). */
export async function countServiceKeys(sql: Sql): Promise<number> {
  const [row] = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM service_keys')
  return row?.n ?? 0
}
