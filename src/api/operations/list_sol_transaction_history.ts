/** list_sol_transaction_history (hosted OpenAPI v1ListSolTransactionHistoryRequest/Response). */
import { z } from 'zod'
import { PageInfo } from '../common.js'
import { TransactionHistoryStatus } from '../enums.js'
import { defineQuery } from '../operation.js'
import {
  TransactionHistoryBlock,
  TransactionHistoryFee,
  TransactionHistoryRequest,
  TransactionHistoryTransfer,
  TransactionHistoryTurnkey,
} from './list_eth_transaction_history.js'

/** One Solana transaction of an address's history. */
export const SolTransactionHistoryItem = z.object({
  signature: z.string(),
  block: TransactionHistoryBlock,
  status: TransactionHistoryStatus,
  origin: z.string(),
  feePayer: z.string(),
  signers: z.array(z.object({ address: z.string(), writable: z.boolean() })),
  fee: TransactionHistoryFee,
  transfers: z.array(TransactionHistoryTransfer),
  turnkey: TransactionHistoryTurnkey.optional(),
  executionFailed: z.boolean().optional(),
})
export type SolTransactionHistoryItem = z.infer<typeof SolTransactionHistoryItem>

/** The Solana transactions of one of the organization's addresses on one network, newest first. */
export const listSolTransactionHistory = defineQuery({
  name: 'list_sol_transaction_history',
  path: '/public/v1/query/list_sol_transaction_history',
  request: TransactionHistoryRequest,
  response: z.object({ transactions: z.array(SolTransactionHistoryItem), pageInfo: PageInfo.optional() }),
})
