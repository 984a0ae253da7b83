import type { z } from 'zod'
import { fieldError } from '../../../api/errors.js'
import type { PaginationOptions } from '../../../api/common.js'
import { requireAccount } from '../../signing/walletLookup.js'
import { requireNetwork } from '../../chains/assets.js'
import { ethHistoryItem, inclusionOf, pageInfoOf, solHistoryItem } from '../../sends/history.js'
import { listSendHistory } from '../../store/sends.js'
import { evmChainHistory } from '../../history/evmChainHistory.js'
import { solanaChainHistory } from '../../history/solanaChainHistory.js'
import type { QueryContext } from '../types.js'

const FAMILY = {
  evm: { format: 'ADDRESS_FORMAT_ETHEREUM', noun: 'an EVM network', item: ethHistoryItem },
  solana: { format: 'ADDRESS_FORMAT_SOLANA', noun: 'a Solana network', item: solHistoryItem },
} as const

/**
 * The history both list_eth_transaction_history and list_sol_transaction_history answer: the sends of
 * the organization on `caip2` that `address` (one of its accounts of the family's format) sent or is a
 * party of, newest first, paged by `store/page.ts` with sendTransactionStatusIds as cursors.
 * The first page (no cursor) also has what the chain says the address took part in that the service
 * did not send (`history/evmChainHistory.ts`, `history/solanaChainHistory.ts`, origin EXTERNAL):
 * deposits, payments and token transfers from other wallets, merged by block (slot), no hash or
 * signature twice. When more sends follow,
 * only those no older than the page's last send are merged in (the next pages are sends only).
 */
export async function transactionHistory<F extends keyof typeof FAMILY>(
  { sql, rt, organizationId }: QueryContext,
  req: { caip2: string; address: string; paginationOptions?: z.output<typeof PaginationOptions> | undefined },
  family: F,
) {
  const f = FAMILY[family]
  const network = requireNetwork(rt.config.networks, req.caip2, 'caip2')
  if (network.family !== family) throw fieldError('INVALID_ARGUMENT', 'caip2', `${network.caip2} is not ${f.noun}`)
  const account = await requireAccount(sql, organizationId, req.address, 'address')
  if (account.address_format !== f.format) {
    throw fieldError('INVALID_ARGUMENT', 'address', `a ${account.address_format} account has no history on ${network.caip2}`)
  }
  const page = await listSendHistory(sql, {
    organizationId,
    caip2: network.caip2,
    address: account.address,
    family,
    page: req.paginationOptions,
  })
  const transactions = await Promise.all(
    page.rows.map(
      async (row) => f.item(network, row, account.address, await inclusionOf(network, row)) as ReturnType<(typeof FAMILY)[F]['item']>,
    ),
  )
  const pageInfo = pageInfoOf(page)
  if (req.paginationOptions?.after || req.paginationOptions?.before) return { transactions, pageInfo }
  const oldest = page.hasNextPage ? BigInt(page.rows[page.rows.length - 1]?.block_number ?? 0) : 0n
  // EVM hashes are hex (any case); Solana signatures are base58, where case matters
  const sent = new Set(page.rows.flatMap((r) => (r.tx_hash ? [family === 'evm' ? r.tx_hash.toLowerCase() : r.tx_hash] : [])))
  const chain = (
    family === 'evm' ? await evmChainHistory(network, account.address, sent) : await solanaChainHistory(network, account.address, sent)
  ).filter((t) => BigInt(t.block.number) >= oldest)
  const merged = [...transactions, ...chain].sort((a, b) => {
    const d = BigInt(b.block.number) - BigInt(a.block.number)
    return d === 0n ? 0 : d > 0n ? 1 : -1
  })
  return { transactions: merged as typeof transactions, pageInfo }
}
