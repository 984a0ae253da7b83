/**
 * sign_raw_payload (wire-formats.md B4 `signRawPayload`): `{r, s, v}` as 64/64/2 lowercase hex, no `0x`.
 *
 * - secp256k1: ECDSA over the digest, RFC 6979 deterministic, low-S (Ethereum convention);
 *   v = recovery id "00"/"01".
 * - P-256: ECDSA over the digest (low-S), v = recovery bit.
 * - ed25519: signs the raw message bytes; r = signature[0:32], s = signature[32:64], v "00";
 *   requires HASH_FUNCTION_NOT_APPLICABLE (wire-formats.md B7).
 * - Digest: NO_OP takes the payload as the 32-byte digest; SHA256 / KECCAK256 hash the payload bytes.
 *   NOT_APPLICABLE is refused for ECDSA except with EIP712.
 * - EIP712 (secp256k1 only): payload is the typed-data JSON `{types, primaryType, domain, message}`,
 *   read by the one typed-data parse the policy engine also reads (typedData.ts: canonical, strict,
 *   depth-bounded), digest = keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(message)) of that. Sigil decision: the
 *   hash function is implied by the encoding, so NO_OP (what the official SDKs send),
 *   KECCAK256 and NOT_APPLICABLE are all accepted and mean that digest; SHA256 is refused.
 * - EIP7702_AUTHORIZATION (secp256k1 only): payload is the authorization JSON `@turnkey/viem`'s
 *   `signAuthorization` sends, `{address, chainId, nonce}` (eip7702.ts, the parse the policy facts
 *   read too), digest = keccak256(0x05 ‖ rlp([chainId, address, nonce])); v is the y parity.
 *   As for EIP712, NO_OP (what the SDK sends), KECCAK256 and NOT_APPLICABLE mean that digest.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { p256 } from '@noble/curves/nist.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { signTyped } from 'micro-eth-signer'
import { bytesToHex, hexToBytes, utf8Encode } from '../../crypto/encoding.js'
import { chainError } from '../errors.js'
import { authorizationDigest, parseAuthorizationPayload } from './eip7702.js'
import { signSecp256k1Digest } from './secp256k1.js'
import { parseTypedData } from './typedData.js'
import { type Curve, type HashFunction, type PayloadEncoding, isCurve } from '../types.js'

/** The sign_raw_payload result shape. */
export type RawSignature = { r: string; s: string; v: string }

/** Arguments of {@link signRawPayload}. */
export type SignRawPayloadArgs = {
  privateKey: Uint8Array
  curve: Curve
  payload: string
  encoding: PayloadEncoding
  hashFunction: HashFunction
}

const ENCODINGS: readonly string[] = [
  'PAYLOAD_ENCODING_HEXADECIMAL',
  'PAYLOAD_ENCODING_TEXT_UTF8',
  'PAYLOAD_ENCODING_EIP712',
  'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION',
]
const HASHES: readonly string[] = ['HASH_FUNCTION_NO_OP', 'HASH_FUNCTION_SHA256', 'HASH_FUNCTION_KECCAK256', 'HASH_FUNCTION_NOT_APPLICABLE']

/** Decodes the payload per its encoding (HEXADECIMAL: optional 0x, even length; TEXT_UTF8: UTF-8 bytes). */
export function decodePayload(payload: string, encoding: 'PAYLOAD_ENCODING_HEXADECIMAL' | 'PAYLOAD_ENCODING_TEXT_UTF8'): Uint8Array {
  if (typeof payload !== 'string') throw chainError('payload', 'must be a string')
  return encoding === 'PAYLOAD_ENCODING_HEXADECIMAL' ? hexToBytes(payload, 'payload') : utf8Encode(payload)
}

function digestOf(bytes: Uint8Array, hashFunction: HashFunction): Uint8Array {
  switch (hashFunction) {
    case 'HASH_FUNCTION_SHA256':
      return sha256(bytes)
    case 'HASH_FUNCTION_KECCAK256':
      return keccak_256(bytes)
    case 'HASH_FUNCTION_NO_OP':
      if (bytes.length !== 32) throw chainError('payload', 'HASH_FUNCTION_NO_OP needs a 32-byte digest payload')
      return bytes
    default:
      throw chainError(
        'hashFunction',
        `${hashFunction} is only valid for CURVE_ED25519, PAYLOAD_ENCODING_EIP712 or PAYLOAD_ENCODING_EIP7702_AUTHORIZATION`,
      )
  }
}

