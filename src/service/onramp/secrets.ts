/**
 * On-ramp provider secrets arrive HPKE-encrypted to the service's on-ramp key
 * (wire-formats B2). Accepted forms: the `{encappedPublic, ciphertext}` JSON envelope, the
 * hex of that JSON, and the bs58check bundle that @turnkey/crypto `encryptOnRampSecret` makes.
 */
import { fieldError } from '../../api/errors.js'
import { decryptCredentialBundle } from '../../crypto/credentialBundle.js'
import { hexToBytes, utf8Decode } from '../../crypto/encoding.js'
import { decryptEnvelope } from '../../crypto/signedBundle.js'

async function tryDecrypt(value: string, privateKey: Uint8Array): Promise<Uint8Array | undefined> {
  const text = value.trim()
  if (text.startsWith('{')) {
    const r = await decryptEnvelope({ envelope: text, privateKey })
    return r.ok ? r.plaintext : undefined
  }
  if (/^(?:[0-9a-fA-F]{2})+$/.test(text)) {
    const json = utf8Decode(hexToBytes(text))
    if (json.startsWith('{')) {
      const r = await decryptEnvelope({ envelope: json, privateKey })
      return r.ok ? r.plaintext : undefined
    }
  }
  const r = await decryptCredentialBundle({ bundle: text, privateKey })
  return r.ok ? r.plaintext : undefined
}

/**
 * Decrypts one encrypted secret parameter; refuses with BUNDLE_INVALID naming `field`
 * (never echoing the value). The caller zeroes the returned bytes when done.
 */
export async function decryptOnRampSecret(value: string, privateKey: Uint8Array, field: string): Promise<Uint8Array> {
  let plaintext: Uint8Array | undefined
  try {
    plaintext = await tryDecrypt(value, privateKey)
  } catch {
    plaintext = undefined
  }
  if (!plaintext || plaintext.length === 0) {
    const description = 'must be encrypted to the service on-ramp encryption public key (GET /healthz onRampEncryptionPublicKey)'
    throw fieldError('BUNDLE_INVALID', field, description)
  }
  return plaintext
}
