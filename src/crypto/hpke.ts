/**
 * Turnkey-flavoured HPKE (wire-formats B2): RFC 9180 mode_base, DHKEM(P-256, HKDF-SHA256),
 * HKDF-SHA256, AES-256-GCM, info "turnkey_hpke", and the non-standard AAD
 * `enc(65 B) || receiverPub(65 B)`. The HPKE itself is hpke-js over WebCrypto.
 *
 * Platform note: a WebCrypto recipient key must be an ECDH P-256 key pair whose private key
 * has the `deriveBits` usage (see {@link createHpkeRecipientKeyPair}); ECDSA keys cannot do ECDH.
 */
import { p256 } from '@noble/curves/nist.js'
import { AeadId, CipherSuite, KdfId, KemId } from 'hpke-js'
import { SigilError } from '../api/errors.js'
import { bytesToHex, concatBytes, utf8Encode } from './encoding.js'

const INFO = utf8Encode('turnkey_hpke')

const suite = new CipherSuite({
  kem: KemId.DhkemP256HkdfSha256,
  kdf: KdfId.HkdfSha256,
  aead: AeadId.Aes256Gcm,
})

/** Why an HPKE operation failed; carried on {@link HpkeError}. */
export type HpkeFailure = 'HPKE_BAD_TARGET_KEY' | 'HPKE_BAD_ENCAPPED_KEY' | 'HPKE_BAD_RECIPIENT_KEY' | 'HPKE_DECRYPT_FAILED'

/** Typed HPKE failure (code BUNDLE_INVALID); `failure` says which step failed. Never carries key material. */
export class HpkeError extends SigilError {
  override name = 'HpkeError'
  readonly failure: HpkeFailure
  constructor(failure: HpkeFailure, message: string) {
    super('BUNDLE_INVALID', message)
    this.failure = failure
  }
}

function toUncompressed(pub: Uint8Array): Uint8Array | null {
  if (!(pub instanceof Uint8Array) || (pub.length !== 33 && pub.length !== 65)) return null
  try {
    return p256.Point.fromBytes(pub).toBytes(false)
  } catch {
    return null
  }
}

function ab(bytes: Uint8Array): ArrayBuffer {
  return bytes.slice().buffer as ArrayBuffer
}

/** HPKE-encrypt to a P-256 key (33 or 65 B, normalised to 65 B for AAD and kem_context) (B2). */
export async function hpkeEncrypt(opts: {
  plaintext: Uint8Array
  targetPublicKey: Uint8Array
}): Promise<{ encappedPublic: Uint8Array; ciphertext: Uint8Array }> {
  const target = toUncompressed(opts.targetPublicKey)
  if (!target) throw new HpkeError('HPKE_BAD_TARGET_KEY', 'target public key is not a P-256 point')
  const recipientPublicKey = await suite.kem.deserializePublicKey(ab(target))
  const sender = await suite.createSenderContext({ recipientPublicKey, info: INFO })
  const encappedPublic = new Uint8Array(sender.enc)
  const ciphertext = new Uint8Array(await sender.seal(ab(opts.plaintext), ab(concatBytes(encappedPublic, target))))
  return { encappedPublic, ciphertext }
}

async function recipientFromRaw(priv: Uint8Array): Promise<{ keyPair: CryptoKeyPair; publicKey: Uint8Array }> {
  if (priv.length !== 32 || !p256.utils.isValidSecretKey(priv)) {
    throw new HpkeError('HPKE_BAD_RECIPIENT_KEY', 'recipient private key is not a valid P-256 scalar')
  }
  const publicKey = p256.getPublicKey(priv, false)
  const keyPair: CryptoKeyPair = {
    privateKey: await suite.kem.deserializePrivateKey(ab(priv)),
    publicKey: await suite.kem.deserializePublicKey(ab(publicKey)),
  }
  return { keyPair, publicKey }
}

async function recipientFromCryptoKeyPair(kp: CryptoKeyPair): Promise<{ keyPair: CryptoKeyPair; publicKey: Uint8Array }> {
  try {
    const publicKey = new Uint8Array(await globalThis.crypto.subtle.exportKey('raw', kp.publicKey))
    if (publicKey.length !== 65) throw new Error('length')
    return { keyPair: kp, publicKey }
  } catch {
    throw new HpkeError('HPKE_BAD_RECIPIENT_KEY', 'recipient key pair is not a P-256 key pair')
  }
}

/**
 * HPKE-decrypt with a raw 32-byte scalar or a WebCrypto ECDH P-256 key pair (B2).
 * Throws {@link HpkeError} naming the failed step.
 */
export async function hpkeDecrypt(opts: {
  encappedPublic: Uint8Array
  ciphertext: Uint8Array
  privateKey: Uint8Array | CryptoKeyPair
}): Promise<Uint8Array> {
  const enc = toUncompressed(opts.encappedPublic)
  if (!enc) throw new HpkeError('HPKE_BAD_ENCAPPED_KEY', 'encapsulated key is not a P-256 point')
  const recipient =
    opts.privateKey instanceof Uint8Array ? await recipientFromRaw(opts.privateKey) : await recipientFromCryptoKeyPair(opts.privateKey)
  try {
    const ctx = await suite.createRecipientContext({ recipientKey: recipient.keyPair, enc: ab(enc), info: INFO })
    return new Uint8Array(await ctx.open(ab(opts.ciphertext), ab(concatBytes(enc, recipient.publicKey))))
  } catch {
    throw new HpkeError('HPKE_DECRYPT_FAILED', 'HPKE decryption failed')
  }
}

/**
 * A WebCrypto recipient key pair for {@link hpkeDecrypt}: ECDH P-256, private key
 * non-extractable (unless `extractable`, for sealing it: sealedKeyStore.ts) with usage `deriveBits`; send `publicKeyUncompressedHex` as targetPublicKey (B2).
 */
export async function createHpkeRecipientKeyPair(
  extractable = false,
): Promise<{ keyPair: CryptoKeyPair; publicKeyUncompressedHex: string }> {
  const keyPair = await globalThis.crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, extractable, ['deriveBits'])
  const raw = new Uint8Array(await globalThis.crypto.subtle.exportKey('raw', keyPair.publicKey))
  return { keyPair, publicKeyUncompressedHex: bytesToHex(raw) }
}
