/**
 * Credential bundles (wire-formats B2): bs58check( enc33 || ciphertext||tag ), HPKE to the
 * client's target key; the plaintext is a raw 32-byte P-256 API-key scalar.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { base58, createBase58check } from '@scure/base'
import { concatBytes, hexToBytes } from './encoding.js'
import { HpkeError, hpkeDecrypt, hpkeEncrypt } from './hpke.js'
import { compressP256PublicKey } from './p256.js'

const bs58check = createBase58check(sha256)

/** Outcome of {@link decryptCredentialBundle}; each failure has its own reason. */
export type BundleResult =
  | { ok: true; plaintext: Uint8Array }
  | {
      ok: false
      reason: 'BUNDLE_NOT_BASE58' | 'BUNDLE_BAD_CHECKSUM' | 'BUNDLE_TOO_SHORT' | 'BUNDLE_BAD_ENCAPPED_KEY' | 'BUNDLE_DECRYPT_FAILED'
    }

/** Encrypt `plaintext` to a P-256 target (33/65 B hex) as a bs58check credential bundle (B2). */
export async function encryptCredentialBundle(opts: { plaintext: Uint8Array; targetPublicKeyHex: string }): Promise<string> {
  const target = hexToBytes(opts.targetPublicKeyHex, 'targetPublicKey')
  const { encappedPublic, ciphertext } = await hpkeEncrypt({ plaintext: opts.plaintext, targetPublicKey: target })
  return bs58check.encode(concatBytes(compressP256PublicKey(encappedPublic), ciphertext))
}

/** Decrypt a credential bundle with a raw scalar or an ECDH CryptoKeyPair (B2); never throws on bad input. */
export async function decryptCredentialBundle(opts: { bundle: string; privateKey: Uint8Array | CryptoKeyPair }): Promise<BundleResult> {
  let raw: Uint8Array
  try {
    raw = base58.decode(opts.bundle.trim())
  } catch {
    return { ok: false, reason: 'BUNDLE_NOT_BASE58' }
  }
  if (raw.length < 4) return { ok: false, reason: 'BUNDLE_TOO_SHORT' }
  let payload: Uint8Array
  try {
    payload = bs58check.decode(opts.bundle.trim())
  } catch {
    return { ok: false, reason: 'BUNDLE_BAD_CHECKSUM' }
  }
  // 33-byte encapsulated key plus at least a 16-byte GCM tag.
  if (payload.length < 33 + 16) return { ok: false, reason: 'BUNDLE_TOO_SHORT' }
  try {
    const plaintext = await hpkeDecrypt({
      encappedPublic: payload.subarray(0, 33),
      ciphertext: payload.subarray(33),
      privateKey: opts.privateKey,
    })
    return { ok: true, plaintext }
  } catch (e) {
    if (e instanceof HpkeError && e.failure === 'HPKE_BAD_ENCAPPED_KEY') return { ok: false, reason: 'BUNDLE_BAD_ENCAPPED_KEY' }
    if (e instanceof HpkeError && e.failure === 'HPKE_BAD_RECIPIENT_KEY') throw e
    return { ok: false, reason: 'BUNDLE_DECRYPT_FAILED' }
  }
}
