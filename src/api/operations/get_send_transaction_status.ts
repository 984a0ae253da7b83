/** get_send_transaction_status (service-interface.md "Query operations"). */
import { z } from 'zod'
import { OrganizationScoped } from '../common.js'
import { defineQuery } from '../operation.js'

/** One revert entry; every field a string. */
export const RevertChainEntry = z.object({
  address: z.string().optional(),
  errorType: z.string().optional(),
  displayMessage: z.string().optional(),
  unknown: z.object({ selector: z.string().optional(), data: z.string().optional() }).optional(),
  native: z.object({ nativeType: z.string().optional(), message: z.string().optional(), panicCode: z.string().optional() }).optional(),
  custom: z.object({ errorName: z.string().optional(), paramsJson: z.string().optional() }).optional(),
})

/** Error detail of a failed send. */
export const TxError = z.object({
  message: z.string().optional(),
  revertChain: z.array(RevertChainEntry).optional(),
  solana: z
    .object({
      source: z.string().optional(),
      rpcCode: z.number().optional(),
      rpcMessage: z.string().optional(),
      transactionErrorJson: z.string().optional(),
      logs: z.array(z.string()).optional(),
      unitsConsumed: z.string().optional(),
      innerInstructionsJson: z.string().optional(),
    })
    .optional(),
  eth: z.object({ revertChain: z.array(RevertChainEntry).optional() }).optional(),
})

/** Reads the status of a send-transaction request. */
export const getSendTransactionStatus = defineQuery({
  name: 'get_send_transaction_status',
  path: '/public/v1/query/get_send_transaction_status',
  request: OrganizationScoped.extend({ sendTransactionStatusId: z.string().min(1, { error: 'required' }) }),
  response: z.object({
    txStatus: z.string(),
    eth: z.object({ txHash: z.string().optional(), contractAddress: z.string().optional() }).optional(),
    solana: z.object({ signature: z.string().optional() }).optional(),
    txError: z.string().optional(),
    error: TxError.optional(),
  }),
})
