/** sign_transaction (wire-formats B4 signTransaction). */
import { z } from 'zod'
import { TransactionType } from '../enums.js'
import { defineSubmit } from '../operation.js'

/** Signs an unsigned transaction: ACTIVITY_TYPE_SIGN_TRANSACTION_V2; result hex without 0x. */
export const signTransaction = defineSubmit({
  name: 'sign_transaction',
  path: '/public/v1/submit/sign_transaction',
  type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
  intentKey: 'signTransactionIntentV2',
  resultKey: 'signTransactionResult',
  parameters: z.object({
    signWith: z.string().min(1, { error: 'required' }),
    unsignedTransaction: z.string(),
    type: TransactionType,
  }),
  result: z.object({ signedTransaction: z.string() }),
})

/** ACTIVITY_TYPE_SIGN_TRANSACTION, on the same path: the key named by `privateKeyId` (an id or address, as `signWith`). */
export const signTransactionV1 = defineSubmit({
  name: 'sign_transaction_v1',
  path: '/public/v1/submit/sign_transaction',
  type: 'ACTIVITY_TYPE_SIGN_TRANSACTION',
  intentKey: 'signTransactionIntent',
  resultKey: 'signTransactionResult',
  parameters: z.object({
    privateKeyId: z.string().min(1, { error: 'required' }),
    unsignedTransaction: z.string(),
    type: TransactionType,
  }),
  result: z.object({ signedTransaction: z.string() }),
})
