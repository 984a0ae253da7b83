/**
 * Logins where the extension makes the session key itself (session keys never travel): a fresh
 * P-256 key pair is generated here, only its public key is sent, the
 * service answers with a session JWT for it (otp_login v2, stamp_login), and the JWT is
 * checked against the pinned service's notarizer key before the session starts. No
 * credential bundle, so a relay or proxy in the middle never holds a key that logs in.
 */
import { verifySessionJwt } from '../../../crypto/jwt'
import { createP256WebCryptoKeyPair, createWebCryptoStamper } from '../../../crypto/stamp'
import type { Core } from '../core'
import { ExtensionError } from '../failures'
import type { KeySlot } from '../session/keyStore'
import { CredentialId, writeLastLogin } from './lastLogin'
import type { VerifiedService } from '../service/trust'
import type { LoginMethod, SessionRecord } from '../session/sessionRecord'

/** A session key being logged in: extractable only so the sealed key store can wrap it once. */
export type NewSessionKey = { privateKey: CryptoKey; publicKeyHex: string }

/** A fresh session key pair. */
export async function createSessionKey(): Promise<NewSessionKey> {
  const { keyPair, publicKeyHex } = await createP256WebCryptoKeyPair(true)
  return { privateKey: keyPair.privateKey, publicKeyHex }
}

/** Check a session JWT: signed by the pinned service's notarizer, unexpired, for `publicKeyHex`. */
export function checkSessionJwt(
  jwt: string,
  service: VerifiedService,
  publicKeyHex: string,
  now: number,
): { organizationId: string; userId: string; expiresAt: number } {
  const v = verifySessionJwt(jwt, service.keys.notarizer, { nowMs: now })
  if (!v.ok) {
    throw new ExtensionError('SERVICE_UNVERIFIED', 'The session the service sent is not signed by the service this wallet is connected to.')
  }
  if (v.claims.public_key.toLowerCase() !== publicKeyHex.toLowerCase()) {
    throw new ExtensionError('SERVICE_UNVERIFIED', 'The session the service sent is for another key.')
  }
  return { organizationId: v.claims.organization_id, userId: v.claims.user_id, expiresAt: v.claims.exp * 1000 }
}

/**
 * Check `jwt`, look the user up with the new key (name, the key's id for revoking it) and
 * start the session; the core seals the key and keeps only a non-extractable copy.
 */
export async function startJwtSession(
  core: Core,
  opts: { jwt: string; key: NewSessionKey; method: LoginMethod; username?: string; sealedSlot?: KeySlot; credentialId?: string },
): Promise<SessionRecord> {
  const service = await core.service()
  const claims = checkSessionJwt(opts.jwt, service, opts.key.publicKeyHex, core.now())
  const client = await core.api(createWebCryptoStamper(opts.key))
  const { user } = await client.getUser({ organizationId: claims.organizationId, userId: claims.userId })
  const apiKey = user.apiKeys.find((k) => k.credential.publicKey.toLowerCase() === opts.key.publicKeyHex)
  const record = await core.startSession(
    {
      organizationId: claims.organizationId,
      userId: claims.userId,
      username: user.userName || opts.username || '',
      publicKeyHex: opts.key.publicKeyHex,
      ...(apiKey ? { apiKeyId: apiKey.apiKeyId } : {}),
      method: opts.method,
      expiresAt: claims.expiresAt,
    },
    opts.sealedSlot ? { sealedSlot: opts.sealedSlot } : opts.key.privateKey,
  )
  // The way back in after a lock (lastLogin.ts): non-secret, so a failure to store it is harmless.
  const email = user.userEmail || (opts.method === 'email' ? opts.username : undefined)
  await writeLastLogin(core.deps.local, {
    method: opts.method,
    ...(email ? { email } : {}),
    hasPasskey: user.authenticators.length > 0 || opts.method === 'passkey',
    ...(opts.credentialId ? { credentialId: opts.credentialId } : {}),
    ...(!opts.credentialId && user.authenticators.length > 0
      ? {
          credentialIds: user.authenticators
            .map((a) => a.credentialId)
            .filter((id) => CredentialId.safeParse(id).success)
            .slice(0, 10),
        }
      : {}),
  }).catch(() => undefined)
  return record
}
