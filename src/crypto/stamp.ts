/**
 * `X-Stamp` API-key stampers and the stamp header codec (wire-formats B1.1).
 *
 * Header value = base64url_nopad(JSON.stringify({publicKey, scheme, signature})), key order fixed.
 * Raw-key signing is noble RFC 6979 (byte-identical to @turnkey/api-key-stamper purejs, which
 * does not low-S normalise); WebCrypto signing is random-k P1363 converted to DER by noble.
 */
import { p256 } from '@noble/curves/nist.js'
import { invalidField } from '../api/errors.js'
import type { Stamp, Stamper } from '../api/stamper.js'
import { base64UrlDecode, base64UrlEncode, bytesToHex, hexToBytes, utf8Decode, utf8Encode } from './encoding.js'
import { p256PublicKeyFromPrivate } from './p256.js'

/** The P-256 API-key scheme string (B1.1). */
export const P256_STAMP_SCHEME = 'SIGNATURE_SCHEME_TK_API_P256'

/** Decoded `X-Stamp` JSON (B1.1, B1.3). */
export type ApiKeyStampJson = { publicKey: string; scheme: string; signature: string }

/** Encode the `X-Stamp` header value with the exact key order {publicKey, scheme, signature} (B1.1). */
export function encodeStampHeader(stamp: ApiKeyStampJson): string {
  const json = JSON.stringify({ publicKey: stamp.publicKey, scheme: stamp.scheme, signature: stamp.signature })
  return base64UrlEncode(utf8Encode(json))
}

/** Decode an `X-Stamp` header value into its three string fields (B1.1); never throws. */
export function decodeStampHeader(value: string): { ok: true; stamp: ApiKeyStampJson } | { ok: false; reason: 'STAMP_MALFORMED' } {
  try {
    if (typeof value !== 'string' || value.length === 0 || value.length > 8192) throw new Error('size')
    const parsed: unknown = JSON.parse(utf8Decode(base64UrlDecode(value.trim())))
    if (typeof parsed !== 'object' || parsed === null) throw new Error('shape')
    const { publicKey, scheme, signature } = parsed as Record<string, unknown>
    if (typeof publicKey !== 'string' || typeof scheme !== 'string' || typeof signature !== 'string') {
      throw new Error('fields')
    }
    return { ok: true, stamp: { publicKey, scheme, signature } }
  } catch {
    return { ok: false, reason: 'STAMP_MALFORMED' }
  }
}

/** DER-encode a 64-byte IEEE-P1363 (r||s) ECDSA signature without changing S (B1.1 webcrypto). */
export function p1363ToDer(raw: Uint8Array): Uint8Array {
  if (raw.length !== 64) throw invalidField('signature', 'must be 64 bytes r||s')
  return p256.Signature.fromBytes(raw, 'compact').toBytes('der')
}

/** Stamper over a raw P-256 scalar: deterministic RFC 6979, DER hex, compressed key (B1.1 purejs). */
export function createApiKeyStamper(opts: { privateKeyHex: string; publicKeyHex?: string }): Stamper & { publicKeyHex: string } {
  const privateKey = hexToBytes(opts.privateKeyHex, 'privateKeyHex')
  const compressed = bytesToHex(p256PublicKeyFromPrivate(privateKey, true))
  let publicKeyHex = compressed
  if (opts.publicKeyHex !== undefined) {
    const given = opts.publicKeyHex.toLowerCase()
    const uncompressed = bytesToHex(p256PublicKeyFromPrivate(privateKey, false))
    if (given !== compressed && given !== uncompressed) {
      throw invalidField('publicKeyHex', 'does not match the private key')
    }
    publicKeyHex = given
  }
  return {
    publicKeyHex,
    async stamp(body: string): Promise<Stamp> {
      const sig = p256.sign(utf8Encode(body), privateKey, { prehash: true, lowS: false, format: 'der' })
      return {
        stampHeaderName: 'X-Stamp',
        stampHeaderValue: encodeStampHeader({ publicKey: publicKeyHex, scheme: P256_STAMP_SCHEME, signature: bytesToHex(sig) }),
      }
    },
  }
}

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle
  if (!s) throw new Error('WebCrypto subtle is not available in this runtime')
  return s
}

