/**
 * The OAuth 2.0 client secret arrives encrypted to the service (create/update_oauth2_credential
 * `encryptedClientSecret`), to its provider-secrets key (`GET /healthz` `onRampEncryptionPublicKey`,
 * the key on-ramp secrets are encrypted to). Accepted forms: the hex envelope @turnkey/crypto
 * `encryptOauth2ClientSecret(secret, key)` makes (src/crypto/quorumEnvelope.ts), and the HPKE forms
 * on-ramp secrets take (src/service/onramp/secrets.ts).
 */
import { fieldError } from '../../api/errors.js'
import { tryHexToBytes } from '../../crypto/encoding.js'
import { decryptQuorumEnvelope } from '../../crypto/quorumEnvelope.js'
import { decryptOnRampSecret } from '../onramp/secrets.js'

const FIELD = 'parameters.encryptedClientSecret'

/**
 * Decrypts the client secret; BUNDLE_INVALID naming the field (never echoing it) when it is not
 * encrypted to the service's key or is empty. The caller zeroes the bytes when done.
 */
export async function decryptClientSecret(value: string, privateKey: Uint8Array): Promise<Uint8Array> {
  const bytes = tryHexToBytes(value.trim())
  if (bytes && bytes[0] !== 0x7b /* '{': the hex of a JSON envelope */) {
    const r = await decryptQuorumEnvelope(bytes, privateKey)
    if (r.ok && r.plaintext.length > 0) return r.plaintext
    if (r.ok || r.reason === 'ENVELOPE_DECRYPT_FAILED') throw notForUs()
  }
  try {
    return await decryptOnRampSecret(value, privateKey, FIELD)
  } catch {
    throw notForUs()
  }
}

function notForUs() {
  return fieldError(
    'BUNDLE_INVALID',
    FIELD,
    'must be the client secret encrypted to the service (encryptOauth2ClientSecret to GET /healthz onRampEncryptionPublicKey, uncompressed)',
  )
}
