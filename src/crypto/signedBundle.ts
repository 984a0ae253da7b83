/**
 * Signed HPKE bundles (wire-formats B2): export bundles (server → client), import / OTP target
 * bundles (server → client) and the `{encappedPublic, ciphertext}` envelope (client → server).
 * Byte-compatible with @turnkey/crypto 2.13.2 decryptExportBundle, encryptPrivateKeyToBundle,
 * encryptWalletToBundle and encryptOtpCodeToBundle (signer key passed as the override).
 */
import { bytesToHex, hexToBytes, tryHexToBytes, utf8Decode, utf8Encode } from './encoding.js'
import { signP256Der, verifyP256Der } from './ecdsa.js'
import { HpkeError, hpkeDecrypt, hpkeEncrypt } from './hpke.js'
import { p256PublicKeyFromPrivate, uncompressP256PublicKey } from './p256.js'

/** Why a signed bundle or envelope was refused. */
export type SignedBundleFailure =
  | 'BUNDLE_MALFORMED'
  | 'BUNDLE_SIGNER_MISMATCH'
  | 'BUNDLE_SIGNATURE_INVALID'
  | 'BUNDLE_ORGANIZATION_MISMATCH'
  | 'BUNDLE_USER_MISMATCH'
  | 'BUNDLE_BAD_TARGET_KEY'
  | 'BUNDLE_BAD_ENCAPPED_KEY'
  | 'BUNDLE_DECRYPT_FAILED'

type Fail = { ok: false; reason: SignedBundleFailure }
const fail = (reason: SignedBundleFailure): Fail => ({ ok: false, reason })

type SignedEnvelope = { data: string; dataSignature: string; enclaveQuorumPublic: string }

function signData(dataJson: string, signerPrivateKey: Uint8Array): SignedEnvelope {
  const dataBytes = utf8Encode(dataJson)
  return {
    data: bytesToHex(dataBytes),
    dataSignature: bytesToHex(signP256Der(dataBytes, signerPrivateKey)),
    enclaveQuorumPublic: bytesToHex(p256PublicKeyFromPrivate(signerPrivateKey, false)),
  }
}

function sameKey(a: Uint8Array, bHex: string): boolean {
  try {
    return bytesToHex(uncompressP256PublicKey(a)) === bytesToHex(uncompressP256PublicKey(hexToBytes(bHex)))
  } catch {
    return false
  }
}

/** Parse the outer JSON, check the signer key and signature, and return the signed inner JSON object. */
function openSigned(json: string, signerPublicKeyHex: string): { ok: true; data: Record<string, unknown> } | Fail {
  let outer: unknown
  try {
    outer = JSON.parse(json)
  } catch {
    return fail('BUNDLE_MALFORMED')
  }
  if (typeof outer !== 'object' || outer === null) return fail('BUNDLE_MALFORMED')
  const o = outer as Record<string, unknown>
  const dataBytes = tryHexToBytes(o.data)
  const sig = tryHexToBytes(o.dataSignature)
  const signer = tryHexToBytes(o.enclaveQuorumPublic)
  if (!dataBytes || !sig || !signer) return fail('BUNDLE_MALFORMED')
  if (!sameKey(signer, signerPublicKeyHex)) return fail('BUNDLE_SIGNER_MISMATCH')
  const valid = verifyP256Der(signer, sig, dataBytes)
  if (valid === null) return fail('BUNDLE_MALFORMED')
  if (!valid) return fail('BUNDLE_SIGNATURE_INVALID')
  let inner: unknown
  try {
    inner = JSON.parse(utf8Decode(dataBytes))
  } catch {
    return fail('BUNDLE_MALFORMED')
  }
  if (typeof inner !== 'object' || inner === null) return fail('BUNDLE_MALFORMED')
  return { ok: true, data: inner as Record<string, unknown> }
}

async function decryptParts(
  encappedPublicHex: unknown,
  ciphertextHex: unknown,
  privateKey: Uint8Array | CryptoKeyPair,
): Promise<{ ok: true; plaintext: Uint8Array } | Fail> {
  const enc = tryHexToBytes(encappedPublicHex)
  const ct = tryHexToBytes(ciphertextHex)
  if (!enc || !ct) return fail('BUNDLE_MALFORMED')
  try {
    return { ok: true, plaintext: await hpkeDecrypt({ encappedPublic: enc, ciphertext: ct, privateKey }) }
  } catch (e) {
    if (e instanceof HpkeError && e.failure === 'HPKE_BAD_ENCAPPED_KEY') return fail('BUNDLE_BAD_ENCAPPED_KEY')
    if (e instanceof HpkeError && e.failure === 'HPKE_BAD_RECIPIENT_KEY') throw e
    return fail('BUNDLE_DECRYPT_FAILED')
  }
}

