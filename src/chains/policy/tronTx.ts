/**
 * `tron.tx` of the policy language (tkhq/docs features/policies/language, structs "TronTransaction",
 * "TronContract"; examples features/policies/examples/tron): what sign_transaction
 * TRANSACTION_TYPE_TRON signs, read from the same raw data by the signer's protobuf reader
 * (chains/sign/tronTransaction.ts).
 *
 * Shown: `ref_block_bytes`, `ref_block_hash`, `data` (hex), `expiration`, `timestamp`, `fee_limit`
 * (protobuf defaults, `''` and 0, when the field is absent, as a protobuf decoder gives them), and
 * per contract `type` (its Tron.proto `ContractType` name; `UNKNOWN_<n>` for a number not listed
 * here) and `permission_id`; for `TransferContract` also `owner_address`, `to_address`, `amount`;
 * for `TriggerSmartContract` `owner_address`, `contract_address`, `call_value`, `data` (hex, no
 * `0x`), `call_token_value`, `token_id`. Addresses are base58check `T…`. Other contract types'
 * parameters are not decoded (no maintained protobuf decoder is among the dependencies): a policy
 * reading their fields meets a missing field, which does not allow and, in a DENY, denies.
 * A parameter whose `type_url` names another message than its contract type is not read: the whole
 * transaction is unreadable to the caller (undefined).
 * Pure: no database, no network.
 */
import { createBase58check } from '@scure/base'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '../../crypto/encoding.js'
import { type ProtoField, TRON_RAW, readProto, tronRawBytes } from '../sign/tronTransaction.js'

export type TronContractFacts = {
  type: string
  permission_id: bigint
  owner_address?: string
  to_address?: string
  amount?: bigint
  contract_address?: string
  call_value?: bigint
  data?: string
  call_token_value?: bigint
  token_id?: bigint
}
/** The `tron.tx` namespace. */
export type TronTxFacts = {
  ref_block_bytes: string
  ref_block_hash: string
  expiration: bigint
  timestamp: bigint
  data: string
  fee_limit: bigint
  contract: readonly TronContractFacts[]
}

/** Tron.proto `Transaction.Contract.ContractType`, the numbers of the contracts wallets send most. */
const CONTRACT_TYPES: Readonly<Record<number, string>> = {
  0: 'AccountCreateContract',
  1: 'TransferContract',
  2: 'TransferAssetContract',
  4: 'VoteWitnessContract',
  30: 'CreateSmartContract',
  31: 'TriggerSmartContract',
  46: 'AccountPermissionUpdateContract',
  54: 'FreezeBalanceV2Contract',
  55: 'UnfreezeBalanceV2Contract',
  57: 'DelegateResourceContract',
  58: 'UnDelegateResourceContract',
}

const base58check = createBase58check(sha256)

/** A 21-byte Tron address (0x41 ‖ 20 bytes) in base58check; other lengths as hex (never a valid `T…`). */
function address(b: Uint8Array): string {
  return b.length === 21 && b[0] === 0x41 ? base58check.encode(b) : bytesToHex(b)
}

const bytesOf = (fields: readonly ProtoField[], n: number): Uint8Array => {
  const f = fields.findLast((x) => x.field === n && x.wire === 2)
  return f && f.wire === 2 ? f.value : new Uint8Array()
}
/** An int64 field (two's complement of the varint), 0 when absent. */
const intOf = (fields: readonly ProtoField[], n: number): bigint => {
  const f = fields.findLast((x) => x.field === n && x.wire === 0)
  return f && f.wire === 0 ? BigInt.asIntN(64, f.value) : 0n
}

/** One contract; undefined when its parameter names another message than its type. */
function contractFacts(bytes: Uint8Array): TronContractFacts | undefined {
  const c = readProto(bytes)
  const typeNumber = Number(intOf(c, 1))
  const type = CONTRACT_TYPES[typeNumber] ?? `UNKNOWN_${typeNumber}`
  const facts: TronContractFacts = { type, permission_id: intOf(c, 5) }
  if (type !== 'TransferContract' && type !== 'TriggerSmartContract') return facts
  const any = readProto(bytesOf(c, 2))
  const typeUrl = new TextDecoder().decode(bytesOf(any, 1))
  if (typeUrl !== `type.googleapis.com/protocol.${type}`) return undefined
  const p = readProto(bytesOf(any, 2))
  if (type === 'TransferContract') {
    return { ...facts, owner_address: address(bytesOf(p, 1)), to_address: address(bytesOf(p, 2)), amount: intOf(p, 3) }
  }
  return {
    ...facts,
    owner_address: address(bytesOf(p, 1)),
    contract_address: address(bytesOf(p, 2)),
    call_value: intOf(p, 3),
    data: bytesToHex(bytesOf(p, 4)),
    call_token_value: intOf(p, 5),
    token_id: intOf(p, 6),
  }
}

/**
 * `tron.tx` of a transaction's raw data (hex), undefined when a contract's parameter cannot be read.
 * @throws INVALID_ARGUMENT naming unsignedTransaction when it is not a Tron transaction's raw data
 */
export function tronTxFromRawHex(hex: string): TronTxFacts | undefined {
  const raw = readProto(tronRawBytes(hex))
  const contract: TronContractFacts[] = []
  for (const f of raw) {
    if (f.field !== TRON_RAW.contract || f.wire !== 2) continue
    const c = contractFacts(f.value)
    if (!c) return undefined
    contract.push(c)
  }
  return {
    ref_block_bytes: bytesToHex(bytesOf(raw, TRON_RAW.refBlockBytes)),
    ref_block_hash: bytesToHex(bytesOf(raw, TRON_RAW.refBlockHash)),
    expiration: intOf(raw, TRON_RAW.expiration),
    timestamp: intOf(raw, TRON_RAW.timestamp),
    data: bytesToHex(bytesOf(raw, TRON_RAW.data)),
    fee_limit: intOf(raw, TRON_RAW.feeLimit),
    contract,
  }
}
