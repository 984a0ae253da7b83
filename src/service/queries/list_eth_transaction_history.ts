import type { z } from 'zod'
import type { listEthTransactionHistory } from '../../api/operations/list_eth_transaction_history.js'
import { transactionHistory } from './shared/transactionHistory.js'
import type { QueryHandler } from './types.js'

type Request = z.output<typeof listEthTransactionHistory.request>

/**
 * list_eth_transaction_history: the EVM transactions this service sent for the organization that
 * involve `address` (one of its Ethereum accounts) on `caip2`, newest block first: the address's own
 * sends, and the organization's sends that pay it or transfer it an ERC-20 token. Only sends that
 * reached the chain are listed (INCLUDED, or reverted on chain with `executionFailed` and no
 * transfers). The first page also holds what the chain shows of the account that the service did
 * not send (origin EXTERNAL: deposits, payments, ERC-20 transfers; `history/evmChainHistory.ts`,
 * bounded to the newest 10,000 blocks and 50 items per source). `paginationOptions` as every list
 * (`store/page.ts`); the cursors are sendTransactionStatusIds, and `pageInfo` gives those of the page's ends.
 *
 * @throws INVALID_ARGUMENT when caip2 is not a configured EVM network, address is not an Ethereum account, or paginationOptions names no send of this history
 * @throws NOT_FOUND when address names no wallet account of the organization
 * @throws FAILED_PRECONDITION when the network's node is not reachable, does not answer in time, refuses or answers without a result (it is read for the chain's part, and for a listed send that lacks its block time or fee)
 */
export const handler: QueryHandler<Request> = (ctx, req) => transactionHistory(ctx, req, 'evm')
