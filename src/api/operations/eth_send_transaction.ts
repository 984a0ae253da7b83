/**
 * eth_send_transaction (service-interface.md ETH_SEND_TRANSACTION; hosted OpenAPI
 * v1EthSendTransactionIntent and V2): Sigil fills what is omitted, signs with `from`,
 * broadcasts and tracks; the result names the send to poll with get_send_transaction_status.
 */
import { z } from 'zod'
import { boundedArray } from '../fields.js'
import { MAX_ETH_CALLS } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** A 0x-prefixed 20-byte address. */
export const EvmAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, { error: 'expected a 0x-prefixed 20-byte hex address' })
/** An unsigned integer below 2^256, as decimal digits or 0x-prefixed hex. */
export const Quantity = z
  .string()
  .regex(/^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$/, { error: 'expected an unsigned integer (decimal or 0x-hex)' })
  // zod runs refinements after a failed regex too: only parse what the regex accepted
  .refine((s) => !/^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$/.test(s) || BigInt(s) < 2n ** 256n, { error: 'must be below 2^256' })
/** 0x-prefixed hex bytes (call data), at most 128 KiB. */
export const HexData = z
  .string()
  .max(2 + 2 * 128 * 1024, { error: 'at most 128 KiB' })
  .regex(/^0x([0-9a-fA-F]{2})*$/, { error: 'expected 0x-prefixed hex bytes' })
const Caip2 = z.string().min(1, { error: 'required' }).max(64)

const Fees = {
  nonce: Quantity.optional(),
  gasLimit: Quantity.optional(),
  maxFeePerGas: Quantity.optional(),
  maxPriorityFeePerGas: Quantity.optional(),
  sponsor: z.boolean().optional(),
  deadline: z.string().max(32).optional(),
  gasStationNonce: z.string().max(80).optional(),
}

export const EthCall = z.object({ to: EvmAddress, value: Quantity.optional(), data: HexData.optional() })
export type EthCall = z.infer<typeof EthCall>
/** A call of ETH_SEND_TRANSACTION_V2: without `to` it deploys a contract (`data` is its creation code; one unsponsored call only). */
export const EthCallV2 = EthCall.extend({ to: EvmAddress.optional() })

export const SendTransactionResult = z.object({ sendTransactionStatusId: z.string() })

/** ACTIVITY_TYPE_ETH_SEND_TRANSACTION: one call given inline. */
export const ethSendTransactionV1 = defineSubmit({
  name: 'eth_send_transaction_v1',
  path: '/public/v1/submit/eth_send_transaction',
  type: 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION',
  intentKey: 'ethSendTransactionIntent',
  resultKey: 'ethSendTransactionResult',
  parameters: z.object({ from: EvmAddress, caip2: Caip2, ...EthCall.shape, ...Fees }),
  result: SendTransactionResult,
})

/**
 * ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2: the hosted service's current form, with `calls`. One
 * unsponsored call is an EIP-1559 transaction; several calls, or `sponsor: true`, run as one
 * atomic EIP-7702 batch through the network's Gas Station (paid by the network's sponsor when
 * sponsored). `deadline` (unix seconds) bounds the batch signature; `gasStationNonce` pins its nonce.
 */
export const ethSendTransaction = defineSubmit({
  name: 'eth_send_transaction',
  path: '/public/v1/submit/eth_send_transaction',
  type: 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2',
  intentKey: 'ethSendTransactionIntentV2',
  resultKey: 'ethSendTransactionResultV2',
  parameters: z.object({
    from: EvmAddress,
    caip2: Caip2,
    calls: boundedArray(EthCallV2, MAX_ETH_CALLS).min(1, { error: 'at least one call' }),
    ...Fees,
  }),
  result: SendTransactionResult,
})
