/**
 * Send-transaction records: what the tracker builds, signs, broadcasts and follows.
 * A tracker claims a record with a lease, so instances sharing a database never work on the
 * same send at once.
 */
import { type PageOptions, readPage } from './page.js'
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
  /** The gas sponsor that pays a sponsored send and whose nonce it takes (null: the account pays). */
  payer: string | null
  status: SendStatus
  error: string | null
  attempts: number
  next_attempt_at: number
  lease_until: number
  /** The block (EVM) or slot (Solana) of a send on chain: INCLUDED, or FAILED on chain. */
  block_number: number | null
  block_hash: string | null
  /** The block's time, ms since the epoch. */
  block_time: number | null
  /** The fee paid, atomic units of the native asset. */
  fee: string | null
  finality: Finality | null
  /** Addresses besides from_address whose history lists the send (EVM lowercase). */
  parties: string[]
  created_at: number
  updated_at: number
}

export type Finality = 'CONFIRMED' | 'FINALIZED'

/** Where and at what cost a send landed on chain, as the tracker read it (null: the node did not say). */
export type SendInclusion = {
  blockNumber: number
  blockHash: string | null
  blockTime: number | null
  fee: string | null
  finality: Finality
}

export type NewSend = Pick<
  SendRow,
  'id' | 'organization_id' | 'activity_id' | 'caip2' | 'family' | 'from_address' | 'account_id' | 'request' | 'parties'
>

export async function insertSend(sql: Sql, s: NewSend, now: number): Promise<void> {
  await sql.query(
    `INSERT INTO send_transactions (id, organization_id, activity_id, caip2, family, from_address, account_id, request,
       parties, status, next_attempt_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::text[], 'INITIALIZED', $10, $10, $10)`,
    [s.id, s.organization_id, s.activity_id, s.caip2, s.family, s.from_address, s.account_id, s.request, s.parties, now],
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

/** When the earliest open send can next be claimed (due and not leased), ms since the epoch; undefined when none is open. */
export async function nextSendDueAt(sql: Sql): Promise<number | undefined> {
  const [row] = await sql.query<{ at: string | number | null }>(
    `SELECT min(greatest(next_attempt_at, lease_until + 1)) AS at FROM send_transactions WHERE status IN ('INITIALIZED', 'BROADCASTING')`,
  )
  return row?.at === null || row?.at === undefined ? undefined : Number(row.at)
}

/**
 * Records the signed transaction: from here on only these bytes are ever broadcast. `payer` is the
 * gas sponsor whose nonce it takes (a sponsored send), lowercase.
 */
export async function markSigned(
  sql: Sql,
  id: string,
  signed: { signedTx: string; txHash: string; nonce: number | null },
  now: number,
  payer?: string,
): Promise<boolean> {
  const rows = await sql.query(
    `UPDATE send_transactions SET signed_tx = $2, tx_hash = $3, nonce = $4, status = 'BROADCASTING', updated_at = $5, payer = $6
     WHERE id = $1 AND status = 'INITIALIZED' RETURNING id`,
    [id, signed.signedTx, signed.txHash, signed.nonce, now, payer ?? null],
  )
  return rows.length === 1
}

/** True while the send is INITIALIZED (not yet signed nor failed); its row stays locked until the transaction ends. */
export async function lockUnsignedSend(tx: Sql, id: string): Promise<boolean> {
  const [row] = await tx.query<{ status: SendStatus }>('SELECT status FROM send_transactions WHERE id = $1 FOR UPDATE', [id])
  return row?.status === 'INITIALIZED'
}

/**
 * Holds the right to choose `payer`'s next nonce on `caip2` until the transaction ends: instances
 * sharing a PostgreSQL database build that payer's transactions one at a time (PGlite has one
 * connection, so its transactions already run one at a time).
 */
export async function lockPayerNonce(tx: Sql, kind: 'postgres' | 'pglite', caip2: string, payer: string): Promise<void> {
  if (kind !== 'postgres') return
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`sigil-payer-nonce:${caip2}:${payer.toLowerCase()}`])
}

/** The highest nonce stored for `payer`'s sends on `caip2` that are signed and not yet included or failed; undefined when none. */
export async function highestOpenPayerNonce(sql: Sql, caip2: string, payer: string): Promise<number | undefined> {
  const [row] = await sql.query<{ n: string | number | null }>(
    `SELECT max(nonce) AS n FROM send_transactions WHERE caip2 = $1 AND payer = $2 AND status = 'BROADCASTING' AND nonce IS NOT NULL`,
    [caip2, payer.toLowerCase()],
  )
  return row?.n === null || row?.n === undefined ? undefined : Number(row.n)
}

export async function markIncluded(sql: Sql, id: string, at: SendInclusion, now: number): Promise<void> {
  await sql.query(
    `UPDATE send_transactions SET status = 'INCLUDED', block_number = $2, block_hash = $3, block_time = $4, fee = $5, finality = $6,
       lease_until = 0, updated_at = $7
     WHERE id = $1 AND status IN ('INITIALIZED', 'BROADCASTING')`,
    [id, at.blockNumber, at.blockHash, at.blockTime, at.fee, at.finality, now],
  )
}

