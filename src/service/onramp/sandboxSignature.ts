/**
 * The built-in sandbox provider's URL-signing key. The hosted service signs `urlForSignature`
 * with its default provider credentials when an organization stored none; Sigil's sandbox
 * provider does the same with a key of its own, derived (HKDF-SHA256, labelled) from the
 * service's on-ramp key, so every instance sharing the database signs alike.
 */
import { timingSafeEqual } from 'node:crypto'
import { hkdf } from '@noble/hashes/hkdf.js'
import { sha256 } from '@noble/hashes/sha2.js'
import type { ServiceKeys } from '../keys.js'
import { signQuery } from './url.js'

const INFO = new TextEncoder().encode('sigil sandbox on-ramp url signature v1')

/** The sandbox provider's HMAC key; the caller wipes it. */
export function sandboxSigningKey(keys: Pick<ServiceKeys, 'onramp'>): Uint8Array {
  return hkdf(sha256, keys.onramp.privateKey, undefined, INFO, 32)
}

/** Whether `signature` is the sandbox provider's signature of `query`. */
export function verifySandboxSignature(keys: Pick<ServiceKeys, 'onramp'>, query: string, signature: string): boolean {
  const key = sandboxSigningKey(keys)
  try {
    const expected = Buffer.from(signQuery(query, key), 'base64')
    const given = Buffer.from(signature, 'base64')
    return given.length === expected.length && timingSafeEqual(given, expected)
  } finally {
    key.fill(0)
  }
}