function fromRecovered(sig: Uint8Array): RawSignature {
  // noble 'recovered' format: [recovery, r(32), s(32)]
  return {
    r: bytesToHex(sig.subarray(1, 33)),
    s: bytesToHex(sig.subarray(33, 65)),
    v: (sig[0] ?? 0).toString(16).padStart(2, '0'),
  }
}

function signEip712(privateKey: Uint8Array, payload: string, hashFunction: HashFunction): RawSignature {
  if (hashFunction === 'HASH_FUNCTION_SHA256') {
    throw chainError('hashFunction', 'PAYLOAD_ENCODING_EIP712 uses the EIP-712 keccak256 digest')
  }
  // The one typed-data parse (typedData.ts): the canonical object it returns, from which the
  // policy facts are built too, is what is hashed; nothing the parse dropped or refused is signed.
  const { typed } = parseTypedData(payload)
  let sigHex: string
  try {
    sigHex = signTyped(typed as unknown as Parameters<typeof signTyped>[0], privateKey, false)
  } catch (e) {
    throw chainError('payload', `invalid EIP-712 typed data: ${e instanceof Error ? e.message.slice(0, 120) : 'unknown'}`)
  }
  const sig = hexToBytes(sigHex, 'signature')
  const vByte = sig[64] ?? 27
  return { r: bytesToHex(sig.subarray(0, 32)), s: bytesToHex(sig.subarray(32, 64)), v: (vByte - 27).toString(16).padStart(2, '0') }
}

function signEip7702(privateKey: Uint8Array, payload: string, hashFunction: HashFunction): RawSignature {
  if (hashFunction === 'HASH_FUNCTION_SHA256') {
    throw chainError('hashFunction', 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION uses the EIP-7702 keccak256 digest')
  }
  return fromRecovered(signSecp256k1Digest(authorizationDigest(parseAuthorizationPayload(payload)), privateKey))
}

/** Signs one raw payload with a derived private key (wire-formats.md B4 sign_raw_payload). */
export function signRawPayload(args: SignRawPayloadArgs): RawSignature {
  const { privateKey, curve, payload, encoding, hashFunction } = args
  if (!isCurve(curve)) throw chainError('curve', 'unknown curve')
  if (!ENCODINGS.includes(encoding)) throw chainError('encoding', 'unsupported payload encoding')
  if (!HASHES.includes(hashFunction)) throw chainError('hashFunction', 'unknown hash function')
  if (typeof payload !== 'string') throw chainError('payload', 'must be a string')

  if (encoding === 'PAYLOAD_ENCODING_EIP712') {
    if (curve !== 'CURVE_SECP256K1') throw chainError('encoding', 'PAYLOAD_ENCODING_EIP712 requires CURVE_SECP256K1')
    return signEip712(privateKey, payload, hashFunction)
  }
  if (encoding === 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION') {
    if (curve !== 'CURVE_SECP256K1') throw chainError('encoding', 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION requires CURVE_SECP256K1')
    return signEip7702(privateKey, payload, hashFunction)
  }
  const bytes = decodePayload(payload, encoding)

  if (curve === 'CURVE_ED25519') {
    if (hashFunction !== 'HASH_FUNCTION_NOT_APPLICABLE') {
      throw chainError('hashFunction', 'CURVE_ED25519 signing requires HASH_FUNCTION_NOT_APPLICABLE')
    }
    const sig = ed25519.sign(bytes, privateKey)
    return { r: bytesToHex(sig.subarray(0, 32)), s: bytesToHex(sig.subarray(32, 64)), v: '00' }
  }

  const digest = digestOf(bytes, hashFunction)
  const opts = { prehash: false, lowS: true, format: 'recovered' } as const
  const sig = curve === 'CURVE_SECP256K1' ? signSecp256k1Digest(digest, privateKey) : p256.sign(digest, privateKey, opts)
  return fromRecovered(sig)
}