/** Records the send FAILED; `at` when it failed on chain (reverted, or a Solana execution error), with its block. */
export async function markFailed(sql: Sql, id: string, error: unknown, now: number, at?: SendInclusion): Promise<void> {
  await sql.query(
    `UPDATE send_transactions SET status = 'FAILED', error = $2, lease_until = 0, updated_at = $3,
       block_number = $4, block_hash = $5, block_time = $6, fee = $7, finality = $8
     WHERE id = $1 AND status IN ('INITIALIZED', 'BROADCASTING')`,
    [
      id,
      JSON.stringify(error),
      now,
      at?.blockNumber ?? null,
      at?.blockHash ?? null,
      at?.blockTime ?? null,
      at?.fee ?? null,
      at?.finality ?? null,
    ],
  )
}

/** Releases the send to be tried again at `at`. */
export async function retryAt(sql: Sql, id: string, at: number, now: number): Promise<void> {
  await sql.query(
    'UPDATE send_transactions SET attempts = attempts + 1, next_attempt_at = $2, lease_until = 0, updated_at = $3 WHERE id = $1',
    [id, at, now],
  )
}

/** A send on chain with the activity that submitted it. */
export type SendHistoryRow = SendRow & { activity_fingerprint: string | null; activity_created_at: number | null }

export type SendHistoryFilter = {
  organizationId: string
  caip2: string
  /** The address whose history this is: its sends, and the organization's sends that name it as a party. */
  address: string
  /** EVM addresses compare without case; Solana's exactly. */
  family: 'evm' | 'solana'
  /** Newest block first; `after`/`before` are send ids (sendTransactionStatusId) of this list, see `page.ts`. */
  page?: PageOptions | undefined
}

/**
 * A page of the organization's sends on chain (INCLUDED, or FAILED on chain) on one network that
 * `address` sent or is a party of, newest block first, and whether rows follow or precede it.
 */
export async function listSendHistory(
  sql: Sql,
  f: SendHistoryFilter,
): Promise<{ rows: SendHistoryRow[]; hasNextPage: boolean; hasPreviousPage: boolean }> {
  const address = f.family === 'evm' ? f.address.toLowerCase() : f.address
  const where = [
    's.organization_id = $1',
    's.caip2 = $2',
    's.tx_hash IS NOT NULL',
    's.block_number IS NOT NULL',
    f.family === 'evm' ? '(lower(s.from_address) = $3 OR $3 = ANY(s.parties))' : '(s.from_address = $3 OR $3 = ANY(s.parties))',
  ]
  const params = [f.organizationId, f.caip2, address]
  const keyset = {
    columns: ['s.block_number', 's.created_at', 's.id'],
    order: 'DESC' as const,
    noun: 'send transaction of this history',
    keyOf: async (id: string) => {
      const [row] = await sql.query<{ block_number: number; created_at: number; id: string }>(
        `SELECT s.block_number, s.created_at, s.id FROM send_transactions s WHERE ${where.join(' AND ')} AND s.id = $4`,
        [...params, id],
      )
      return row && [row.block_number, row.created_at, row.id]
    },
  }
  const list = {
    select: `SELECT s.*, a.fingerprint AS activity_fingerprint, a.created_at AS activity_created_at
      FROM send_transactions s LEFT JOIN activities a ON a.id = s.activity_id AND a.organization_id = s.organization_id`,
    where,
    params,
  }
  const rows = await readPage<SendHistoryRow>(sql, list, keyset, f.page)
  const first = rows[0]
  const last = rows[rows.length - 1]
  const any = async (cursor: PageOptions) => (await readPage<{ id: string }>(sql, list, keyset, { ...cursor, limit: '1' })).length > 0
  return {
    rows,
    hasNextPage: last ? await any({ after: last.id }) : Boolean(f.page?.before),
    hasPreviousPage: first ? await any({ before: first.id }) : Boolean(f.page?.after),
  }
}

/**
 * The newest other send of the same sender (the payer of a sponsored send) on the same network
 * signed at `send`'s nonce and not failed: a replacement (speed up or cancel) of `send`; undefined when none.
 */
export async function replacementOf(sql: Sql, send: SendRow): Promise<SendRow | undefined> {
  if (send.nonce === null) return undefined
  const [row] = await sql.query<SendRow>(
    `SELECT * FROM send_transactions
     WHERE caip2 = $1 AND id <> $2 AND nonce = $3 AND status IN ('BROADCASTING', 'INCLUDED')
       AND lower(coalesce(payer, from_address)) = lower($4) AND (created_at, id) > ($5, $2)
     ORDER BY created_at DESC, id DESC LIMIT 1`,
    [send.caip2, send.id, send.nonce, send.payer ?? send.from_address, send.created_at],
  )
  return row
}
