/**
 * The History screen: an account's transactions on the selected network from the
 * service's list_eth_transaction_history / list_sol_transaction_history, newest first, as rows
 * the popup shows (amounts stay atomic-unit strings with their decimals).
 */
import type { SigilClient } from '../../../api/client'
import { nodeFailure } from './balances'
import type { ActiveSession, Core } from '../core'
import { requirePopupNetwork } from '../chains/popupNetwork'

/** How many transactions one page shows. */
export const HISTORY_PAGE = 25

/** One movement of value relative to the account. */
export type HistoryTransfer = { direction: 'IN' | 'OUT'; amount: string; symbol: string; decimals: number; counterparty: string }

/** One transaction row. */
export type HistoryRow = {
  id: string
  status: string
  failed: boolean
  timestamp: string
  fee: string
  transfers: HistoryTransfer[]
}

type Item = {
  block: { timestamp: string }
  status: string
  fee: { amount: string }
  transfers: Array<{
    direction: 'IN' | 'OUT'
    amount: string
    counterparty: string
    asset?: { symbol: string; decimals: number } | undefined
  }>
  executionFailed?: boolean | undefined
}

/** A row of `address`'s history; the fee shows only when the account paid it (not on what it received). */
function row(id: string, item: Item, payer: string, address: string): HistoryRow {
  const paid = payer.toLowerCase() === address.toLowerCase()
  return {
    id,
    status: item.status,
    failed: item.executionFailed === true,
    timestamp: item.block.timestamp,
    fee: paid && /^\d+$/.test(item.fee.amount) ? item.fee.amount : '',
    transfers: item.transfers.flatMap((t) =>
      t.asset
        ? [{ direction: t.direction, amount: t.amount, symbol: t.asset.symbol, decimals: t.asset.decimals, counterparty: t.counterparty }]
        : [],
    ),
  }
}

/** The transactions of `address` on `caip2`. */
export async function listHistory(
  core: Core,
  client: SigilClient,
  session: ActiveSession,
  p: { caip2: string; address: string },
): Promise<{ caip2: string; address: string; native: { symbol: string; decimals: number }; rows: HistoryRow[] }> {
  const network = await requirePopupNetwork(core, p.caip2)
  const req = {
    organizationId: session.record.organizationId,
    address: p.address,
    caip2: network.caip2,
    paginationOptions: { limit: String(HISTORY_PAGE) },
  }
  let rows: HistoryRow[]
  try {
    rows =
      network.family === 'evm'
        ? (await client.listEthTransactionHistory(req)).transactions.map((t) => row(t.transactionHash, t, t.from, p.address))
        : (await client.listSolTransactionHistory(req)).transactions.map((t) => row(t.signature, t, t.feePayer, p.address))
  } catch (err) {
    throw nodeFailure(err, network)
  }
  return { caip2: network.caip2, address: p.address, native: { symbol: network.nativeSymbol, decimals: network.nativeDecimals }, rows }
}
