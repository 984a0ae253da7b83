/**
 * `eth_signTransaction` params (EIP-1474 transaction object) → an unsigned serialized
 * transaction for sign_transaction TRANSACTION_TYPE_ETHEREUM (micro-eth-signer builds it).
 * Nonce, gas and fees must be present: what the dApp leaves out is filled from the network's
 * node first (ethFill.ts); the chain id must be the selected chain. A transaction without `to`
 * creates a contract: its data (the creation code) must then be non-empty.
 */
import { Transaction } from 'micro-eth-signer'
import { z } from 'zod'
import type { GasPrice } from '../../approval/text'

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/)
const quantity = z.string().regex(/^0x(0|[1-9a-fA-F][0-9a-fA-F]{0,63})$/)
const data = z
  .string()
  .max(262_144)
  .regex(/^0x([0-9a-fA-F]{2})*$/)

/** The transaction object a dApp sends (unknown fields ignored). */
export const TransactionRequest = z.object({
  from: address,
  to: address.optional(),
  value: quantity.optional(),
  data: data.optional(),
  input: data.optional(),
  gas: quantity.optional(),
  gasLimit: quantity.optional(),
  gasPrice: quantity.optional(),
  maxFeePerGas: quantity.optional(),
  maxPriorityFeePerGas: quantity.optional(),
  nonce: quantity.optional(),
  chainId: quantity.optional(),
})
/** A parsed {@link TransactionRequest}. */
export type TransactionRequest = z.output<typeof TransactionRequest>

/** Largest creation code a transaction may carry (EIP-3860: 2 × the 24,576-byte code limit). */
export const MAX_INITCODE_BYTES = 49_152

/** The call a transaction makes, checked (`to` null: a contract creation); or why it is refused (-32602). */
export function checkSendParams(
  tx: TransactionRequest,
  chainId: `0x${string}`,
): { ok: true; to: string | null; value: bigint; data: string } | { ok: false; reason: string } {
  if (tx.chainId !== undefined && BigInt(tx.chainId) !== BigInt(chainId)) {
    return { ok: false, reason: `chainId ${tx.chainId} is not this site's active chain ${chainId}` }
  }
  if (tx.data !== undefined && tx.input !== undefined && tx.data.toLowerCase() !== tx.input.toLowerCase())
    return { ok: false, reason: 'data and input differ' }
  const payload = tx.data ?? tx.input ?? '0x'
  if (tx.to === undefined) {
    if (payload === '0x') return { ok: false, reason: 'data is required when to is absent (the code of the contract to deploy)' }
    if ((payload.length - 2) / 2 > MAX_INITCODE_BYTES)
      return {
        ok: false,
        reason: `data is ${(payload.length - 2) / 2} bytes: contract creation code is at most ${MAX_INITCODE_BYTES} bytes`,
      }
  }
  if (tx.gasPrice !== undefined && tx.maxFeePerGas !== undefined) return { ok: false, reason: 'gasPrice and maxFeePerGas are exclusive' }
  const max = tx.maxFeePerGas ?? tx.gasPrice
  const prio = tx.maxPriorityFeePerGas ?? (tx.gasPrice !== undefined ? tx.gasPrice : undefined)
  if (max !== undefined && prio !== undefined && BigInt(prio) > BigInt(max))
    return { ok: false, reason: 'maxPriorityFeePerGas exceeds maxFeePerGas' }
  const gas = tx.gas ?? tx.gasLimit
  if (gas !== undefined && (BigInt(gas) < 21_000n || BigInt(gas) > 100_000_000n)) return { ok: false, reason: 'gas out of range' }
  return { ok: true, to: tx.to ?? null, value: BigInt(tx.value ?? '0x0'), data: payload }
}

/** The unsigned transaction, or why it cannot be built (shown to the dApp as -32602). */
export type BuiltTransaction =
  | { ok: true; unsignedHex: string; to: string | null; valueWei: bigint; data: string; nonce: bigint; gas: bigint; price: GasPrice }
  | { ok: false; reason: string }

/** Build the unsigned serialized transaction for `tx` on `chainId`. */
export function buildUnsignedTransaction(tx: TransactionRequest, chainId: `0x${string}`): BuiltTransaction {
  if (tx.chainId !== undefined && BigInt(tx.chainId) !== BigInt(chainId))
    return { ok: false, reason: 'chainId does not match the selected chain' }
  if (tx.data !== undefined && tx.input !== undefined && tx.data.toLowerCase() !== tx.input.toLowerCase()) {
    return { ok: false, reason: 'data and input differ' }
  }
  const payload = tx.data ?? tx.input ?? '0x'
  if (tx.to === undefined && payload === '0x') return { ok: false, reason: 'data is required when to is absent (contract creation)' }
  const gasQ = tx.gas ?? tx.gasLimit
  if (tx.nonce === undefined || gasQ === undefined)
    return { ok: false, reason: 'nonce and gas are required (Sigil has no RPC node for this chain)' }
  const common = {
    // micro-eth-signer's empty address is a creation transaction (its `to` is RLP-encoded as empty).
    to: tx.to ?? '0x',
    value: BigInt(tx.value ?? '0x0'),
    data: payload,
    nonce: BigInt(tx.nonce),
    gasLimit: BigInt(gasQ),
    chainId: BigInt(chainId),
  }
  let prepared: ReturnType<typeof Transaction.prepare>
  let price: GasPrice
  try {
    if (tx.maxFeePerGas !== undefined) {
      if (tx.gasPrice !== undefined) return { ok: false, reason: 'gasPrice and maxFeePerGas are exclusive' }
      const maxFeePerGas = BigInt(tx.maxFeePerGas)
      const maxPriorityFeePerGas = BigInt(tx.maxPriorityFeePerGas ?? tx.maxFeePerGas)
      prepared = Transaction.prepare({ type: 'eip1559', ...common, maxFeePerGas, maxPriorityFeePerGas })
      price = { maxFeePerGas, maxPriorityFeePerGas }
    } else if (tx.gasPrice !== undefined) {
      const gasPrice = BigInt(tx.gasPrice)
      prepared = Transaction.prepare({ type: 'legacy', ...common, gasPrice })
      price = { gasPrice }
    } else {
      return { ok: false, reason: 'gasPrice or maxFeePerGas is required (Sigil has no RPC node for this chain)' }
    }
  } catch (e) {
    return { ok: false, reason: `invalid transaction: ${e instanceof Error ? e.message.slice(0, 120) : 'unknown'}` }
  }
  return {
    ok: true,
    unsignedHex: prepared.toHex({ includeSignature: false }),
    to: tx.to ?? null,
    valueWei: common.value,
    data: payload,
    nonce: common.nonce,
    gas: common.gasLimit,
    price,
  }
}
