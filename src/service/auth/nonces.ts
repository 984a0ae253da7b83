import { invalidField } from '../../api/errors.js'
import { bytesToHex, hexToBytes } from '../../crypto/encoding.js'
import { oidcNonce } from '../../crypto/oidcNonce.js'
import { compressP256PublicKey, uncompressP256PublicKey } from '../../crypto/p256.js'

/**
 * The nonces that bind an OIDC ID token to `publicKeyHex`: sha256 of the key as sent, and of its
 * compressed and uncompressed spellings (one key, whichever form the client hashed). oauth,
 * oauth_login and stamp_login's OIDC attestation accept a token only with one of them.
 *
 * @throws INVALID_ARGUMENT naming `field` when it is not a hex P-256 public key
 */
export function acceptedNonces(publicKeyHex: string, field: string): string[] {
  let bytes: Uint8Array
  try {
    bytes = hexToBytes(publicKeyHex, field)
  } catch {
    throw invalidField(field, 'must be a hex P-256 public key')
  }
  const forms = new Set([publicKeyHex, bytesToHex(compressP256PublicKey(bytes, field)), bytesToHex(uncompressP256PublicKey(bytes, field))])
  return [...forms].map(oidcNonce)
}
