/**
 * list_eth_transaction_history (hosted OpenAPI v1ListEthTransactionHistoryRequest/Response), and the
 * history records both history queries share (v1TransactionHistory*).
 */
import { z } from 'zod'
import { OrganizationScoped, PageInfo, PaginationOptions } from '../common.js'
import { TransactionHistoryStatus, TransferDirection } from '../enums.js'
import { defineQuery } from '../operation.js'
import { EvmAddress } from './eth_send_transaction.js'

/** The block a transaction is in: number (slot on Solana) as digits, hash, RFC 3339 time. */
export const TransactionHistoryBlock = z.object({ number: z.string(), hash: z.string(), timestamp: z.string() })

/** The fee paid, in atomic units of the asset named by CAIP-19. */
export const TransactionHistoryFee = z.object({ amount: z.string(), caip19: z.string() })

/** An asset moved by a transfer. */
export const TransactionHistoryAsset = z.object({ caip19: z.string(), symbol: z.string(), name: z.string(), decimals: z.number().int() })

/** One movement of value, relative to the queried address; `asset` is omitted when it cannot be determined. */
export const TransactionHistoryTransfer = z.object({
  direction: TransferDirection,
  asset: TransactionHistoryAsset.optional(),
  amount: z.string(),
  counterparty: z.string(),
  display: z.object({ crypto: z.string().optional(), usd: z.string().optional() }).optional(),
})

/**
 * What the service knows of a transaction it submitted: the hosted fields, plus Sigil's own links
 * to the activity (`activityId`) and the send (`sendTransactionStatusId`, for get_send_transaction_status).
 */
export const TransactionHistoryTurnkey = z.object({
  sponsored: z.boolean(),
  activityFingerprint: z.string().optional(),
  submittedAt: z.string().optional(),
  activityId: z.string().optional(),
  sendTransactionStatusId: z.string().optional(),
})

/** One EVM transaction of an address's history. */
export const EthTransactionHistoryItem = z.object({
  transactionHash: z.string(),
  block: TransactionHistoryBlock,
  status: TransactionHistoryStatus,
  origin: z.string(),
  from: z.string(),
  to: z.string().optional(),
  fee: TransactionHistoryFee,
  transfers: z.array(TransactionHistoryTransfer),
  turnkey: TransactionHistoryTurnkey.optional(),
  executionFailed: z.boolean().optional(),
})
export type EthTransactionHistoryItem = z.infer<typeof EthTransactionHistoryItem>

/** The request both history queries take: an address of the organization on one network, paged. */
export const TransactionHistoryRequest = OrganizationScoped.extend({
  address: z.string().min(1, { error: 'required' }).max(128),
  caip2: z.string().min(1, { error: 'required' }).max(64),
  paginationOptions: PaginationOptions.optional(),
})

/** The EVM transactions of one of the organization's addresses on one network, newest first. */
export const listEthTransactionHistory = defineQuery({
  name: 'list_eth_transaction_history',
  path: '/public/v1/query/list_eth_transaction_history',
  request: TransactionHistoryRequest.extend({ address: EvmAddress }),
  response: z.object({ transactions: z.array(EthTransactionHistoryItem), pageInfo: PageInfo.optional() }),
})
