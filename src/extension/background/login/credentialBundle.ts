/**
 * Opening a credential bundle (wire-formats B2) where one is still received: the email
 * recovery code (recovery.ts). Decrypt with the flow's ephemeral HPKE key, import the
 * plaintext at once as a non-extractable P-256 signing key, zero the raw bytes. Logins no
 * longer use bundles (sessionLogin.ts makes the key here).
 */
import { decryptCredentialBundle } from '../../../crypto/credentialBundle'
import { importP256PrivateKeyForSigning } from '../../../crypto/stamp'
import { ExtensionError } from '../failures'

/** Crypto steps, injectable so tests can observe the raw bytes being dropped. */
export type BundleCrypto = {
  decrypt: typeof decryptCredentialBundle
  importKey: typeof importP256PrivateKeyForSigning
}

const defaultCrypto: BundleCrypto = { decrypt: decryptCredentialBundle, importKey: importP256PrivateKeyForSigning }

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