/** Build a signed v1.0.0 export bundle of `plaintext` for `targetPublicKeyHex` (B2 export bundle). */
export async function createExportBundle(opts: {
  plaintext: Uint8Array
  targetPublicKeyHex: string
  organizationId: string
  signerPrivateKey: Uint8Array
}): Promise<string> {
  const target = hexToBytes(opts.targetPublicKeyHex, 'targetPublicKey')
  const { encappedPublic, ciphertext } = await hpkeEncrypt({ plaintext: opts.plaintext, targetPublicKey: target })
  const dataJson = JSON.stringify({
    encappedPublic: bytesToHex(encappedPublic),
    ciphertext: bytesToHex(ciphertext),
    organizationId: opts.organizationId,
  })
  const signed = signData(dataJson, opts.signerPrivateKey)
  return JSON.stringify({ version: 'v1.0.0', ...signed })
}

/** Verify (signer key, signature, organizationId) and decrypt an export bundle (B2). */
export async function openExportBundle(opts: {
  exportBundle: string
  privateKey: Uint8Array | CryptoKeyPair
  organizationId: string
  signerPublicKeyHex: string
}): Promise<{ ok: true; plaintext: Uint8Array } | Fail> {
  const opened = openSigned(opts.exportBundle, opts.signerPublicKeyHex)
  if (!opened.ok) return opened
  const { organizationId, encappedPublic, ciphertext } = opened.data
  if (typeof organizationId !== 'string' || organizationId !== opts.organizationId) return fail('BUNDLE_ORGANIZATION_MISMATCH')
  return decryptParts(encappedPublic, ciphertext, opts.privateKey)
}

/** Build a signed import / OTP target bundle announcing `targetPublicKey` (B2 target bundles). */
export function createTargetBundle(opts: {
  targetPublicKey: Uint8Array
  signerPrivateKey: Uint8Array
  organizationId?: string
  userId?: string
}): string {
  const data: Record<string, string> = { targetPublic: bytesToHex(uncompressP256PublicKey(opts.targetPublicKey, 'targetPublicKey')) }
  if (opts.organizationId !== undefined) data.organizationId = opts.organizationId
  if (opts.userId !== undefined) data.userId = opts.userId
  const signed = signData(JSON.stringify(data), opts.signerPrivateKey)
  return JSON.stringify({ enclaveQuorumPublic: signed.enclaveQuorumPublic, dataSignature: signed.dataSignature, data: signed.data })
}

/** Verify a target bundle's signature by `signerPublicKeyHex` and return the key it announces. */
export function verifyTargetBundle(opts: { targetBundle: string; signerPublicKeyHex: string }): { ok: true; targetPublic: string } | Fail {
  const opened = openSigned(opts.targetBundle, opts.signerPublicKeyHex)
  if (!opened.ok) return opened
  const target = opened.data.targetPublic
  return typeof target === 'string' && tryHexToBytes(target) ? { ok: true, targetPublic: target } : fail('BUNDLE_MALFORMED')
}

/**
 * Verify a target bundle, then HPKE-encrypt `plaintext` to its `targetPublic` and return the
 * `formatHpkeBuf` envelope `{"encappedPublic":<65 B hex>,"ciphertext":<hex>}` (B2).
 */
export async function encryptToTargetBundle(opts: {
  targetBundle: string
  plaintext: Uint8Array
  signerPublicKeyHex: string
  organizationId?: string
  userId?: string
}): Promise<{ ok: true; envelope: string } | Fail> {
  const opened = openSigned(opts.targetBundle, opts.signerPublicKeyHex)
  if (!opened.ok) return opened
  const { targetPublic, organizationId, userId } = opened.data
  if (opts.organizationId !== undefined && organizationId !== opts.organizationId) return fail('BUNDLE_ORGANIZATION_MISMATCH')
  if (opts.userId !== undefined && userId !== opts.userId) return fail('BUNDLE_USER_MISMATCH')
  const target = tryHexToBytes(targetPublic)
  if (!target) return fail('BUNDLE_MALFORMED')
  try {
    const { encappedPublic, ciphertext } = await hpkeEncrypt({ plaintext: opts.plaintext, targetPublicKey: target })
    return { ok: true, envelope: JSON.stringify({ encappedPublic: bytesToHex(encappedPublic), ciphertext: bytesToHex(ciphertext) }) }
  } catch (e) {
    if (e instanceof HpkeError) return fail('BUNDLE_BAD_TARGET_KEY')
    throw e
  }
}

/** Decrypt a `{encappedPublic, ciphertext}` envelope made by {@link encryptToTargetBundle} or @turnkey/crypto (B2). */
export async function decryptEnvelope(opts: {
  envelope: string
  privateKey: Uint8Array | CryptoKeyPair
}): Promise<{ ok: true; plaintext: Uint8Array } | Fail> {
  let parsed: unknown
  try {
    parsed = JSON.parse(opts.envelope)
  } catch {
    return fail('BUNDLE_MALFORMED')
  }
  if (typeof parsed !== 'object' || parsed === null) return fail('BUNDLE_MALFORMED')
  const { encappedPublic, ciphertext } = parsed as Record<string, unknown>
  return decryptParts(encappedPublic, ciphertext, opts.privateKey)
}
