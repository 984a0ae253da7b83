/**
 * The service's own keys (migration 001 `service_keys`): one row per name, the private half
 * sealed under the master key (`keys.ts` seals and opens it; this file never does).
 */
import type { Sql } from './sql.js'

export type ServiceKeyRow = { public_key: string; private_key_enc: string }

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

export async function getServiceKey(sql: Sql, name: string): Promise<ServiceKeyRow | undefined> {
  const [row] = await sql.query<ServiceKeyRow>('SELECT public_key, private_key_enc FROM service_keys WHERE name = $1', [name])
  return row
}

/** How many service keys the database holds (any: it was sealed under some master key). */
export async function countServiceKeys(sql: Sql): Promise<number> {
  const [row] = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM service_keys')
  return row?.n ?? 0
}
