/**
 * Renewing a session before it ends, the way the hosted SDKs refresh theirs: a fresh P-256
 * session key is made here, `stamp_login` stamped by a key the user's organization trusts (the
 * live session key, or this browser's device credential after a password unlock) registers its
 * public half for `sessionSeconds`, and the session JWT it answers is checked like a login's
 * (signed by the pinned service's notarizer, for this key, for the same user). Only the public
 * key travels; the new private key is extractable only until the sealed key store wraps it.
 */
import { createClient, type SigilClient } from '../../../api/client'
import type { Stamper } from '../../../api/stamper'
import { createWebCryptoStamper } from '../../../crypto/stamp'
import { ExtensionError } from '../failures'
import { checkSessionJwt, createSessionKey, type NewSessionKey } from '../login/sessionLogin'
import type { VerifiedService } from '../service/trust'

/** A session key the service accepted: the key, its id at the service and its end. */
export type IssuedSession = { key: NewSessionKey; apiKeyId: string | undefined; expiresAt: number; username: string }

/** When a session issued at `issuedAt` until `expiresAt` is renewed: at 2/3 of its life, or of `sessionSeconds` when shorter. */
export function renewAt(issuedAt: number, expiresAt: number, sessionSeconds: number): number {
  const life = Math.max(0, Math.min(expiresAt - issuedAt, sessionSeconds * 1000))
  return issuedAt + Math.floor((life * 2) / 3)
}

/** How close to its end a request renews the session first: a quarter of its life, at most a minute. */
export function renewMarginMs(issuedAt: number, expiresAt: number): number {
  return Math.min(60_000, Math.floor((expiresAt - issuedAt) / 4))
}

/**
 * Ask the service for a session of `sessionSeconds` for a fresh key, stamped by `stamper` (a key of
 * `organizationId`'s user `userId`); throws SERVICE_UNVERIFIED when the answer is not a session of that user.
 */
export async function issueSession(
  opts: { service: VerifiedService; stamper: Stamper; fetch?: typeof globalThis.fetch; now: () => number },
  who: { organizationId: string; userId?: string },
  sessionSeconds: number,
): Promise<IssuedSession> {
  const client: SigilClient = createClient({
    baseUrl: opts.service.apiBaseUrl,
    stamper: opts.stamper,
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  })
  const key = await createSessionKey()
  const res = await client.stampLogin({
    organizationId: who.organizationId,
    publicKey: key.publicKeyHex,
    expirationSeconds: String(sessionSeconds),
  })
  if (!('session' in res) || typeof res.session !== 'string')
    throw new ExtensionError('REQUEST_FAILED', 'The service did not open a session.')
  const claims = checkSessionJwt(res.session, opts.service, key.publicKeyHex, opts.now())
  if (claims.organizationId !== who.organizationId || (who.userId !== undefined && claims.userId !== who.userId))
    throw new ExtensionError('SERVICE_UNVERIFIED', 'The session the service sent is for another account.')
  const withNew = createClient({
    baseUrl: opts.service.apiBaseUrl,
    stamper: createWebCryptoStamper(key),
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  })
  const { user } = await withNew.getUser({ organizationId: claims.organizationId, userId: claims.userId })
  const apiKey = user.apiKeys.find((k) => k.credential.publicKey.toLowerCase() === key.publicKeyHex)
  return { key, apiKeyId: apiKey?.apiKeyId, expiresAt: claims.expiresAt, username: user.userName }
}
