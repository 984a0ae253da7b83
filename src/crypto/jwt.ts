/**
 * Session JWTs, OTP verification tokens and client signatures (wire-formats B3).
 *
 * Session JWT: ES256 header, signature = ECDSA-P256-SHA256 over h1 = sha256(signingInput)
 * (i.e. the message digest is sha256(sha256(signingInput)), matching @turnkey/crypto
 * verifySessionJwtSignature). Verification tokens are standard single-hash ES256.
 * Payloads are kept pure ASCII without `>` `?` `~` DEL so base64url never emits `-`/`_`
 * (core's atob-based parser silently drops them, B3).
 */
import { sha256 } from '@noble/hashes/sha2.js'
import type { SessionType } from '../api/enumLists.js'
import { invalidField } from '../api/errors.js'
import { base64UrlDecode, base64UrlEncode, bytesToHex, tryHexToBytes, utf8Decode, utf8Encode } from './encoding.js'
import { signP256Compact, verifyP256Compact } from './ecdsa.js'
import { p256PublicKeyFromPrivate } from './p256.js'

/** Session-type values (B3). */
export type { SessionType }

/** Required session JWT claims (B3); `exp` in seconds. */
export type SessionJwtClaims = {
  exp: number
  public_key: string
  /** A {@link SessionType}, or the name of the session profile the session was issued under (create_session_profile). */
  session_type: SessionType | (string & {})
  user_id: string
  organization_id: string
}

/** OTP verification-token claims (B3); `exp` is a string of milliseconds. */
export type VerificationTokenClaims = {
  exp: string
  id: string
  organization_id: string
  verification_type: string
  contact: string
  public_key?: string
}

/** Why a token was refused. */
export type TokenFailure = 'TOKEN_MALFORMED' | 'TOKEN_SIGNATURE_INVALID' | 'TOKEN_CLAIMS_INVALID' | 'TOKEN_EXPIRED'

const SESSION_HEADER = '{"alg":"ES256","typ":"JWT"}'
const VERIFICATION_HEADER = '{"typ":"JWT","alg":"ES256"}'
// Bytes that can make base64url emit '-' or '_' (B3 parser quirk), plus anything non-ASCII.
const UNSAFE_PAYLOAD = /[^\x20-\x7d]|[>?]/

function encodePayload(json: string): string {
  if (UNSAFE_PAYLOAD.test(json)) throw invalidField('claims', 'must serialise to printable ASCII without > ? ~')
  return base64UrlEncode(utf8Encode(json))
}

type Parts = { signingInput: string; header: Record<string, unknown>; payload: Record<string, unknown>; signature: Uint8Array }

function splitJwt(token: string): Parts | null {
  if (typeof token !== 'string') return null
  const parts = token.split('.')
  if (parts.length !== 3) return null
  const [h, p, s] = parts as [string, string, string]
  try {
    const header: unknown = JSON.parse(utf8Decode(base64UrlDecode(h)))
    const payload: unknown = JSON.parse(utf8Decode(base64UrlDecode(p)))
    const signature = base64UrlDecode(s)
    if (typeof header !== 'object' || header === null || typeof payload !== 'object' || payload === null) return null
    return {
      signingInput: `${h}.${p}`,
      header: header as Record<string, unknown>,
      payload: payload as Record<string, unknown>,
      signature,
    }
  } catch {
    return null
  }
}

/** Decode a JWT's payload without verifying it (what core's parseSession does); null if malformed. */
export function decodeJwtPayload(token: string): Record<string, unknown> | null {
  return splitJwt(token)?.payload ?? null
}

/** Sign a session JWT (B3): double-SHA-256 ES256, 64-byte r||s base64url signature. */
export function signSessionJwt(opts: { claims: SessionJwtClaims; signerPrivateKey: Uint8Array }): string {
  const c = opts.claims
  const payload = JSON.stringify({
    exp: c.exp,
    public_key: c.public_key,
    session_type: c.session_type,
    user_id: c.user_id,
    organization_id: c.organization_id,
  })
  const signingInput = `${base64UrlEncode(utf8Encode(SESSION_HEADER))}.${encodePayload(payload)}`
  const h1 = sha256(utf8Encode(signingInput))
  return `${signingInput}.${base64UrlEncode(signP256Compact(h1, opts.signerPrivateKey, true))}`
}

function isSessionClaims(p: Record<string, unknown>): p is SessionJwtClaims & Record<string, unknown> {
  return (
    typeof p.exp === 'number' &&
    Number.isFinite(p.exp) &&
    typeof p.public_key === 'string' &&
    typeof p.session_type === 'string' &&
    p.session_type !== '' &&
    typeof p.user_id === 'string' &&
    typeof p.organization_id === 'string'
  )
}

