/**
 * Byte/text codecs used across the crypto layer (wire-formats B1, B2).
 *
 * Uint8Array only (no Buffer) so this runs in Node, a page and an MV3 service worker.
 * base64url comes from @scure/base; hex is strict and names the field on failure.
 */
import { base64urlnopad } from '@scure/base'
import { invalidField } from '../api/errors.js'

const HEX_RE = /^[0-9a-fA-F]*$/

/** Strict hex → bytes (even length, hex digits, optional `0x`); throws INVALID_ARGUMENT naming `field`. */
export function hexToBytes(hex: string, field?: string): Uint8Array {
  const name = field ?? 'hex'
  if (typeof hex !== 'string') throw invalidField(name, 'must be a hex string')
  const s = hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex
  if (s.length % 2 !== 0) throw invalidField(name, 'hex must have an even length')
  if (!HEX_RE.test(s)) throw invalidField(name, 'must contain only hex digits')
  const out = new Uint8Array(s.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(s.slice(i * 2, i * 2 + 2), 16)
  return out
}

/** {@link hexToBytes} for verifiers that return a reason: null for anything but a hex string. */
export function tryHexToBytes(hex: unknown): Uint8Array | null {
  if (typeof hex !== 'string') return null
  try {
    return hexToBytes(hex)
  } catch {
    return null
  }
}

const HEX_DIGITS = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

/** Bytes → lowercase hex, no prefix. */
export function bytesToHex(bytes: Uint8Array): string {
  let s = ''
  for (const b of bytes) s += HEX_DIGITS[b]
  return s
}

/** base64url without padding (RFC 4648 §5), as Turnkey's stampers emit. */
export function base64UrlEncode(bytes: Uint8Array): string {
  return base64urlnopad.encode(bytes)
}

/** Decode base64url; padding is tolerated, anything else invalid throws INVALID_ARGUMENT. */
export function base64UrlDecode(s: string, field = 'base64url'): Uint8Array {
  try {
    return base64urlnopad.decode(s.replace(/=+$/, ''))
  } catch {
    throw invalidField(field, 'must be base64url')
  }
}

const encoder = new TextEncoder()
const decoder = new TextDecoder('utf-8', { fatal: true })

/** String → UTF-8 bytes. */
export function utf8Encode(s: string): Uint8Array {
  return encoder.encode(s)
}

/** UTF-8 bytes → string; throws on invalid UTF-8. */
export function utf8Decode(bytes: Uint8Array): string {
  return decoder.decode(bytes)
}

/** Concatenate byte arrays into a fresh array. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let len = 0
  for (const p of parts) len += p.length
  const out = new Uint8Array(len)
  let off = 0
  for (const p of parts) {
    out.set(p, off)
    off += p.length
  }
  return out
}

/** Length-revealing, content-constant-time equality (for MACs, keys, digests). */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number)
  return diff === 0
}
