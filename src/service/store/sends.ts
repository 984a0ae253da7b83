/**
 * Send-transaction records (issue 11): what the tracker builds, signs, broadcasts and follows.
 * A tracker claims a record with a lease, so instances sharing a database never work on the
 * same send at once.
 */
import type { Sql } from './sql.js'

export type SendStatus = 'INITIALIZED' | 'BROADCASTING' | 'INCLUDED' | 'FAILED'

export type SendRow = {
  id: string
  organization_id: string
  activity_id: string
  caip2: string
  family: 'evm' | 'solana'
  from_address: string
  account_id: string
  request: string
  signed_tx: string | null
  tx_hash: string | null
  nonce: number | null
  status: SendStatus
  error: string | null
  attempts: number
  next_attempt_at: number
  lease_until: number
  block_number: number | null
  created_at: number
  updated_at: number
}

export type NewSend = Pick<
  SendRow,
  'id' | 'organization_id' | 'activity_id' | 'caip2' | 'family' | 'from_address' | 'account_id' | 'request'
>

export async function insertSend(sql: Sql, s: NewSend, now: number): Promise<void> {
  await sql.query(
    `INSERT INTO send_transactions (id, organization_id, activity_id, caip2, family, from_address, account_id, request,
       status, next_attempt_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'INITIALIZED', $9, $9, $9)`,
    [s.id, s.organization_id, s.activity_id, s.caip2, s.family, s.from_address, s.account_id, s.request, now],
  )
}

/** The organization's send `id`. */
export async function getSend(sql: Sql, organizationId: string, id: string): Promise<SendRow | undefined> {
  const [row] = await sql.query<SendRow>('SELECT * FROM send_transactions WHERE id = $1 AND organization_id = $2', [id, organizationId])
  return row
}

/**
 * Claims the oldest due open send for `leaseMs` (none when every open send is leased or not due).
 * Oldest first, so one address's sends are built (and their nonces taken) in submission order.
 */
export async function claimDueSend(sql: Sql, now: number, leaseMs: number): Promise<SendRow | undefined> {
  const [row] = await sql.query<SendRow>(
    `UPDATE send_transactions SET lease_until = $2
     WHERE id = (
       SELECT id FROM send_transactions
       WHERE status IN ('INITIALIZED', 'BROADCASTING') AND next_attempt_at <= $1 AND lease_until < $1
       ORDER BY created_at, id LIMIT 1
     ) AND lease_until < $1
     RETURNING *`,
    [now, now + leaseMs],
  )
  return row
}

/** Records the signed transaction: from here on only these bytes are ever broadcast. */
export async function markSigned(
  sql: Sql,
  id: string,
  signed: { signedTx: string; txHash: string; nonce: number | null },
  now: number,
): Promise<boolean> {
  const rows = await sql.query(
    `UPDATE send_transactions SET signed_tx = $2, tx_hash = $3, nonce = $4, status = 'BROADCASTING', updated_at = $5
     WHERE id = $1 AND status = 'INITIALIZED' RETURNING id`,
    [id, signed.signedTx, signed.txHash, signed.nonce, now],
  )
  return rows.length === 1
}

export async function markIncluded(sql: Sql, id: string, blockNumber: number | null, now: number): Promise<void> {
  await sql.query(
    `UPDATE send_transactions SET status = 'INCLUDED', block_number = $2, lease_until = 0, updated_at = $3
     WHERE id = $1 AND status IN ('INITIALIZED', 'BROADCASTING')`,
    [id, blockNumber, now],
  )
}

export async function markFailed(sql: Sql, id: string, error: unknown, now: number): Promise<void> {
  await sql.query(
    `UPDATE send_transactions SET status = 'FAILED', error = $2, lease_until = 0, updated_at = $3
     WHERE id = $1 AND status IN ('INITIALIZED', 'BROADCASTING')`,
    [id, JSON.stringify(error), now],
  )
}

/** Releases the send to be tried again at `at`. */
export async function retryAt(sql: Sql, id: string, at: number, now: number): Promise<void> {
  await sql.query(
    'UPDATE send_transactions SET attempts = attempts + 1, next_attempt_at = $2, lease_until = 0, updated_at = $3 WHERE id = $1',
    [id, at, now],
  )
}