/** Verify a session JWT against the signer key (B3); pass `nowMs` to also enforce `exp` (seconds). */
export function verifySessionJwt(
  token: string,
  signerPublicKeyHex: string,
  opts: { nowMs?: number } = {},
): { ok: true; claims: SessionJwtClaims & Record<string, unknown> } | { ok: false; reason: TokenFailure } {
  const parts = splitJwt(token)
  const pub = tryHexToBytes(signerPublicKeyHex)
  if (!parts || !pub || parts.header.alg !== 'ES256') return { ok: false, reason: 'TOKEN_MALFORMED' }
  const h1 = sha256(utf8Encode(parts.signingInput))
  if (!verifyP256Compact(pub, parts.signature, h1, true)) return { ok: false, reason: 'TOKEN_SIGNATURE_INVALID' }
  if (!isSessionClaims(parts.payload)) return { ok: false, reason: 'TOKEN_CLAIMS_INVALID' }
  if (opts.nowMs !== undefined && parts.payload.exp * 1000 <= opts.nowMs) return { ok: false, reason: 'TOKEN_EXPIRED' }
  return { ok: true, claims: parts.payload }
}

/** Sign an OTP verification token (B3): standard ES256 (single SHA-256), `exp` in ms as a string. */
export function signVerificationToken(opts: { claims: VerificationTokenClaims; signerPrivateKey: Uint8Array }): string {
  const c = opts.claims
  const ordered: Record<string, string> = {
    exp: c.exp,
    id: c.id,
    organization_id: c.organization_id,
    verification_type: c.verification_type,
    contact: c.contact,
  }
  if (c.public_key !== undefined) ordered.public_key = c.public_key
  const signingInput = `${base64UrlEncode(utf8Encode(VERIFICATION_HEADER))}.${base64UrlEncode(utf8Encode(JSON.stringify(ordered)))}`
  return `${signingInput}.${base64UrlEncode(signP256Compact(utf8Encode(signingInput), opts.signerPrivateKey, true))}`
}

function isVerificationClaims(p: Record<string, unknown>): p is VerificationTokenClaims & Record<string, unknown> {
  const str = (v: unknown) => typeof v === 'string' && v.length > 0
  return (
    str(p.exp) &&
    Number.isFinite(Number(p.exp)) &&
    str(p.id) &&
    str(p.organization_id) &&
    str(p.verification_type) &&
    str(p.contact) &&
    (p.public_key === undefined || str(p.public_key))
  )
}

/** Verify an OTP verification token (B3); pass `nowMs` to also enforce `exp` (ms string). */
export function verifyVerificationToken(
  token: string,
  signerPublicKeyHex: string,
  opts: { nowMs?: number } = {},
): { ok: true; claims: VerificationTokenClaims & Record<string, unknown> } | { ok: false; reason: TokenFailure } {
  const parts = splitJwt(token)
  const pub = tryHexToBytes(signerPublicKeyHex)
  if (!parts || !pub || parts.header.alg !== 'ES256' || parts.header.typ !== 'JWT') return { ok: false, reason: 'TOKEN_MALFORMED' }
  if (!verifyP256Compact(pub, parts.signature, utf8Encode(parts.signingInput), true)) {
    return { ok: false, reason: 'TOKEN_SIGNATURE_INVALID' }
  }
  if (!isVerificationClaims(parts.payload)) return { ok: false, reason: 'TOKEN_CLAIMS_INVALID' }
  if (opts.nowMs !== undefined && Number(parts.payload.exp) <= opts.nowMs) return { ok: false, reason: 'TOKEN_EXPIRED' }
  return { ok: true, claims: parts.payload }
}

/** The only client-signature scheme (B3 clientSignature). */
export const CLIENT_SIGNATURE_SCHEME = 'CLIENT_SIGNATURE_SCHEME_API_P256'

/** A signup_v2 / otp_login v2 clientSignature object (B3). */
export type ClientSignature = {
  publicKey: string
  scheme: typeof CLIENT_SIGNATURE_SCHEME
  message: string
  signature: string
}

/**
 * Verify a clientSignature (B3): raw r||s (128 hex) ECDSA-P256 over SHA-256 of the UTF-8 message,
 * as @turnkey/api-key-stamper `sign(message, SignatureFormat.Raw)` produces.
 */
export function verifyClientSignature(sig: { publicKey: string; scheme: string; message: string; signature: string }): boolean {
  if (sig.scheme !== CLIENT_SIGNATURE_SCHEME) return false
  const pub = tryHexToBytes(sig.publicKey)
  const raw = tryHexToBytes(sig.signature)
  if (!pub || !raw || raw.length !== 64) return false
  return verifyP256Compact(pub, raw, utf8Encode(sig.message), true)
}

/** Make a clientSignature for `message` with a raw P-256 scalar (B3). */
export function signClientSignature(opts: { privateKey: Uint8Array; message: string; publicKeyHex?: string }): ClientSignature {
  return {
    publicKey: opts.publicKeyHex ?? bytesToHex(p256PublicKeyFromPrivate(opts.privateKey, true)),
    scheme: CLIENT_SIGNATURE_SCHEME,
    message: opts.message,
    signature: bytesToHex(signP256Compact(utf8Encode(opts.message), opts.privateKey, true)),
  }
}
