import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { listEthTransactionHistory } from '../../api/operations/list_eth_transaction_history.js'
import { requireAccount } from '../activities/shared/walletLookup.js'
import { requireNetwork } from '../chains/assets.js'
import { ethHistoryItem, inclusionOf, pageInfoOf } from '../sends/history.js'
import { listSendHistory } from '../store/sends.js'
import type { QueryHandler } from './types.js'

type Request = z.output<typeof listEthTransactionHistory.request>

/**
 * list_eth_transaction_history: the EVM transactions this service sent for the organization that
 * involve `address` (one of its Ethereum accounts) on `caip2`, newest block first: the address's own
 * sends, and the organization's sends that pay it or transfer it an ERC-20 token. Only sends that
 * reached the chain are listed (INCLUDED, or reverted on chain with `executionFailed` and no
 * transfers). `paginationOptions` as every list (`store/page.ts`); the cursors are
 * sendTransactionStatusIds, and `pageInfo` gives those of the page's ends.
 *
 * @throws INVALID_ARGUMENT when caip2 is not a configured EVM network, address is not an Ethereum account, or paginationOptions names no send of this history
 * @throws NOT_FOUND when address names no wallet account of the organization
 * @throws FAILED_PRECONDITION when a listed send lacks its block time or fee and the network's node is not reachable, does not answer in time, refuses or answers without a result
 */
export const handler: QueryHandler<Request> = async ({ sql, rt, organizationId }, req) => {
  const network = requireNetwork(rt.config.networks, req.caip2, 'caip2')
  if (network.family !== 'evm') throw fieldError('INVALID_ARGUMENT', 'caip2', `${network.caip2} is not an EVM network`)
  const account = await requireAccount(sql, organizationId, req.address, 'address')
  if (account.address_format !== 'ADDRESS_FORMAT_ETHEREUM')
    throw fieldError('INVALID_ARGUMENT', 'address', `a ${account.address_format} account has no history on ${network.caip2}`)
  const page = await listSendHistory(sql, {
    organizationId,
    caip2: network.caip2,
    address: account.address,
    family: 'evm',
    page: req.paginationOptions,
  })
  const transactions = await Promise.all(
    page.rows.map(async (row) => ethHistoryItem(network, row, account.address, await inclusionOf(network, row))),
  )
  return { transactions, pageInfo: pageInfoOf(page) }
}
