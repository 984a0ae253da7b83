/**
 * sol_send_transaction (service-interface.md SOL_SEND_TRANSACTION; hosted OpenAPI
 * v1SolSendTransactionIntent): signs an unsigned (or partly signed) transaction with
 * `signWith`, broadcasts it and tracks it.
 */
import { z } from 'zod'
import { boundedArray } from '../fields.js'
import { MAX_SOL_SIGNERS } from '../limits.js'
import { defineSubmit } from '../operation.js'
import { SendTransactionResult } from './eth_send_transaction.js'

const Common = {
  /** The transaction in full wire format, hex; unsigned signature slots are zeroes. */
  unsignedTransaction: z
    .string()
    .max(2 * 4096 + 2)
    .regex(/^(0x)?([0-9a-fA-F]{2})+$/, { error: 'expected hex bytes of a serialized transaction' }),
  caip2: z.string().min(1, { error: 'required' }).max(64),
  sponsor: z.boolean().optional(),
  recentBlockhash: z
    .string()
    .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, { error: 'expected a base58 blockhash' })
    .optional(),
}
const SignWith = z.string().min(1, { error: 'required' }).max(64)

/** ACTIVITY_TYPE_SOL_SEND_TRANSACTION: one account signs. */
export const solSendTransactionV1 = defineSubmit({
  name: 'sol_send_transaction_v1',
  path: '/public/v1/submit/sol_send_transaction',
  type: 'ACTIVITY_TYPE_SOL_SEND_TRANSACTION',
  intentKey: 'solSendTransactionIntent',
  resultKey: 'solSendTransactionResult',
  parameters: z.object({ ...Common, signWith: SignWith }),
  result: SendTransactionResult,
})

/** ACTIVITY_TYPE_SOL_SEND_TRANSACTION_V2 (the hosted service's current form): each of `signWiths` signs. */
export const solSendTransaction = defineSubmit({
  name: 'sol_send_transaction',
  path: '/public/v1/submit/sol_send_transaction',
  type: 'ACTIVITY_TYPE_SOL_SEND_TRANSACTION_V2',
  intentKey: 'solSendTransactionIntentV2',
  resultKey: 'solSendTransactionResultV2',
  parameters: z.object({ ...Common, signWiths: boundedArray(SignWith, MAX_SOL_SIGNERS).min(1, { error: 'at least one signer' }) }),
  result: SendTransactionResult,
})
