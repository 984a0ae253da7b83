/**
 * Server-side stamp checks over the raw body bytes (wire-formats B1.1–B1.4, A4).
 *
 * Expected outcomes are values (`{ok:false, reason}`), never exceptions. P-256 accepts high-S
 * (Turnkey's stampers do not normalise) and compressed or uncompressed keys.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { base64UrlDecode, base64UrlEncode, bytesToHex, concatBytes, tryHexToBytes, utf8Decode, utf8Encode } from './encoding.js'
import { verifyP256Der } from './ecdsa.js'
import { type ApiKeyStampJson, decodeStampHeader } from './stamp.js'
import type { SignatureScheme } from '../api/enumLists.js'

/** `X-Stamp` schemes we verify (B1.1, B1.3). */
export const STAMP_SCHEMES = [
  'SIGNATURE_SCHEME_TK_API_P256',
  'SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191',
  'SIGNATURE_SCHEME_TK_API_ED25519',
] as const satisfies readonly SignatureScheme[]
export type StampScheme = (typeof STAMP_SCHEMES)[number]

/** Result of an `X-Stamp` check (B1.1, B1.3). */
export type StampCheck =
  | { ok: true; publicKey: string; scheme: StampScheme }
  | { ok: false; reason: 'STAMP_MALFORMED' | 'STAMP_SCHEME_UNSUPPORTED' | 'STAMP_SIGNATURE_INVALID' }

type Fail = Extract<StampCheck, { ok: false }>
const MALFORMED: Fail = { ok: false, reason: 'STAMP_MALFORMED' }
const INVALID: Fail = { ok: false, reason: 'STAMP_SIGNATURE_INVALID' }

/** Stamp hex is bare: a `0x` prefix is malformed. */
function hexOrNull(hex: string): Uint8Array | null {
  return typeof hex === 'string' && hex.startsWith('0x') ? null : tryHexToBytes(hex)
}

function isScheme(s: string): s is StampScheme {
  return (STAMP_SCHEMES as readonly string[]).includes(s)
}

/** EIP-191 personal_sign digest: keccak256("\x19Ethereum Signed Message:\n" + byteLength + body) (B1.3). */
export function eip191Digest(body: Uint8Array): Uint8Array {
  return keccak_256(concatBytes(utf8Encode(`\x19Ethereum Signed Message:\n${body.length}`), body))
}

function verifySecp256k1Eip191(pub: Uint8Array, der: Uint8Array, body: Uint8Array): boolean | null {
  if (pub.length !== 33 && pub.length !== 65) return null
  try {
    secp256k1.Point.fromBytes(pub)
    secp256k1.Signature.fromBytes(der, 'der')
  } catch {
    return null
  }
  try {
    return secp256k1.verify(der, eip191Digest(body), pub, { prehash: false, lowS: false, format: 'der' })
  } catch {
    return false
  }
}

function verifyEd25519(pub: Uint8Array, sig: Uint8Array, body: Uint8Array): boolean | null {
  if (pub.length !== 32 || sig.length !== 64) return null
  try {
    return ed25519.verify(sig, body, pub)
  } catch {
    return false
  }
}

/** Verify an `X-Stamp` header value against the exact raw body bytes (B1.1, B1.3, A4). */
export function verifyApiKeyStamp(headerValue: string, body: Uint8Array): StampCheck {
  const decoded = decodeStampHeader(headerValue)
  return decoded.ok ? verifyDecodedStamp(decoded.stamp, body) : MALFORMED
}

/** {@link verifyApiKeyStamp} of a stamp already decoded from its header (each header is decoded once). */
export function verifyDecodedStamp(stamp: ApiKeyStampJson, body: Uint8Array): StampCheck {
  const { publicKey, scheme, signature } = stamp
  if (!isScheme(scheme)) return { ok: false, reason: 'STAMP_SCHEME_UNSUPPORTED' }
  const pub = hexOrNull(publicKey)
  const sig = hexOrNull(signature)
  if (!pub || !sig) return MALFORMED
  let valid: boolean | null
  switch (scheme) {
    case 'SIGNATURE_SCHEME_TK_API_P256':
      valid = verifyP256Der(pub, sig, body)
      break
    case 'SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191':
      valid = verifySecp256k1Eip191(pub, sig, body)
      break
    case 'SIGNATURE_SCHEME_TK_API_ED25519':
      valid = verifyEd25519(pub, sig, body)
      break
  }
  if (valid === null) return MALFORMED
  if (!valid) return INVALID
  return { ok: true, publicKey: publicKey.toLowerCase(), scheme }
}

