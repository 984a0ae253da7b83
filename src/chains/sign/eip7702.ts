/**
 * EIP-7702 authorizations: the tuple `[chain_id, address, nonce]` an EOA signs to set its code to a
 * delegation designator (`0xef0100 ‖ address`) when a type-4 transaction carries it.
 *
 * - Digest: keccak256(0x05 ‖ rlp([chain_id, address, nonce])) (EIP-7702 "MAGIC" 0x05), RLP by
 *   micro-eth-signer.
 * - The payload of sign_raw_payload with PAYLOAD_ENCODING_EIP7702_AUTHORIZATION is the JSON
 *   `@turnkey/viem`'s `signAuthorization` sends: `{"address":"0x…","chainId":31337,"nonce":0}`
 *   (numbers; decimal or 0x-hex strings are accepted too). Nothing else is allowed in it, so what
 *   is signed is exactly what policies read.
 * - chain_id 0 (valid on every chain) is accepted, as EIP-7702 allows; a policy can refuse it
 *   (`eth.eip_7702_authorization.chain_id`).
 */
import { keccak_256 } from '@noble/hashes/sha3.js'
import { RLP } from 'micro-eth-signer/core/rlp.js'
import { bytesToHex, hexToBytes } from '../../crypto/encoding.js'
import { chainError } from '../errors.js'
import { signSecp256k1Digest } from './secp256k1.js'

/** One authorization: `address` is the delegate, lowercase `0x` hex. */
export type Authorization = { chainId: bigint; address: string; nonce: bigint }

/** A signed authorization (the tuple a type-4 transaction's authorization list holds). */
export type SignedAuthorization = Authorization & { r: bigint; s: bigint; yParity: 0 | 1 }

const MAX_UINT64 = (1n << 64n) - 1n
const MAX_UINT256 = (1n << 256n) - 1n
const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/** keccak256(0x05 ‖ rlp([chainId, address, nonce])): the digest the authority signs. */
export function authorizationDigest(auth: Authorization): Uint8Array {
  const rlp = RLP.encode([auth.chainId, hexToBytes(auth.address, 'payload'), auth.nonce])
  const bytes = new Uint8Array(rlp.length + 1)
  bytes[0] = 0x05
  bytes.set(rlp, 1)
  return keccak_256(bytes)
}

/** An unsigned integer of the payload: a safe integer number, or a decimal or 0x-hex string. */
function integer(value: unknown, field: string, max: bigint): bigint {
  let n: bigint | undefined
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) n = BigInt(value)
  else if (typeof value === 'string' && /^(0|[1-9][0-9]{0,77}|0x[0-9a-fA-F]{1,64})$/.test(value)) n = BigInt(value)
  if (n === undefined) throw chainError('payload', `${field} must be a non-negative integer (a number, or a decimal or 0x-hex string)`)
  if (n > max) throw chainError('payload', `${field} is out of range (at most ${max === MAX_UINT64 ? '2^64-1' : '2^256-1'})`)
  return n
}

/**
 * The authorization in a PAYLOAD_ENCODING_EIP7702_AUTHORIZATION payload: a JSON object with exactly
 * `address`, `chainId` and `nonce` (`contractAddress` is accepted for `address`, as `@turnkey/viem`
 * reads either). Throws an INVALID_ARGUMENT naming `payload` and the member at fault.
 */
export function parseAuthorizationPayload(payload: string): Authorization {
  if (typeof payload !== 'string') throw chainError('payload', 'must be a string')
  let json: unknown
  try {
    json = JSON.parse(payload)
  } catch {
    throw chainError('payload', 'an EIP-7702 authorization must be the JSON object {"address","chainId","nonce"}')
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw chainError('payload', 'an EIP-7702 authorization must be the JSON object {"address","chainId","nonce"}')
  }
  const o = json as Record<string, unknown>
  const extra = Object.keys(o).filter((k) => k !== 'address' && k !== 'contractAddress' && k !== 'chainId' && k !== 'nonce')
  if (extra.length > 0)
    throw chainError('payload', `unknown member ${JSON.stringify(extra[0]?.slice(0, 40))} in the EIP-7702 authorization`)
  if ('address' in o && 'contractAddress' in o) throw chainError('payload', 'give address or contractAddress, not both')
  const address = o.address ?? o.contractAddress
  if (typeof address !== 'string' || !ADDRESS.test(address)) {
    throw chainError('payload', 'payload.address must be the delegate contract address (0x and 40 hex digits)')
  }
  return {
    address: address.toLowerCase(),
    chainId: integer(o.chainId, 'payload.chainId', MAX_UINT256),
    nonce: integer(o.nonce, 'payload.nonce', MAX_UINT64),
  }
}

/** Signs `auth` with `privateKey` (secp256k1, RFC 6979, low-S) through the installed signer. */
export function signAuthorization(privateKey: Uint8Array, auth: Authorization): SignedAuthorization {
  const sig = signSecp256k1Digest(authorizationDigest(auth), privateKey)
  return {
    chainId: auth.chainId,
    address: auth.address.toLowerCase(),
    nonce: auth.nonce,
    r: BigInt(`0x${bytesToHex(sig.subarray(1, 33))}`),
    s: BigInt(`0x${bytesToHex(sig.subarray(33, 65))}`),
    yParity: sig[0] === 1 ? 1 : 0,
  }
}
