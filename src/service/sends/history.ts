/**
 * Transaction history items (list_eth_transaction_history, list_sol_transaction_history) built from
 * Sigil's own send records: the signed transaction says who sent what to whom
 * (`src/chains/transfers.ts`), the tracker stored where it landed and what it cost. A send stored
 * without its block time or fee (recorded before migration 007, or the node did not say at
 * inclusion) has them read from the node again; what the node cannot give is an empty string.
 * A Gas Station batch is the account's (`from`), listing what its calls move; `turnkey.sponsored`
 * says whether the network's sponsor paid its fee.
 */
import { base64 } from '@scure/base'
import { Transaction } from 'micro-eth-signer'
import type { EthTransactionHistoryItem } from '../../api/operations/list_eth_transaction_history.js'
import type { SolTransactionHistoryItem } from '../../api/operations/list_sol_transaction_history.js'
import type { Network } from '../../chains/networks.js'
import { parseSolanaTransaction } from '../../chains/sign/solanaMessage.js'
import { type DecodedTransfer, checksummed, evmTransfers, solanaSigners, solanaTransfers } from '../../chains/transfers.js'
import { type AssetInfo, formatUnits, nativeAsset, tokenAsset } from '../chains/assets.js'
import type { SendHistoryRow, SendInclusion } from '../store/sends.js'
import { type EvmSendRequest, readEvmInclusion } from './evm.js'
import { readSolanaInclusion } from './solana.js'

/** Every listed transaction was submitted by this service, which answers as the hosted one does. */
const ORIGIN = 'TURNKEY'

type Transfer = EthTransactionHistoryItem['transfers'][number]
type Turnkey = NonNullable<EthTransactionHistoryItem['turnkey']>

const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString())

/** Where the send landed: as stored, completed from the node when the block time or fee is missing. */
export async function inclusionOf(network: Network, row: SendHistoryRow): Promise<SendInclusion> {
  const stored: SendInclusion = {
    blockNumber: row.block_number as number,
    blockHash: row.block_hash,
    blockTime: row.block_time,
    fee: row.fee,
    finality: row.finality ?? 'CONFIRMED',
  }
  if (stored.blockTime !== null && stored.fee !== null) return stored
  const read =
    row.family === 'evm'
      ? await readEvmInclusion(network, row.tx_hash as string)
      : await readSolanaInclusion(network, row.tx_hash as string, stored.blockNumber, stored.finality)
  return {
    blockNumber: stored.blockNumber,
    blockHash: stored.blockHash ?? read?.blockHash ?? null,
    blockTime: stored.blockTime ?? read?.blockTime ?? null,
    fee: stored.fee ?? read?.fee ?? null,
    finality: stored.finality,
  }
}

/** The transfers of `moved` that `address` sends (OUT) or receives (IN); `same` compares addresses. */
function relativeTo(network: Network, moved: DecodedTransfer[], address: string, same: (a: string, b: string) => boolean): Transfer[] {
  const out: Transfer[] = []
  for (const t of moved) {
    const token = t.token === undefined ? undefined : network.tokens.find((k) => k.address === t.token)
    const asset: AssetInfo | undefined = t.token === undefined ? nativeAsset(network) : token ? tokenAsset(network, token) : undefined
    const entry = (direction: 'IN' | 'OUT', counterparty: string): Transfer => ({
      direction,
      ...(asset ? { asset } : {}),
      amount: t.amount.toString(),
      counterparty,
      ...(asset ? { display: { crypto: formatUnits(t.amount, asset.decimals) } } : {}),
    })
    if (same(t.from, address)) out.push(entry('OUT', t.to))
    if (same(t.to, address)) out.push(entry('IN', t.from))
  }
  return out
}

/** The calls of a Gas Station batch send, and whether its sponsor paid the gas (undefined: not a batch). */
function batchOf(row: SendHistoryRow): EvmSendRequest['batch'] {
  if (row.family !== 'evm') return undefined
  try {
    return (JSON.parse(row.request) as EvmSendRequest).batch
  } catch {
    return undefined
  }
}

function turnkeyOf(row: SendHistoryRow): Turnkey {
  return {
    sponsored: batchOf(row)?.sponsor === true,
    ...(row.activity_fingerprint ? { activityFingerprint: row.activity_fingerprint } : {}),
    submittedAt: iso(row.activity_created_at ?? row.created_at),
    activityId: row.activity_id,
    sendTransactionStatusId: row.id,
  }
}

function blockOf(at: SendInclusion) {
  return { number: String(at.blockNumber), hash: at.blockHash ?? '', timestamp: iso(at.blockTime) }
}

/** One EVM history item of `address`. A transaction that reverted moved nothing: no transfers. */
export function ethHistoryItem(network: Network, row: SendHistoryRow, address: string, at: SendInclusion): EthTransactionHistoryItem {
  const tx = Transaction.fromHex(row.signed_tx as string, false)
  const to = tx.raw.to ? checksummed(tx.raw.to) : undefined
  const failed = row.status === 'FAILED'
  // A batch moves what its calls move, as the account (the outer transaction only calls the account).
  const batch = batchOf(row)
  const moved = failed
    ? []
    : batch
      ? batch.calls.flatMap((c) => evmTransfers({ from: row.from_address, to: c.to, value: BigInt(c.value), data: c.data }))
      : evmTransfers({ from: row.from_address, to, value: tx.raw.value, data: tx.raw.data })
  return {
    transactionHash: row.tx_hash as string,
    block: blockOf(at),
    status: at.finality,
    origin: ORIGIN,
    from: checksummed(row.from_address),
    ...(to ? { to } : {}),
    fee: { amount: at.fee ?? '', caip19: nativeAsset(network).caip19 },
    transfers: relativeTo(network, moved, address, (a, b) => a.toLowerCase() === b.toLowerCase()),
    turnkey: turnkeyOf(row),
    executionFailed: failed,
  }
}

/** One Solana history item of `address`. A transaction that failed in execution moved nothing but its fee. */
export function solHistoryItem(network: Network, row: SendHistoryRow, address: string, at: SendInclusion): SolTransactionHistoryItem {
  const { message } = parseSolanaTransaction(base64.decode(row.signed_tx as string))
  const signers = solanaSigners(message)
  const failed = row.status === 'FAILED'
  return {
    signature: row.tx_hash as string,
    block: blockOf(at),
    status: at.finality,
    origin: ORIGIN,
    feePayer: signers[0]?.address ?? row.from_address,
    signers,
    fee: { amount: at.fee ?? '', caip19: nativeAsset(network).caip19 },
    transfers: relativeTo(network, failed ? [] : solanaTransfers(message), address, (a, b) => a === b),
    turnkey: turnkeyOf(row),
    executionFailed: failed,
  }
}

/** The wire pageInfo of a history page: the cursors are the send ids of its first and last items. */
export function pageInfoOf(page: { rows: SendHistoryRow[]; hasNextPage: boolean; hasPreviousPage: boolean }) {
  const first = page.rows[0]
  const last = page.rows[page.rows.length - 1]
  return {
    hasNextPage: page.hasNextPage,
    hasPreviousPage: page.hasPreviousPage,
    ...(first ? { startCursor: first.id } : {}),
    ...(last ? { endCursor: last.id } : {}),
  }
}
