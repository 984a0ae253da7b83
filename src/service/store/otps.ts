import type { Sql } from './sql.js'

/** The path an OTP was started for (migration 018): which activities may spend it. */
export type OtpPath = 'init_otp' | 'init_otp_auth'

/** One initiated OTP (migrations/003_auth.sql, 018); the code is stored only as an HMAC. */
export type OtpRow = {
  id: string
  organization_id: string
  otp_type: string
  path: OtpPath
  contact: string
  user_identifier: string | null
  code_hash: string
  code_length: number
  alphanumeric: boolean
  expires_at: number
  used_at: number | null
  created_at: number
  /** Attempts claimed so far (each one before its code is compared; claimOtpAttempt). */
  attempts: number
}

export async function insertOtp(sql: Sql, o: Omit<OtpRow, 'used_at' | 'attempts'>): Promise<void> {
  await sql.query(
    `INSERT INTO otps (id, organization_id, otp_type, path, contact, user_identifier, code_hash, code_length, alphanumeric, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      o.id,
      o.organization_id,
      o.otp_type,
      o.path,
      o.contact,
      o.user_identifier,
      o.code_hash,
      o.code_length,
      o.alphanumeric,
      o.expires_at,
      o.created_at,
    ],
  )
}

function otpOf(row: OtpRow | undefined): OtpRow | undefined {
  return (
    row && {
      ...row,
      expires_at: Number(row.expires_at),
      created_at: Number(row.created_at),
      used_at: row.used_at === null ? null : Number(row.used_at),
      attempts: Number(row.attempts),
    }
  )
}

/** The OTP, row-locked for the rest of the transaction (single use under concurrency). */
export async function lockOtp(sql: Sql, id: string): Promise<OtpRow | undefined> {
  return otpOf((await sql.query<OtpRow>('SELECT * FROM otps WHERE id = $1 FOR UPDATE', [id]))[0])
}

/** The OTP as it is now (no lock). */
export async function getOtp(sql: Sql, id: string): Promise<OtpRow | undefined> {
  return otpOf((await sql.query<OtpRow>('SELECT * FROM otps WHERE id = $1', [id]))[0])
}

/**
 * Claims one attempt of an unused, unexpired OTP started on one of `paths`, atomically: true when
 * it was one of the first `max`, false when the OTP is spent, expired, of another path or out of
 * attempts. One statement, so concurrent claims are serialised by the row and counted exactly.
 */
export async function claimOtpAttempt(sql: Sql, id: string, paths: readonly OtpPath[], now: number, max: number): Promise<boolean> {
  const rows = await sql.query(
    `UPDATE otps SET attempts = attempts + 1
      WHERE id = $1 AND path = ANY($2::text[]) AND used_at IS NULL AND expires_at > $3 AND attempts < $4
      RETURNING attempts`,
    [id, [...paths], now, max],
  )
  return rows.length > 0
}

export async function markOtpUsed(sql: Sql, id: string, now: number): Promise<void> {
  await sql.query('UPDATE otps SET used_at = $2 WHERE id = $1', [id, now])
}

/** OTPs initiated for a contact since `sinceMs` (rate limit). */
export async function countOtpsForContact(sql: Sql, contact: string, sinceMs: number): Promise<number> {
  const [row] = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM otps WHERE contact = $1 AND created_at > $2', [
    contact,
    sinceMs,
  ])
  return Number(row?.n ?? 0)
}

/** OTPs initiated with a userIdentifier since `sinceMs` (per-user SMS rate limit). */
export async function countOtpsForIdentifier(sql: Sql, userIdentifier: string, sinceMs: number): Promise<number> {
  const [row] = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM otps WHERE user_identifier = $1 AND created_at > $2', [
    userIdentifier,
    sinceMs,
  ])
  return Number(row?.n ?? 0)
}

/** Records a verification token as spent; false when it already was (single use). */
export async function spendVerificationToken(sql: Sql, tokenId: string, now: number): Promise<boolean> {
  const rows = await sql.query(
    'INSERT INTO used_verification_tokens (token_id, used_at) VALUES ($1, $2) ON CONFLICT (token_id) DO NOTHING RETURNING token_id',
    [tokenId, now],
  )
  return rows.length > 0
}
