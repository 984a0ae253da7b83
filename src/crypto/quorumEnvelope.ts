/**
 * The "encrypt to a quorum key" envelope of the hosted service's enclaves (QOS `qos_p256` encrypt,
 * made by @turnkey/crypto `encryptToEnclave` / `encryptOauth2ClientSecret`): Borsh
 * `{ nonce: [u8; 12], ephemeralSenderPublic: [u8; 65], encryptedMessage: Vec<u8> }`, usually hex.
 * Key: the first 32 bytes of HMAC-SHA512(key = ephemeralPublic ‖ receiverPublic ‖ ECDH x, message =
 * "qos_encryption_hmac_message"); AES-256-GCM with AAD = ephemeralPublic ‖ 65 ‖ receiverPublic ‖ 65.
 */
import { p256 } from '@noble/curves/nist.js'
import { hmac } from '@noble/hashes/hmac.js'
import { sha512 } from '@noble/hashes/sha2.js'
import { concatBytes, utf8Encode } from './encoding.js'

const NONCE = 12
const PUBLIC = 65
const HMAC_MESSAGE = utf8Encode('qos_encryption_hmac_message')

/** Outcome of {@link decryptQuorumEnvelope}: expected failures are values. */
export type QuorumEnvelopeResult =
  | { ok: true; plaintext: Uint8Array }
  | { ok: false; reason: 'ENVELOPE_MALFORMED' | 'ENVELOPE_DECRYPT_FAILED' }

function cipherKey(ephemeral: Uint8Array, receiver: Uint8Array, shared: Uint8Array): Uint8Array {
  return hmac(sha512, concatBytes(ephemeral, receiver, shared), HMAC_MESSAGE).slice(0, 32)
}

const aad = (ephemeral: Uint8Array, receiver: Uint8Array) => concatBytes(ephemeral, Uint8Array.of(PUBLIC), receiver, Uint8Array.of(PUBLIC))

async function aesGcm(mode: 'encrypt' | 'decrypt', key: Uint8Array, iv: Uint8Array, additionalData: Uint8Array, data: Uint8Array) {
  const k = await crypto.subtle.importKey('raw', key as Uint8Array<ArrayBuffer>, { name: 'AES-GCM' }, false, [mode])
  const alg = {
    name: 'AES-GCM',
    iv: iv as Uint8Array<ArrayBuffer>,
    additionalData: additionalData as Uint8Array<ArrayBuffer>,
    tagLength: 128,
  }
  return new Uint8Array(await crypto.subtle[mode](alg, k, data as Uint8Array<ArrayBuffer>))
}

/** Decrypts an envelope (bytes) with the receiver's P-256 private key; never throws on bad input. */
export async function decryptQuorumEnvelope(envelope: Uint8Array, privateKey: Uint8Array): Promise<QuorumEnvelopeResult> {
  if (envelope.length < NONCE + PUBLIC + 4 + 16) return { ok: false, reason: 'ENVELOPE_MALFORMED' }
  const nonce = envelope.subarray(0, NONCE)
  const ephemeral = envelope.subarray(NONCE, NONCE + PUBLIC)
  const view = new DataView(envelope.buffer, envelope.byteOffset + NONCE + PUBLIC, 4)
  const ciphertext = envelope.subarray(NONCE + PUBLIC + 4)
  if (view.getUint32(0, true) !== ciphertext.length) return { ok: false, reason: 'ENVELOPE_MALFORMED' }
  let shared: Uint8Array
  try {
    shared = p256.getSharedSecret(privateKey, ephemeral, false).slice(1, 33)
  } catch {
    return { ok: false, reason: 'ENVELOPE_MALFORMED' }
  }
  const receiver = p256.getPublicKey(privateKey, false)
  const key = cipherKey(ephemeral, receiver, shared)
  try {
    return { ok: true, plaintext: await aesGcm('decrypt', key, nonce, aad(ephemeral, receiver), ciphertext) }
  } catch {
    return { ok: false, reason: 'ENVELOPE_DECRYPT_FAILED' }
  } finally {
    key.fill(0)
    shared.fill(0)
  }
}

/** Encrypts `plaintext` to an uncompressed P-256 public key (tests, tools; the same envelope the hosted clients make). */
export async function encryptQuorumEnvelope(plaintext: Uint8Array, receiverPublic: Uint8Array): Promise<Uint8Array> {
  const receiver = p256.Point.fromBytes(receiverPublic).toBytes(false)
  const eph = p256.utils.randomSecretKey()
  const ephemeral = p256.getPublicKey(eph, false)
  const shared = p256.getSharedSecret(eph, receiver, false).slice(1, 33)
  const nonce = crypto.getRandomValues(new Uint8Array(NONCE))
  const ct = await aesGcm('encrypt', cipherKey(ephemeral, receiver, shared), nonce, aad(ephemeral, receiver), plaintext)
  const len = new Uint8Array(4)
  new DataView(len.buffer).setUint32(0, ct.length, true)
  return concatBytes(nonce, ephemeral, len, ct)
}
