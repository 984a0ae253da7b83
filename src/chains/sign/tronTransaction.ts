/**
 * sign_transaction TRANSACTION_TYPE_TRON (hosted docs networks/tron and the tkhq/sdk Tron examples:
 * `unsignedTransaction` is TronWeb's `raw_data_hex`, the protobuf `Transaction.raw`;
 * `signedTransaction` is the whole signed `Transaction` protobuf, hex, which
 * `tronWeb.trx.sendHexTransaction` broadcasts).
 *
 * The signature is secp256k1 over sha256(raw_data) (the transaction id), 65 bytes r ‖ s ‖ v with
 * v = 27 + recovery id, as TronWeb writes it (RFC 6979, low-S: ./secp256k1.ts). A multi-signature
 * permission's other signers sign the same raw data; their signatures are joined by the caller.
 *
 * No maintained protobuf decoder is among the dependencies, so the raw data is read here by a small
 * strict reader of the protobuf wire format (varints of at most 10 bytes, length-delimited fields
 * inside their bounds; groups refused), and only the fields of `Transaction.raw`, `Contract` and the
 * `TransferContract` / `TriggerSmartContract` parameters that the policy namespace shows are given
 * meaning (java-tron `protocol/Tron.proto`, `contract/balance_contract.proto`,
 * `contract/smart_contract.proto`). Bytes that do not parse are not signed.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, concatBytes, hexToBytes } from '../../crypto/encoding.js'
import { chainError } from '../errors.js'
import { signSecp256k1Digest } from './secp256k1.js'

/** One protobuf field: a varint (wire type 0), bytes (2), or a fixed 64/32-bit value (1, 5) as its bytes. */
export type ProtoField = { field: number; wire: 0; value: bigint } | { field: number; wire: 1 | 2 | 5; value: Uint8Array }

/** Reads a varint at `at`; [value, next offset]. @throws Error when truncated or longer than 10 bytes */
function varint(b: Uint8Array, at: number): [bigint, number] {
  let v = 0n
  for (let i = 0; i < 10; i++) {
    const byte = b[at + i]
    if (byte === undefined) throw new Error('truncated varint')
    v |= BigInt(byte & 0x7f) << BigInt(7 * i)
    if ((byte & 0x80) === 0) return [v, at + i + 1]
  }
  throw new Error('varint longer than 10 bytes')
}

/** The fields of one protobuf message, in order. @throws Error on any malformed field */
export function readProto(b: Uint8Array): ProtoField[] {
  const out: ProtoField[] = []
  let at = 0
  while (at < b.length) {
    const [key, next] = varint(b, at)
    at = next
    const field = Number(key >> 3n)
    const wire = Number(key & 7n)
    if (field < 1 || field > 536_870_911) throw new Error('bad field number')
    if (wire === 0) {
      const [value, n] = varint(b, at)
      out.push({ field, wire, value })
      at = n
    } else if (wire === 2 || wire === 1 || wire === 5) {
      let len: number
      if (wire === 2) {
        const [l, n] = varint(b, at)
        if (l > BigInt(b.length - n)) throw new Error('length past the end')
        len = Number(l)
        at = n
      } else len = wire === 1 ? 8 : 4
      if (at + len > b.length) throw new Error('truncated field')
      out.push({ field, wire, value: b.subarray(at, at + len) })
      at += len
    } else throw new Error(`unsupported wire type ${wire}`)
  }
  return out
}

/** Arguments of {@link signTronTransaction}; `privateKey` is the 32-byte secp256k1 key. */
export type SignTronTransactionArgs = { privateKey: Uint8Array; unsignedTransaction: string }

/** `Transaction.raw` field numbers (Tron.proto). */
export const TRON_RAW = {
  refBlockBytes: 1,
  refBlockNum: 3,
  refBlockHash: 4,
  expiration: 8,
  data: 10,
  contract: 11,
  timestamp: 14,
  feeLimit: 18,
} as const

/**
 * The raw data's bytes, checked to be a `Transaction.raw` with at least one contract.
 * @throws INVALID_ARGUMENT naming unsignedTransaction otherwise
 */
export function tronRawBytes(text: string): Uint8Array {
  const raw = hexToBytes(text.trim(), 'unsignedTransaction')
  if (raw.length === 0) throw chainError('unsignedTransaction', 'empty; expected the raw_data_hex of a Tron transaction')
  let fields: ProtoField[]
  try {
    fields = readProto(raw)
    for (const f of fields) if (f.field === TRON_RAW.contract && f.wire === 2) readProto(f.value)
  } catch (e) {
    throw chainError('unsignedTransaction', `not a Tron transaction's raw data: ${e instanceof Error ? e.message : 'malformed'}`)
  }
  if (!fields.some((f) => f.field === TRON_RAW.contract && f.wire === 2)) {
    throw chainError('unsignedTransaction', "not a Tron transaction's raw data: it has no contract")
  }
  return raw
}

/** A protobuf length-delimited field. */
function lengthDelimited(field: number, value: Uint8Array): Uint8Array {
  const len: number[] = []
  let n = value.length
  do {
    len.push((n & 0x7f) | (n > 0x7f ? 0x80 : 0))
    n >>>= 7
  } while (n > 0)
  return concatBytes(new Uint8Array([(field << 3) | 2, ...len]), value)
}

/** Signs a Tron transaction's raw data (hex); returns the signed `Transaction` protobuf as hex (no `0x`). */
export function signTronTransaction(args: SignTronTransactionArgs): string {
  const raw = tronRawBytes(args.unsignedTransaction)
  const sig = signSecp256k1Digest(sha256(raw), args.privateKey)
  // The signer's layout is recovery ‖ r ‖ s; TronWeb's is r ‖ s ‖ (27 + recovery).
  const rsv = concatBytes(sig.subarray(1, 65), new Uint8Array([27 + (sig[0] as number)]))
  return bytesToHex(concatBytes(lengthDelimited(1, raw), lengthDelimited(2, rsv)))
}
