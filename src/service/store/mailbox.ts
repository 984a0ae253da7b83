import type { Sql } from './sql.js'

/** One outgoing message (migrations/003_auth.sql `messages`). */
export type MessageRow = {
  id: string
  channel: 'email' | 'sms'
  to_address: string
  from_address: string
  reply_to: string | null
  subject: string
  text_body: string
  html_body: string
  /** pending | sent | failed | mailbox (kept for the dev mailbox only) */
  delivery: string
  attempts: number
  last_error: string | null
  /** The organization whose activity queued it (migration 026); null for messages from before it. */
  organization_id: string | null
  next_attempt_at: number
  created_at: number
}

export type NewMessage = Pick<
  MessageRow,
  'channel' | 'to_address' | 'from_address' | 'reply_to' | 'subject' | 'text_body' | 'html_body' | 'delivery'
> & { organization_id?: string | null }

export async function insertMessage(sql: Sql, m: NewMessage, now: number): Promise<string> {
  const id = crypto.randomUUID()
  await sql.query(
    `INSERT INTO messages (id, channel, to_address, from_address, reply_to, subject, text_body, html_body, delivery, attempts, next_attempt_at, created_at, organization_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, $10, $10, $11)`,
    [
      id,
      m.channel,
      m.to_address,
      m.from_address,
      m.reply_to,
      m.subject,
      m.text_body,
      m.html_body,
      m.delivery,
      now,
      m.organization_id ?? null,
    ],
  )
  return id
}

/** Newest first (A6). */
export async function listMessages(sql: Sql, limit = 200): Promise<MessageRow[]> {
  return sql.query<MessageRow>('SELECT * FROM messages ORDER BY created_at DESC, id DESC LIMIT $1', [limit])
}

/** Messages due for a delivery attempt. */
export async function dueMessages(sql: Sql, now: number, limit = 20): Promise<MessageRow[]> {
  return sql.query<MessageRow>(`SELECT * FROM messages WHERE delivery = 'pending' AND next_attempt_at <= $1 ORDER BY created_at LIMIT $2`, [
    now,
    limit,
  ])
}

/** Records one delivery attempt's outcome. `clearBodies` drops the text once sent (no codes at rest). */
export async function recordAttempt(
  sql: Sql,
  id: string,
  outcome: { delivery: string; lastError: string | null; nextAttemptAt: number; clearBodies: boolean },
): Promise<void> {
  await sql.query(
    `UPDATE messages SET delivery = $2, attempts = attempts + 1, last_error = $3, next_attempt_at = $4,
            text_body = CASE WHEN $5 THEN '' ELSE text_body END, html_body = CASE WHEN $5 THEN '' ELSE html_body END
      WHERE id = $1`,
    [id, outcome.delivery, outcome.lastError, outcome.nextAttemptAt, outcome.clearBodies],
  )
}
