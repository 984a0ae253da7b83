/**
 * App proofs (service-interface "App proof"): an activity's intent and result digests
 * signed by the service's ephemeral P-256 key, scheme SIGNATURE_SCHEME_EPHEMERAL_KEY_P256.
 *
 * proofPayload = canonicalJson({activityId, type, organizationId, intentDigest, resultDigest,
 * timestampMs}), digests = sha256 hex of canonicalJson(intent|result). The layout is the hosted
 * service's, so `@turnkey/crypto` `verifyAppProofSignature` accepts Sigil's proofs: publicKey =
 * hex of 130 bytes, encryptionPub65 || signingPub65 (uncompressed P-256 points); signature = hex
 * of raw r||s (low-S) ECDSA-P256-SHA256 over utf8(proofPayload). The verifier also accepts
 * Sigil's earlier layout (compressed signing key, DER signature).
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { invalidField } from '../api/errors.js'
import { signP256Compact, verifyP256Compact, verifyP256Der } from './ecdsa.js'
import { bytesToHex, tryHexToBytes, utf8Encode } from './encoding.js'
import { p256PublicKeyFromPrivate, uncompressP256PublicKey } from './p256.js'

/** The only app-proof scheme. */
export const APP_PROOF_SCHEME = 'SIGNATURE_SCHEME_EPHEMERAL_KEY_P256'

/** An app proof as it appears in `activity.appProofs[]`. */
export type AppProof = { scheme: typeof APP_PROOF_SCHEME; publicKey: string; proofPayload: string; signature: string }

/** The signed statement inside `proofPayload`. */
export type AppProofPayload = {
  activityId: string
  type: string
  organizationId: string
  intentDigest: string
  resultDigest: string
  /** Milliseconds since the epoch when the proof was made (the hosted payload carries it too). */
  timestampMs?: string
}

/** Why an app proof was refused. */
export type AppProofFailure =
  | 'PROOF_SCHEME_UNSUPPORTED'
  | 'PROOF_MALFORMED'
  | 'PROOF_SIGNATURE_INVALID'
  | 'PROOF_KEY_MISMATCH'
  | 'PROOF_INTENT_MISMATCH'
  | 'PROOF_RESULT_MISMATCH'

/** Canonical JSON: object keys sorted by UTF-16 code unit, no whitespace, `undefined` members dropped. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value)
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw invalidField('value', 'non-finite numbers cannot be canonicalised')
    return JSON.stringify(value)
  }
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`
  if (typeof value === 'object') {
    const obj = value as Record<string, unknown>
    const keys = Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort()
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`
  }
  throw invalidField('value', `cannot canonicalise a ${typeof value}`)
}

/** sha256 hex of canonicalJson(value). */
export function canonicalDigest(value: unknown): string {
  return bytesToHex(sha256(utf8Encode(canonicalJson(value))))
}

/** Sign an app proof for a finished activity. */
export function createAppProof(opts: {
  activityId: string
  type: string
  organizationId: string
  intent: unknown
  result: unknown
  signerPrivateKey: Uint8Array
  /** The first half of `publicKey` (65-byte uncompressed P-256 point); the signing key's own when absent. */
  encryptionPublicKey?: Uint8Array
  nowMs?: number
}): AppProof {
  const payload: AppProofPayload = {
    activityId: opts.activityId,
    type: opts.type,
    organizationId: opts.organizationId,
    intentDigest: canonicalDigest(opts.intent),
    resultDigest: canonicalDigest(opts.result),
    timestampMs: String(opts.nowMs ?? Date.now()),
  }
  const proofPayload = canonicalJson(payload)
  const signing = p256PublicKeyFromPrivate(opts.signerPrivateKey, false)
  const encryption = opts.encryptionPublicKey ?? signing
  if (encryption.length !== 65) throw invalidField('encryptionPublicKey', 'must be a 65-byte uncompressed P-256 point')
  return {
    scheme: APP_PROOF_SCHEME,
    publicKey: bytesToHex(encryption) + bytesToHex(signing),
    proofPayload,
    signature: bytesToHex(signP256Compact(utf8Encode(proofPayload), opts.signerPrivateKey)),
  }
}

function signingKey(pub: Uint8Array): Uint8Array | null {
  const key = pub.length === 130 ? pub.subarray(65) : pub
  try {
    return uncompressP256PublicKey(key)
  } catch {
    return null
  }
}

function isPayload(v: unknown): v is AppProofPayload {
  if (typeof v !== 'object' || v === null) return false
  const p = v as Record<string, unknown>
  return ['activityId', 'type', 'organizationId', 'intentDigest', 'resultDigest'].every((k) => typeof p[k] === 'string')
}

/** Verify an app proof's signature and, when given, its key, intent and result. */
export function verifyAppProof(
  proof: { scheme: string; publicKey: string; proofPayload: string; signature: string },
  opts: { intent?: unknown; result?: unknown; expectedPublicKey?: string } = {},
): { ok: true; payload: AppProofPayload } | { ok: false; reason: AppProofFailure } {
  if (proof.scheme !== APP_PROOF_SCHEME) return { ok: false, reason: 'PROOF_SCHEME_UNSUPPORTED' }
  const pubRaw = tryHexToBytes(proof.publicKey)
  const sig = tryHexToBytes(proof.signature)
  const pub = pubRaw && signingKey(pubRaw)
  if (!pub || !sig || typeof proof.proofPayload !== 'string') return { ok: false, reason: 'PROOF_MALFORMED' }
  if (opts.expectedPublicKey !== undefined) {
    const expectedRaw = tryHexToBytes(opts.expectedPublicKey)
    const expected = expectedRaw && signingKey(expectedRaw)
    if (!expected || bytesToHex(expected) !== bytesToHex(pub)) return { ok: false, reason: 'PROOF_KEY_MISMATCH' }
  }
  const msg = utf8Encode(proof.proofPayload)
  let valid = verifyP256Der(pub, sig, msg)
  if (valid === null && sig.length === 64) valid = verifyP256Compact(pub, sig, msg, true)
  if (valid === null) return { ok: false, reason: 'PROOF_MALFORMED' }
  if (!valid) return { ok: false, reason: 'PROOF_SIGNATURE_INVALID' }
  let payload: unknown
  try {
    payload = JSON.parse(proof.proofPayload)
  } catch {
    return { ok: false, reason: 'PROOF_MALFORMED' }
  }
  if (!isPayload(payload)) return { ok: false, reason: 'PROOF_MALFORMED' }
  if (opts.intent !== undefined && canonicalDigest(opts.intent) !== payload.intentDigest) {
    return { ok: false, reason: 'PROOF_INTENT_MISMATCH' }
  }
  if (opts.result !== undefined && canonicalDigest(opts.result) !== payload.resultDigest) {
    return { ok: false, reason: 'PROOF_RESULT_MISMATCH' }
  }
  return { ok: true, payload }
}