/** The 64 ASCII bytes of lowercase-hex sha256(body): the WebAuthn challenge (B1.2). */
export function webauthnChallengeBytesForBody(body: Uint8Array): Uint8Array {
  return utf8Encode(bytesToHex(sha256(body)))
}

/** base64url of the WebAuthn challenge, as it appears in clientDataJSON.challenge (B1.2). */
export function webauthnChallengeForBody(body: Uint8Array): string {
  return base64UrlEncode(webauthnChallengeBytesForBody(body))
}

/** Parsed `X-Stamp-Webauthn` header: four base64url strings (B1.2). */
export type WebauthnStamp = { authenticatorData: string; clientDataJson: string; credentialId: string; signature: string }

function isB64url(s: unknown): s is string {
  if (typeof s !== 'string' || s.length === 0 || !/^[A-Za-z0-9_-]+={0,2}$/.test(s)) return false
  try {
    base64UrlDecode(s)
    return true
  } catch {
    return false
  }
}

/** Parse the raw-JSON `X-Stamp-Webauthn` header; the caller verifies it with a WebAuthn library (B1.2). */
export function parseWebauthnStamp(headerValue: string): { ok: true; stamp: WebauthnStamp } | { ok: false; reason: 'STAMP_MALFORMED' } {
  try {
    const parsed: unknown = JSON.parse(headerValue)
    if (typeof parsed !== 'object' || parsed === null) return { ok: false, reason: 'STAMP_MALFORMED' }
    const { authenticatorData, clientDataJson, credentialId, signature } = parsed as Record<string, unknown>
    if (!isB64url(authenticatorData) || !isB64url(clientDataJson) || !isB64url(credentialId) || !isB64url(signature)) {
      return { ok: false, reason: 'STAMP_MALFORMED' }
    }
    return { ok: true, stamp: { authenticatorData, clientDataJson, credentialId, signature } }
  } catch {
    return { ok: false, reason: 'STAMP_MALFORMED' }
  }
}

/** `X-Stamp-Attested` schemes (B1.4). */
export const ATTESTED_SCHEMES = ['STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN', 'STAMP_ATTESTED_SCHEME_P256_OIDC'] as const
export type AttestedScheme = (typeof ATTESTED_SCHEMES)[number]

/** Parsed `X-Stamp-Attested` header (B1.4). */
export type AttestedStamp = { publicKeyAttestation: string; scheme: AttestedScheme; publicKey: string; signature: string }

/** Parse `X-Stamp-Attested` = base64url(JSON{publicKeyAttestation, scheme, publicKey, signature}) (B1.4). */
export function parseAttestedStamp(
  headerValue: string,
): { ok: true; stamp: AttestedStamp } | { ok: false; reason: 'STAMP_MALFORMED' | 'STAMP_SCHEME_UNSUPPORTED' } {
  let parsed: unknown
  try {
    parsed = JSON.parse(utf8Decode(base64UrlDecode(headerValue.trim())))
  } catch {
    return { ok: false, reason: 'STAMP_MALFORMED' }
  }
  if (typeof parsed !== 'object' || parsed === null) return { ok: false, reason: 'STAMP_MALFORMED' }
  const { publicKeyAttestation, scheme, publicKey, signature } = parsed as Record<string, unknown>
  if (
    typeof publicKeyAttestation !== 'string' ||
    publicKeyAttestation.length === 0 ||
    typeof scheme !== 'string' ||
    typeof publicKey !== 'string' ||
    typeof signature !== 'string'
  ) {
    return { ok: false, reason: 'STAMP_MALFORMED' }
  }
  if (!(ATTESTED_SCHEMES as readonly string[]).includes(scheme)) return { ok: false, reason: 'STAMP_SCHEME_UNSUPPORTED' }
  return { ok: true, stamp: { publicKeyAttestation, scheme: scheme as AttestedScheme, publicKey, signature } }
}

/**
 * Check an attested stamp's P-256 DER signature over the body by its `publicKey` (B1.4).
 * The caller separately checks the attestation (token/OIDC) binds that key.
 */
export function verifyAttestedStampSignature(
  parsed: AttestedStamp,
  body: Uint8Array,
): { ok: true; publicKey: string } | { ok: false; reason: 'STAMP_MALFORMED' | 'STAMP_SIGNATURE_INVALID' } {
  const pub = hexOrNull(parsed.publicKey)
  const sig = hexOrNull(parsed.signature)
  if (!pub || !sig) return { ok: false, reason: 'STAMP_MALFORMED' }
  const valid = verifyP256Der(pub, sig, body)
  if (valid === null) return { ok: false, reason: 'STAMP_MALFORMED' }
  if (!valid) return { ok: false, reason: 'STAMP_SIGNATURE_INVALID' }
  return { ok: true, publicKey: parsed.publicKey.toLowerCase() }
}
