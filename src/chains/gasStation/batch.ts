/**
 * Encoding for SigilBatchExecutor (the Gas Station delegate): the EIP-712 `BatchExecution` an
 * account signs, the `execute` calldata a sponsor (or the account) submits, the contract's revert
 * errors, and what an account's code says about its EIP-7702 delegation. All ABI work goes through
 * viem with the compiled ABI, so these stay in step with the contract.
 */
import {
  type Hex,
  type TypedDataDefinition,
  decodeErrorResult,
  encodeFunctionData,
  hashTypedData,
  hexToBytes,
  isHex,
  numberToHex,
  serializeSignature,
} from 'viem'
import { BATCH_EXECUTOR_ABI } from './artifact.js'

/** One call of a batch, run as the account: `to.call{value}(data)`. */
export type BatchCall = { to: `0x${string}`; value: bigint; data: `0x${string}` }

/** What identifies one batch signature: the chain, the delegated account, its calls, nonce and deadline (Unix seconds). */
export type BatchArgs = { chainId: number; account: string; calls: BatchCall[]; nonce: bigint; deadline: bigint }

/** A secp256k1 signature as parts (r and s as bigints or hex) or as 65 bytes r ‖ s ‖ v hex. */
export type BatchSignature = { r: bigint | string; s: bigint | string; yParity: 0 | 1 } | `0x${string}`

/** What {@link decodeBatchRevert} makes of the contract's errors. */
export type BatchRevert = { index: number; reason: `0x${string}` } | { expired: bigint } | { badSignature: true }

/** What an account's code says about its EIP-7702 delegation. */
export type Delegation = { kind: 'none' } | { kind: 'delegated'; to: string } | { kind: 'contract' }

/**
 * The ERC-7201 slot (`sigil.batchexecutor`) holding the batch nonce in the account's own storage:
 * readable with eth_getStorageAt whether or not the account is delegated right now.
 */
export const BATCH_NONCE_SLOT = '0xece33e34f7c4470278efbffe9457cde32314b673bccab8193f9ae8d2ffb32300'

const BATCH_TYPES = {
  Call: [
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'data', type: 'bytes' },
  ],
  BatchExecution: [
    { name: 'calls', type: 'Call[]' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const

/** The typed data type of one batch signature. */
export type BatchTypedData = TypedDataDefinition<typeof BATCH_TYPES, 'BatchExecution'>

/**
 * The EIP-712 `BatchExecution` the account signs: domain "Sigil Batch Executor" version 1 on
 * `chainId`, verifying contract the account itself (the delegate runs as the account).
 */
export function batchTypedData(args: BatchArgs): BatchTypedData {
  return {
    domain: { name: 'Sigil Batch Executor', version: '1', chainId: args.chainId, verifyingContract: args.account as Hex },
    types: BATCH_TYPES,
    primaryType: 'BatchExecution',
    message: {
      calls: args.calls.map((c) => ({ to: c.to, value: c.value, data: c.data })),
      nonce: args.nonce,
      deadline: args.deadline,
    },
  }
}

/** The 32-byte digest of {@link batchTypedData}; equal to the contract's `batchDigest(calls, nonce, deadline)`. */
export function batchDigest(args: BatchArgs): Uint8Array {
  return hexToBytes(hashTypedData(batchTypedData(args)))
}

/** The calldata of `execute(calls, deadline, signature)`, the signature packed as r ‖ s ‖ v (v 27 or 28). */
export function encodeExecute(calls: BatchCall[], deadline: bigint, signature: BatchSignature): `0x${string}` {
  return encodeFunctionData({
    abi: BATCH_EXECUTOR_ABI,
    functionName: 'execute',
    args: [calls.map((c) => ({ to: c.to, value: c.value, data: c.data })), deadline, packSignature(signature)],
  })
}

function packSignature(signature: BatchSignature): Hex {
  if (typeof signature === 'string') {
    if (!isHex(signature, { strict: true }) || signature.length !== 132)
      throw new TypeError('signature: expected 65 bytes (0x and 130 hex digits) r ‖ s ‖ v')
    return signature
  }
  if (signature.yParity !== 0 && signature.yParity !== 1) throw new TypeError('signature.yParity: expected 0 or 1')
  return serializeSignature({ r: word(signature.r, 'r'), s: word(signature.s, 's'), yParity: signature.yParity })
}

function word(value: bigint | string, field: 'r' | 's'): Hex {
  const n =
    typeof value === 'bigint' ? value : /^(0x)?[0-9a-fA-F]{1,64}$/.test(value) ? BigInt(value.startsWith('0x') ? value : `0x${value}`) : -1n
  if (n <= 0n || n >= 2n ** 256n) throw new TypeError(`signature.${field}: expected a non-zero 32-byte integer`)
  return numberToHex(n, { size: 32 })
}

/**
 * The contract's error in revert `data`: which call failed (0-based) and its own revert data, an
 * expired deadline, or a signature that is not the account's (or not for its current nonce).
 * undefined for anything else (no data, another contract's error, a malformed payload).
 */
export function decodeBatchRevert(data: string | undefined): BatchRevert | undefined {
  if (!data || !isHex(data, { strict: true }) || data.length < 10) return undefined
  try {
    const decoded = decodeErrorResult({ abi: BATCH_EXECUTOR_ABI, data })
    switch (decoded.errorName) {
      case 'CallFailed': {
        const [index, reason] = decoded.args
        return index <= BigInt(Number.MAX_SAFE_INTEGER) ? { index: Number(index), reason } : undefined
      }
      case 'Expired':
        return { expired: decoded.args[0] }
      case 'BadSignature':
        return { badSignature: true }
      default:
        return undefined
    }
  } catch {
    return undefined
  }
}

const DESIGNATOR = /^0xef0100([0-9a-fA-F]{40})$/

/**
 * What eth_getCode's answer says about an account: no code (`0x`), an EIP-7702 delegation
 * designator `0xef0100 ‖ address` (the delegate, lowercase), or a contract's own code.
 */
export function delegationOf(code: string): Delegation {
  if (code === '' || code === '0x' || code === '0X') return { kind: 'none' }
  const m = DESIGNATOR.exec(code)
  return m ? { kind: 'delegated', to: `0x${(m[1] as string).toLowerCase()}` } : { kind: 'contract' }
}
