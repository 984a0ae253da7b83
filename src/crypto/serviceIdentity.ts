/**
 * Signing and checking a service identity document (shapes in
 * src/api/serviceIdentity.ts): the statement's UTF-8 bytes are signed with ECDSA P-256 /
 * SHA-256 (DER) by the identity key. Checking takes the key the client pins and the URL it
 * is about to use: the document must be signed by exactly that key and list that URL's origin.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import type { z } from 'zod'
import {
  ServiceIdentityDocument,
  ServiceIdentityStatement,
  type ServiceKeys,
  type ServiceIdentityStatement as Statement,
} from '../api/serviceIdentity.js'
import { signP256Der, verifyP256Der } from './ecdsa.js'
import { bytesToHex, hexToBytes, tryHexToBytes, utf8Encode } from './encoding.js'
import { p256PublicKeyFromPrivate } from './p256.js'

type StatementInput = z.input<typeof ServiceIdentityStatement>

/** Why a document was refused. */
export type IdentityFailure = 'IDENTITY_MALFORMED' | 'IDENTITY_SIGNATURE_INVALID' | 'IDENTITY_KEY_MISMATCH' | 'IDENTITY_ORIGIN_MISMATCH'

/** The origin of `url` (`scheme://host[:port]`, default ports dropped), or null when it is not a URL. */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url)
    return u.origin === 'null' ? null : u.origin
  } catch {
    return null
  }
}

/** Sign a statement with the identity key (the service side). */
export function signServiceIdentity(statement: StatementInput, identityPrivateKey: Uint8Array): ServiceIdentityDocument {
  const text = JSON.stringify(statement)
  return {
    statement: text,
    publicKey: bytesToHex(p256PublicKeyFromPrivate(identityPrivateKey, false)),
    signature: bytesToHex(signP256Der(utf8Encode(text), identityPrivateKey)),
  }
}

/**
 * Check a document fetched for `url`. Without `pinnedKey` (the "connect to a service" step,
 * before the user confirmed the fingerprint) only the signature and origin are checked.
 */
export function verifyServiceIdentity(
  doc: unknown,
  opts: { url: string; pinnedKey?: string | undefined; checkOrigin?: boolean },
): { ok: true; statement: Statement } | { ok: false; reason: IdentityFailure } {
  const parsed = ServiceIdentityDocument.safeParse(doc)
  if (!parsed.success) return { ok: false, reason: 'IDENTITY_MALFORMED' }
  let statement: Statement
  try {
    const s = ServiceIdentityStatement.safeParse(JSON.parse(parsed.data.statement))
    if (!s.success) return { ok: false, reason: 'IDENTITY_MALFORMED' }
    statement = s.data
  } catch {
    return { ok: false, reason: 'IDENTITY_MALFORMED' }
  }
  if (statement.keys.identity !== parsed.data.publicKey) return { ok: false, reason: 'IDENTITY_MALFORMED' }
  const sig = tryHexToBytes(parsed.data.signature)
  if (!sig || verifyP256Der(hexToBytes(parsed.data.publicKey), sig, utf8Encode(parsed.data.statement)) !== true) {
    return { ok: false, reason: 'IDENTITY_SIGNATURE_INVALID' }
  }
  if (opts.pinnedKey !== undefined && opts.pinnedKey.toLowerCase() !== statement.keys.identity) {
    return { ok: false, reason: 'IDENTITY_KEY_MISMATCH' }
  }
  if (opts.checkOrigin !== false) {
    const origin = originOf(opts.url)
    if (!origin || !statement.origins.some((o) => originOf(o) === origin)) return { ok: false, reason: 'IDENTITY_ORIGIN_MISMATCH' }
  }
  return { ok: true, statement }
}

/**
 * The fingerprint people compare: SHA-256 of the uncompressed identity key, first 16 bytes,
 * upper-case hex in groups of four (`3F2A 9C01 …`).
 */
export function serviceFingerprint(identityKeyHex: string): string {
  const hex = bytesToHex(sha256(hexToBytes(identityKeyHex)))
    .slice(0, 32)
    .toUpperCase()
  return hex.match(/.{4}/g)?.join(' ') ?? hex
}

/** True when the three keys are the same (order-insensitive hex comparison). */
export function sameServiceKeys(a: ServiceKeys, b: ServiceKeys): boolean {
  return a.identity === b.identity && a.signer === b.signer && a.notarizer === b.notarizer
}
