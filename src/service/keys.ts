import { createECDH } from 'node:crypto'
import { p256 } from '@noble/curves/nist.js'
import { bytesToHex, hexToBytes } from '../crypto/encoding.js'
import type { Database } from './store/sql.js'
import type { SecretBox } from './store/secrets.js'
import { insertServiceKeyIfAbsent, listServiceKeys } from './store/serviceKeys.js'

/**
 * The service's own P-256 keys, made on first start and kept encrypted in the database
 * so that every instance sharing it signs with the same keys.
 * - signer: import/export/target bundles (wire-formats B2, "enclaveQuorumPublic")
 * - session: session JWTs (B3, the notarizer)
 * - verifier: OTP verification tokens (B3, the TLS fetcher)
 * - appProof: app proofs of activities
 * - onramp: HPKE target for on-ramp provider secrets
 * - otpTarget: HPKE target for encrypted OTP bundles (verify_otp V2)
 */
export const SERVICE_KEY_NAMES = ['signer', 'session', 'verifier', 'appProof', 'onramp', 'otpTarget'] as const
export type ServiceKeyName = (typeof SERVICE_KEY_NAMES)[number]
export type ServiceKey = { privateKey: Uint8Array; publicKey: Uint8Array; publicKeyHex: string }
export type ServiceKeys = Record<ServiceKeyName, ServiceKey>

/** The uncompressed public key of a P-256 private key, computed by OpenSSL (no curve tables built at start). */
function publicKeyOf(privateKey: Uint8Array): Uint8Array {
  const ecdh = createECDH('prime256v1')
  ecdh.setPrivateKey(privateKey)
  return new Uint8Array(ecdh.getPublicKey())
}

/**
 * Load (making the missing ones on first start) every service key; `identityKeyHex` replaces the
 * stored `verifier` key, the identity key clients pin, so a deployment can pin a known key.
 * One read when they exist; when some are missing they are inserted (the first writer wins when
 * several instances start at once) and read again.
 */
export async function loadServiceKeys(db: Database, box: SecretBox, identityKeyHex?: string): Promise<ServiceKeys> {
  let rows = await listServiceKeys(db)
  const missing = SERVICE_KEY_NAMES.filter((name) => !rows.some((r) => r.name === name))
  if (missing.length > 0) {
    for (const name of missing) {
      const fresh = p256.utils.randomSecretKey()
      await insertServiceKeyIfAbsent(db, {
        name,
        publicKey: bytesToHex(publicKeyOf(fresh)),
        privateKeyEnc: box.seal(fresh, `service-key:${name}`),
        createdAt: Date.now(),
      })
      fresh.fill(0)
    }
    rows = await listServiceKeys(db)
  }
  const out = {} as ServiceKeys
  for (const name of SERVICE_KEY_NAMES) {
    const row = rows.find((r) => r.name === name)
    if (!row) throw new Error(`service key ${name} missing`)
    let privateKey: Uint8Array
    try {
      privateKey = box.open(row.private_key_enc, `service-key:${name}`)
    } catch {
      throw new Error(
        'the database was initialised with another master key: every instance sharing a database needs the same SIGIL_MASTER_KEY',
      )
    }
    const publicKey = publicKeyOf(privateKey)
    out[name] = { privateKey, publicKey, publicKeyHex: bytesToHex(publicKey) }
  }
  if (identityKeyHex !== undefined) {
    const privateKey = hexToBytes(identityKeyHex, 'SIGIL_IDENTITY_KEY')
    const publicKey = publicKeyOf(privateKey)
    out.verifier = { privateKey, publicKey, publicKeyHex: bytesToHex(publicKey) }
  }
  return out
}
