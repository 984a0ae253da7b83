/**
 * Revoking a session's key at the service when the session ends: lock, logout and
 * auto-lock delete the session's API key with `delete_api_keys`, stamped by that key itself
 * (the user is the root user of its sub-organization, so the activity runs at once). Best
 * effort with a short timeout; when it cannot reach the service the revocation stays pending
 * (ids in `storage.local`, the still-sealed key in the `revoking` slot) and is retried on the
 * next worker start and on an alarm while the key is unexpired, then dropped. A browser restart
 * loses the wrapping key, so a pending revocation cannot survive it: the key is unreadable by
 * anyone from then on and expires at the service.
 */
import { z } from 'zod'
import { createClient } from '../../../api/client'
import { SigilError, SigilRequestError } from '../../../api/errors'
import type { Stamper } from '../../../api/stamper'
import { isSessionKeyRejected } from '../failures'
import type { SessionRecord } from './sessionRecord'
import type { StorageAreaLike } from '../storage/storageArea'

/** `storage.local` key of the pending revocation. */
export const REVOKE_KEY = 'sigil.pendingRevocation'
/** Alarm retrying a pending revocation. */
export const REVOKE_ALARM = 'sigil-revoke'
/** How long one revocation attempt may take. */
export const REVOKE_TIMEOUT_MS = 3000
/** Delay before retrying an offline revocation. */
export const REVOKE_RETRY_MS = 60_000

/** A revocation that could not reach the service yet. */
export const PendingRevocation = z.object({
  v: z.literal(1),
  organizationId: z.string().min(1),
  userId: z.string().min(1),
  publicKeyHex: z.string(),
  apiKeyId: z.string().min(1).optional(),
  expiresAt: z.number(),
})
/** A parsed {@link PendingRevocation}. */
export type PendingRevocation = z.output<typeof PendingRevocation>

/** The pending revocation for a session record. */
export function pendingFor(record: SessionRecord): PendingRevocation {
  return {
    v: 1,
    organizationId: record.organizationId,
    userId: record.userId,
    publicKeyHex: record.publicKeyHex,
    ...(record.apiKeyId ? { apiKeyId: record.apiKeyId } : {}),
    expiresAt: record.expiresAt,
  }
}

/** Read the pending revocation; `undefined` when absent or unreadable. */
export async function readPendingRevocation(area: StorageAreaLike): Promise<PendingRevocation | undefined> {
  const parsed = PendingRevocation.safeParse((await area.get(REVOKE_KEY))[REVOKE_KEY])
  return parsed.success ? parsed.data : undefined
}

/** How an attempt ended: done (`revoked`, or the key is `gone` already), `offline` (retry), `failed` (give up). */
export type RevokeOutcome = 'revoked' | 'gone' | 'offline' | 'failed'

/** Delete the session's API key, stamped by the session key; never throws. */
export async function revokeApiKey(
  opts: { apiBaseUrl: string; stamper: Stamper; fetch?: typeof globalThis.fetch; timeoutMs?: number },
  p: PendingRevocation,
): Promise<RevokeOutcome> {
  const base = opts.fetch ?? ((input, init) => globalThis.fetch(input, init))
  const ms = opts.timeoutMs ?? REVOKE_TIMEOUT_MS
  const timed: typeof globalThis.fetch = (input, init) => base(input, { ...init, signal: AbortSignal.timeout(ms) })
  const client = createClient({ baseUrl: opts.apiBaseUrl, stamper: opts.stamper, fetch: timed })
  try {
    let apiKeyId = p.apiKeyId
    if (apiKeyId === undefined) {
      const { user } = await client.getUser({ organizationId: p.organizationId, userId: p.userId })
      apiKeyId = user.apiKeys.find((k) => k.credential.publicKey.toLowerCase() === p.publicKeyHex)?.apiKeyId
      if (apiKeyId === undefined) return 'gone'
    }
    await client.deleteApiKeys({ organizationId: p.organizationId, userId: p.userId, apiKeyIds: [apiKeyId] })
    return 'revoked'
  } catch (err) {
    if (isSessionKeyRejected(err)) return 'gone'
    if (err instanceof SigilRequestError) return err.status >= 500 ? 'offline' : 'failed'
    if (err instanceof SigilError && err.code === 'NETWORK') return 'offline'
    return 'failed'
  }
}
