/**
 * eth_send_raw_transaction (service-interface.md ETH_SEND_RAW_TRANSACTION; hosted OpenAPI
 * v1EthSendRawTransactionIntent): broadcasts a transaction the caller signed.
 */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'

export const ethSendRawTransaction = defineSubmit({
  name: 'eth_send_raw_transaction',
  path: '/public/v1/submit/eth_send_raw_transaction',
  type: 'ACTIVITY_TYPE_ETH_SEND_RAW_TRANSACTION',
  intentKey: 'ethSendRawTransactionIntent',
  resultKey: 'ethSendRawTransactionResult',
  parameters: z.object({
    signedTransaction: z
      .string()
      .max(2 * 128 * 1024 + 2)
      .regex(/^(0x)?([0-9a-fA-F]{2})+$/, { error: 'expected hex bytes of a signed transaction' }),
    caip2: z.string().min(1, { error: 'required' }).max(64),
  }),
  result: z.object({ transactionHash: z.string() }),
})