/** Stamper over a WebCrypto ECDSA P-256 private key (may be non-extractable) (B1.1 webcrypto). */
export function createWebCryptoStamper(opts: { privateKey: CryptoKey; publicKeyHex: string }): Stamper & { publicKeyHex: string } {
  const publicKeyHex = opts.publicKeyHex.toLowerCase()
  hexToBytes(publicKeyHex, 'publicKeyHex')
  return {
    publicKeyHex,
    async stamp(body: string): Promise<Stamp> {
      const raw = new Uint8Array(
        await subtle().sign({ name: 'ECDSA', hash: 'SHA-256' }, opts.privateKey, utf8Encode(body) as Uint8Array<ArrayBuffer>),
      )
      return {
        stampHeaderName: 'X-Stamp',
        stampHeaderValue: encodeStampHeader({
          publicKey: publicKeyHex,
          scheme: P256_STAMP_SCHEME,
          signature: bytesToHex(p1363ToDer(raw)),
        }),
      }
    },
  }
}

async function exportPublicKeyHexes(publicKey: CryptoKey): Promise<{ publicKeyHex: string; publicKeyUncompressedHex: string }> {
  const raw = new Uint8Array(await subtle().exportKey('raw', publicKey))
  return {
    publicKeyHex: bytesToHex(p256.Point.fromBytes(raw).toBytes(true)),
    publicKeyUncompressedHex: bytesToHex(raw),
  }
}

/** A fresh WebCrypto ECDSA P-256 key pair with a non-extractable private key (B1.1; `extractable` only for sealing it). */
export async function createP256WebCryptoKeyPair(extractable = false): Promise<{
  keyPair: CryptoKeyPair
  publicKeyHex: string
  publicKeyUncompressedHex: string
}> {
  const keyPair = await subtle().generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, extractable, ['sign', 'verify'])
  return { keyPair, ...(await exportPublicKeyHexes(keyPair.publicKey)) }
}

/** PKCS#8 PrivateKeyInfo of a P-256 key up to its 32-byte scalar (RFC 5208, RFC 5915 ECPrivateKey v1). */
const PKCS8_P256_HEAD = hexToBytes('308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420')
/** …then the ECPrivateKey's `[1] publicKey` BIT STRING header before the 65-byte point. */
const PKCS8_P256_PUB = hexToBytes('a144034200')

/**
 * Import a raw 32-byte P-256 scalar (e.g. a decrypted credential bundle, B2) as a
 * non-extractable ECDSA signing key; the caller should then drop (zero) the raw bytes. The
 * scalar goes to WebCrypto as PKCS#8 bytes (zeroed here), never as a JWK string that could
 * not be wiped.
 */
export async function importP256PrivateKeyForSigning(
  raw: Uint8Array,
  extractable = false,
): Promise<{ privateKey: CryptoKey; publicKeyHex: string }> {
  const uncompressed = p256PublicKeyFromPrivate(raw, false)
  const der = new Uint8Array(PKCS8_P256_HEAD.length + 32 + PKCS8_P256_PUB.length + 65)
  der.set(PKCS8_P256_HEAD, 0)
  der.set(raw, PKCS8_P256_HEAD.length)
  der.set(PKCS8_P256_PUB, PKCS8_P256_HEAD.length + 32)
  der.set(uncompressed, PKCS8_P256_HEAD.length + 32 + PKCS8_P256_PUB.length)
  try {
    const privateKey = await subtle().importKey('pkcs8', der, { name: 'ECDSA', namedCurve: 'P-256' }, extractable, ['sign'])
    return { privateKey, publicKeyHex: bytesToHex(p256.Point.fromBytes(uncompressed).toBytes(true)) }
  } finally {
    der.fill(0)
  }
}
