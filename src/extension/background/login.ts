/**
 * Finishing a login from a credential bundle (wire-formats B2): decrypt with the login's
 * ephemeral HPKE key, import the plaintext at once as a non-extractable P-256 signing key,
 * zero the raw bytes, then read the user and the key's expiry and start the session.
 */
import { decryptCredentialBundle } from '../../crypto/credentialBundle'
import { createWebCryptoStamper, importP256PrivateKeyForSigning } from '../../crypto/stamp'
import type { Core } from './core'
import { ExtensionError } from './failures'
import type { LoginMethod, SessionRecord } from './sessionRecord'

/** Session length assumed when the service does not report the key's expiry (upstream default). */
export const FALLBACK_SESSION_SECONDS = 900

/** Session length requested from create_read_write_session. */
export const SESSION_SECONDS = 3600

/** Crypto steps, injectable so tests can observe the raw bytes being dropped. */
export type BundleCrypto = {
  decrypt: typeof decryptCredentialBundle
  importKey: typeof importP256PrivateKeyForSigning
}

const defaultCrypto: BundleCrypto = { decrypt: decryptCredentialBundle, importKey: importP256PrivateKeyForSigning }

/** For a session key: imported extractable only so the sealed key store can wrap it (issue 22). */
const sessionCrypto: BundleCrypto = { decrypt: decryptCredentialBundle, importKey: (raw) => importP256PrivateKeyForSigning(raw, true) }

/**
 * Decrypt `bundle` with `target` and import the key; the plaintext is zeroed before returning,
 * whatever happens. Throws BUNDLE_INVALID when the bundle does not decrypt to a P-256 key.
 */
export async function importBundleKey(
  bundle: string,
  target: CryptoKeyPair,
  crypto: BundleCrypto = defaultCrypto,
): Promise<{ privateKey: CryptoKey; publicKeyHex: string }> {
  const opened = await crypto.decrypt({ bundle, privateKey: target })
  if (!opened.ok) throw new ExtensionError('BUNDLE_INVALID', 'The credential bundle could not be decrypted.')
  try {
    if (opened.plaintext.length !== 32) throw new ExtensionError('BUNDLE_INVALID', 'The credential bundle does not hold a key.')
    return await crypto.importKey(opened.plaintext)
  } catch (err) {
    if (err instanceof ExtensionError) throw err
    throw new ExtensionError('BUNDLE_INVALID', 'The credential bundle does not hold a valid key.')
  } finally {
    opened.plaintext.fill(0)
  }
}

function toMs(ts: { seconds: string; nanos: string }): number {
  return Number(ts.seconds) * 1000 + Math.floor(Number(ts.nanos) / 1e6)
}

/**
 * Decrypt, import, look the user up (username, key expiry, the key's apiKeyId for revoking it)
 * and start the session; the core seals the key and keeps only a non-extractable copy.
 */
export async function completeLogin(
  core: Core,
  opts: { bundle: string; target: CryptoKeyPair; organizationId: string; userId: string; method: LoginMethod; username?: string },
  crypto: BundleCrypto = sessionCrypto,
): Promise<SessionRecord> {
  const key = await importBundleKey(opts.bundle, opts.target, crypto)
  const client = await core.api(createWebCryptoStamper(key))
  const { user } = await client.getUser({ organizationId: opts.organizationId, userId: opts.userId })
  const apiKey = user.apiKeys.find((k) => k.credential.publicKey.toLowerCase() === key.publicKeyHex)
  const seconds = Number(apiKey?.expirationSeconds ?? FALLBACK_SESSION_SECONDS)
  const start = apiKey ? toMs(apiKey.createdAt) : core.now()
  const expiresAt = start + (Number.isFinite(seconds) && seconds > 0 ? seconds : FALLBACK_SESSION_SECONDS) * 1000
  return core.startSession(
    {
      organizationId: opts.organizationId,
      userId: opts.userId,
      username: user.userName || opts.username || '',
      publicKeyHex: key.publicKeyHex,
      ...(apiKey ? { apiKeyId: apiKey.apiKeyId } : {}),
      method: opts.method,
      expiresAt,
    },
    key.privateKey,
  )
}
