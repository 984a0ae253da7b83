/**
 * Webhook signatures, the hosted service's scheme (wire-formats B9, `@turnkey/crypto`
 * `verifyTurnkeyWebhookSignature`): Ed25519 over `v1.ed25519.<keyId>.<timestampMs>.<eventId>.` followed
 * by the exact body bytes. One service-wide signing key, made on first start and kept sealed under
 * the master key (`webhook_signing_keys`, migration 016), so every instance sharing the database
 * signs with it; receivers find its public half at GET /public/v1/discovery/webhooks/jwks.
 */
import { createPrivateKey, createPublicKey, sign as nodeSign } from 'node:crypto'
import { sha256 } from '@noble/hashes/sha2.js'
import { base64UrlDecode, base64UrlEncode, bytesToHex, concatBytes, utf8Encode } from '../../crypto/encoding.js'
import type { WebhookJwk, WebhookSigner } from '../runtime.js'
import type { Database } from '../store/sql.js'
import type { SecretBox } from '../store/secrets.js'
import { insertWebhookSigningKeyIfNone, listWebhookSigningKeys } from '../store/webhooks.js'

/** Where receivers fetch the verification keys (no authentication, like the hosted service's). */
export const WEBHOOK_JWKS_PATH = '/public/v1/discovery/webhooks/jwks'
export const SIGNATURE_VERSION: WebhookJwk['turnkey_signature_version'] = 'v1'
export const SIGNATURE_ALGORITHM: WebhookJwk['turnkey_signature_algorithm'] = 'ed25519'
const PURPOSE = 'webhook-signing-key'

/** The bytes a signature covers (the same construction as `@turnkey/crypto` `buildSignedInput`). */
export function signedInput(keyId: string, timestampMs: string, eventId: string, body: Uint8Array): Uint8Array {
  return concatBytes(utf8Encode(`${SIGNATURE_VERSION}.${SIGNATURE_ALGORITHM}.${keyId}.${timestampMs}.${eventId}.`), body)
}

/** PKCS#8 DER prefix of an Ed25519 private key (RFC 8410), followed by the 32-byte seed. */
const ED25519_PKCS8_PREFIX = Uint8Array.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
])

/** The key id of an Ed25519 public key: `sigil-webhook-` and the first 16 hex digits of its SHA-256. */
export function webhookKeyId(publicKey: Uint8Array): string {
  return `sigil-webhook-${bytesToHex(sha256(publicKey)).slice(0, 16)}`
}

/**
 * A signer over `privateKey` (32-byte Ed25519 seed). The key id is derived from the public key.
 * Signing runs in node:crypto (one signature per delivery attempt: noble's pure-JS Ed25519 costs
 * about a millisecond each, OpenSSL's a few microseconds; both give the same RFC 8032 signature).
 */
export function webhookSigner(privateKey: Uint8Array): WebhookSigner {
  const key = ed25519KeyObject(privateKey)
  const publicKey = ed25519PublicKey(key)
  const keyId = webhookKeyId(publicKey)
  const jwk: WebhookJwk = {
    kid: keyId,
    kty: 'OKP',
    crv: 'Ed25519',
    alg: 'EdDSA',
    use: 'sig',
    x: base64UrlEncode(publicKey),
    turnkey_signature_algorithm: SIGNATURE_ALGORITHM,
    turnkey_signature_version: SIGNATURE_VERSION,
  }
  return {
    keyId,
    publicKeyHex: bytesToHex(publicKey),
    sign: ({ timestampMs, eventId, body }) => bytesToHex(nodeSign(null, signedInput(keyId, timestampMs, eventId, body), key)),
    jwks: () => ({ keys: [jwk] }),
  }
}

/** The node:crypto key of a 32-byte Ed25519 seed. */
function ed25519KeyObject(seed: Uint8Array) {
  return createPrivateKey({ key: Buffer.from(concatBytes(ED25519_PKCS8_PREFIX, seed)), format: 'der', type: 'pkcs8' })
}

/** Its 32-byte public key, computed by OpenSSL (noble's first Ed25519 key builds tables: ≈ 40 ms at start). */
function ed25519PublicKey(key: ReturnType<typeof createPrivateKey>): Uint8Array {
  return base64UrlDecode(createPublicKey(key).export({ format: 'jwk' }).x as string)
}

/** Loads the webhook signing key, making it on first start (the first instance to write wins). */
export async function loadWebhookSigner(db: Database, box: SecretBox): Promise<WebhookSigner> {
  let [row] = await listWebhookSigningKeys(db)
  if (!row) {
    const fresh = crypto.getRandomValues(new Uint8Array(32))
    const publicKey = ed25519PublicKey(ed25519KeyObject(fresh))
    await insertWebhookSigningKeyIfNone(db, {
      keyId: webhookKeyId(publicKey),
      publicKey: bytesToHex(publicKey),
      privateKeyEnc: box.seal(fresh, PURPOSE),
      createdAt: Date.now(),
    })
    fresh.fill(0)
    ;[row] = await listWebhookSigningKeys(db)
    if (!row) throw new Error('webhook signing key missing')
  }
  return webhookSigner(box.open(row.private_key_enc, PURPOSE))
}
