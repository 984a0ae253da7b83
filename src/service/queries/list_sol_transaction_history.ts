import type { z } from 'zod'
import type { listSolTransactionHistory } from '../../api/operations/list_sol_transaction_history.js'
import { transactionHistory } from './shared/transactionHistory.js'
import type { QueryHandler } from './types.js'

type Request = z.output<typeof listSolTransactionHistory.request>

/**
 * list_sol_transaction_history: the Solana transactions this service sent for the organization that
 * involve `address` (one of its Solana accounts) on `caip2` (aliases such as `solana:devnet`
 * resolved), newest slot first: those it signed, and the organization's sends with a system
 * transfer to or from it. Only sends that reached the chain are listed (INCLUDED, or failed in
 * execution with `executionFailed` and no transfers). The first page also has what the chain shows
 * of the address that the service did not send (`history/solanaChainHistory.ts`, origin EXTERNAL,
 * no `turnkey` block): airdrops, SOL and SPL payments from other wallets, merged by slot, no
 * signature twice. `paginationOptions` as every list (`store/page.ts`); the cursors are
 * sendTransactionStatusIds, and `pageInfo` gives those of the page's ends.
 *
 * @throws INVALID_ARGUMENT when caip2 is not a configured Solana network, address is not a Solana account, or paginationOptions names no send of this history
 * @throws NOT_FOUND when address names no wallet account of the organization
 * @throws FAILED_PRECONDITION when the network's node is not reachable, does not answer in time or refuses the history calls (first page), or a listed send lacks its block time or fee and the node does not give them
 */
export const handler: QueryHandler<Request> = (ctx, req) => transactionHistory(ctx, req, 'solana')
