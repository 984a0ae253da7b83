import { timingSafeEqual } from 'node:crypto'
import { hkdf } from '@noble/hashes/hkdf.js'
import { hmac } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8Encode } from '../../crypto/encoding.js'

/** Crockford Base32 alphabet (wire-formats B7: alphanumeric OTPs). 256 is a multiple of 32: no bias. */
export const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** A fresh OTP code from the CSPRNG: `length` Crockford Base32 characters, or digits (B7). */
export function generateOtpCode(length: number, alphanumeric: boolean): string {
  let out = ''
  while (out.length < length) {
    for (const b of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (out.length === length) break
      if (alphanumeric) out += CROCKFORD_ALPHABET[b & 31]
      else if (b < 250) out += String(b % 10) // rejection sampling keeps digits uniform
    }
  }
  return out
}

/** What a person may type: trimmed, upper case, Crockford's look-alikes folded (O→0, I/L→1). */
export function normaliseOtpInput(code: string, alphanumeric: boolean): string {
  const c = code.trim().toUpperCase().replace(/[\s-]/g, '')
  return alphanumeric ? c.replace(/O/g, '0').replace(/[IL]/g, '1') : c
}

/** The HMAC key for OTP hashes, derived from a sealed service key so no extra secret is stored. */
export function otpHashKey(serviceSecret: Uint8Array): Uint8Array {
  return hkdf(sha256, serviceSecret, utf8Encode('sigil'), utf8Encode('otp-code-hash/v1'), 32)
}

/** HMAC-SHA256(key, otpId ":" code) as hex: what is stored instead of the code. */
export function hashOtpCode(key: Uint8Array, otpId: string, code: string): string {
  return bytesToHex(hmac(sha256, key, utf8Encode(`${otpId}:${code}`)))
}

/** Constant-time comparison of a typed code with the stored hash. */
export function otpCodeMatches(key: Uint8Array, otpId: string, typed: string, storedHash: string): boolean {
  const a = Buffer.from(hashOtpCode(key, otpId, typed), 'hex')
  const b = Buffer.from(storedHash, 'hex')
  return a.length === b.length && timingSafeEqual(a, b)
}
