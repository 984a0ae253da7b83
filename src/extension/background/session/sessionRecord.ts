/**
 * Session metadata in `storage.session` (style.md habit 9: versioned, parsed on read).
 * Only ids, times and the public key: the signing key lives in the {@link KeyStore}.
 * `storage.session` is memory-only in the browser and survives a service-worker restart.
 */
import { z } from 'zod'
import type { StorageAreaLike } from '../storage/storageArea'

/** Storage key of the session record. */
export const SESSION_KEY = 'sigil.session'

/** How the session was obtained (`password`: unlocked with this browser's device credential, session/vault.ts). */
export const LOGIN_METHODS = ['email', 'sms', 'passkey', 'oauth', 'password'] as const
/** One of {@link LOGIN_METHODS}. */
export type LoginMethod = (typeof LOGIN_METHODS)[number]

/** The stored session record (version 1). */
export const SessionRecord = z.object({
  v: z.literal(1),
  organizationId: z.string().min(1),
  userId: z.string().min(1),
  username: z.string(),
  publicKeyHex: z.string().regex(/^0[23][0-9a-f]{64}$/),
  /** The session key's id at the service (delete_api_keys revokes it on lock/logout). */
  apiKeyId: z.string().min(1).optional(),
  method: z.enum(LOGIN_METHODS),
  createdAt: z.number(),
  expiresAt: z.number(),
  lastActiveAt: z.number(),
  /** When the user last proved themselves (a login or a password unlock); renewal keeps it. 0: unknown (a record from before). */
  authenticatedAt: z.number().default(0),
  /** When the current session key was issued (the login, or the last renewal). */
  renewedAt: z.number().optional(),
})
/** A parsed session record. */
export type SessionRecord = z.output<typeof SessionRecord>

/** Read the session record; `undefined` when absent or unreadable. */
export async function readSessionRecord(area: StorageAreaLike): Promise<SessionRecord | undefined> {
  const parsed = SessionRecord.safeParse((await area.get(SESSION_KEY))[SESSION_KEY])
  return parsed.success ? parsed.data : undefined
}

/** Write the session record. */
export async function writeSessionRecord(area: StorageAreaLike, record: SessionRecord): Promise<void> {
  await area.set({ [SESSION_KEY]: record })
}

/** Why a session ended (shown on the login screen). */
export type EndReason = 'logout' | 'auto-lock' | 'expired' | 'lock'

/** Storage key of the last end reason. */
export const LAST_END_KEY = 'sigil.lastEnd'

const LastEnd = z.object({ reason: z.enum(['logout', 'auto-lock', 'expired', 'lock']), at: z.number() })

/** Read why the last session ended. */
export async function readLastEnd(area: StorageAreaLike): Promise<z.output<typeof LastEnd> | undefined> {
  const parsed = LastEnd.safeParse((await area.get(LAST_END_KEY))[LAST_END_KEY])
  return parsed.success ? parsed.data : undefined
}
