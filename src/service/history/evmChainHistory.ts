/**
 * What the chain itself says an EVM address took part in, beside the service's own sends: plain
 * value transfers to or from it (the dev faucet's deposits, a payment from another wallet) and
 * ERC-20 `Transfer` logs naming it, as list_eth_transaction_history items with origin
 * {@link CHAIN_ORIGIN}.
 *
 * Sources, each bounded per request: the Otterscan API's `ots_searchTransactionsBefore` (anvil and
 * Erigon serve it; it finds transactions the address sent or was the `to` of, with their receipts)
 * for the newest {@link CHAIN_HISTORY_LIMIT}; a node without it gives none of those. ERC-20
 * transfers come from `eth_getLogs` over the newest {@link LOG_WINDOW_BLOCKS} blocks (the
 * `Transfer` topic with the address as sender or recipient). A node that is down or slow fails
 * the request with FAILED_PRECONDITION naming the network, as balances do.
 */
import type { EthTransactionHistoryItem } from '../../api/operations/list_eth_transaction_history.js'
import { decodeUint256 } from '../../chains/erc20.js'
import type { Network } from '../../chains/networks.js'
import { checksummed } from '../../chains/transfers.js'
import { type AssetInfo, formatUnits, nativeAsset, tokenAsset } from '../chains/assets.js'
import { RpcRefusedError, jsonRpc, jsonRpcBatch } from '../chains/rpc.js'

/** The origin of a transaction the service did not submit (the hosted service's own are `TURNKEY`). */
export const CHAIN_ORIGIN = 'EXTERNAL'
/** At most this many transactions read from the chain per request. */
export const CHAIN_HISTORY_LIMIT = 50
/** How many of the newest blocks `eth_getLogs` searches for token transfers. */
export const LOG_WINDOW_BLOCKS = 10_000n
/** keccak256("Transfer(address,address,uint256)"). */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
/** ERC-20 symbol() and decimals() selectors. */
const SYMBOL_SELECTOR = '0x95d89b41'
const DECIMALS_SELECTOR = '0x313ce567'

type Log = { address: string; topics: string[]; data: string; transactionHash: string; blockNumber: string }
type RpcTx = { hash: string; from: string; to?: string | null; value: string; blockNumber: string; blockHash: string }
type RpcReceipt = {
  status?: string
  gasUsed: string
  effectiveGasPrice?: string
  logs: Log[]
  blockNumber: string
  blockHash: string
  timestamp?: string
}
type Found = { tx: RpcTx; receipt: RpcReceipt; timestamp?: string | undefined }
type Transfer = EthTransactionHistoryItem['transfers'][number]

const topicOf = (address: string) => `0x${address.slice(2).toLowerCase().padStart(64, '0')}`
const addressOfTopic = (topic: string) => checksummed(`0x${topic.slice(-40)}`)

/** Tokens read on chain (not configured), by `caip2/address`; undefined: it answers no symbol/decimals. */
const tokenCache = new Map<string, AssetInfo | undefined>()

/** Decodes an ABI `string` return (or a bytes32 one, as some old tokens answer). */
function decodeString(hex: unknown): string | undefined {
  if (typeof hex !== 'string' || !/^0x[0-9a-fA-F]*$/.test(hex)) return undefined
  const body = hex.slice(2)
  const text = (h: string) => {
    const bytes = Uint8Array.from(h.match(/../g) ?? [], (b) => Number.parseInt(b, 16))
    return new TextDecoder().decode(bytes).replace(/\0+$/, '')
  }
  if (body.length === 64) return text(body)
  if (body.length < 128) return undefined
  const length = Number.parseInt(body.slice(64, 128), 16)
  if (!Number.isSafeInteger(length) || length > 64 || body.length < 128 + length * 2) return undefined
  return text(body.slice(128, 128 + length * 2))
}

/** The token at `token`: configured on the network, else its symbol() and decimals() read once. */
async function tokenInfo(network: Network, token: string): Promise<AssetInfo | undefined> {
  const configured = network.tokens.find((t) => t.address.toLowerCase() === token.toLowerCase())
  if (configured) return tokenAsset(network, configured)
  const key = `${network.caip2}/${token.toLowerCase()}`
  if (tokenCache.has(key)) return tokenCache.get(key)
  const [symbol, decimals] = await jsonRpcBatch(network, [
    { method: 'eth_call', params: [{ to: token, data: SYMBOL_SELECTOR }, 'latest'] },
    { method: 'eth_call', params: [{ to: token, data: DECIMALS_SELECTOR }, 'latest'] },
  ])
  const sym = symbol?.ok ? decodeString(symbol.result) : undefined
  const dec = decimals?.ok ? decodeUint256(decimals.result) : undefined
  const info =
    sym && /^[\x20-\x7e]{1,32}$/.test(sym) && dec !== undefined && dec <= 36n
      ? { caip19: `${network.caip2}/erc20:${token.toLowerCase()}`, symbol: sym, name: sym, decimals: Number(dec) }
      : undefined
  tokenCache.set(key, info)
  return info
}

/** The transfers of one transaction relative to `address`: its value, and the ERC-20 Transfer logs naming it. */
async function transfersOf(network: Network, f: Found, address: string): Promise<Transfer[]> {
  if (f.receipt.status !== undefined && f.receipt.status !== '0x1') return []
  const me = address.toLowerCase()
  const out: Transfer[] = []
  const push = (direction: 'IN' | 'OUT', amount: bigint, counterparty: string, asset: AssetInfo | undefined) =>
    out.push({
      direction,
      ...(asset ? { asset } : {}),
      amount: amount.toString(),
      counterparty,
      ...(asset ? { display: { crypto: formatUnits(amount, asset.decimals) } } : {}),
    })
  const value = BigInt(f.tx.value)
  if (value > 0n && f.tx.to) {
    const native = nativeAsset(network)
    if (f.tx.from.toLowerCase() === me) push('OUT', value, checksummed(f.tx.to), native)
    if (f.tx.to.toLowerCase() === me) push('IN', value, checksummed(f.tx.from), native)
  }
  for (const log of f.receipt.logs) {
    // ERC-20 only: three topics and a 32-byte amount (ERC-721 puts the token id in a fourth topic)
    if (log.topics.length !== 3 || log.topics[0]?.toLowerCase() !== TRANSFER_TOPIC || log.data.length !== 66) continue
    const from = addressOfTopic(log.topics[1] as string)
    const to = addressOfTopic(log.topics[2] as string)
    if (from.toLowerCase() !== me && to.toLowerCase() !== me) continue
    const asset = await tokenInfo(network, log.address)
    const amount = BigInt(log.data)
    if (from.toLowerCase() === me) push('OUT', amount, to, asset)
    if (to.toLowerCase() === me) push('IN', amount, from, asset)
  }
  return out
}

/** The Otterscan search's newest transactions of `address`, or none when the node does not serve it. */
async function searchOtterscan(network: Network, address: string): Promise<Found[]> {
  try {
    const r = await jsonRpc<{ txs: RpcTx[]; receipts: RpcReceipt[] }>(network, 'ots_searchTransactionsBefore', [
      address,
      0,
      CHAIN_HISTORY_LIMIT,
    ])
    return r.txs.flatMap((tx, i) => {
      const receipt = r.receipts[i]
      return receipt ? [{ tx, receipt, timestamp: receipt.timestamp }] : []
    })
  } catch (e) {
    if (e instanceof RpcRefusedError) return []
    throw e
  }
}

/** Token transfers to or from `address` in the newest blocks, read transaction by transaction. */
async function searchTransferLogs(network: Network, address: string, skip: Set<string>): Promise<Found[]> {
  const latest = BigInt(await jsonRpc<string>(network, 'eth_blockNumber', []))
  const fromBlock = `0x${(latest > LOG_WINDOW_BLOCKS ? latest - LOG_WINDOW_BLOCKS : 0n).toString(16)}`
  const filter = (topics: Array<string | null>) => ({ method: 'eth_getLogs', params: [{ fromBlock, toBlock: 'latest', topics }] })
  const outcomes = await jsonRpcBatch(network, [
    filter([TRANSFER_TOPIC, null, topicOf(address)]),
    filter([TRANSFER_TOPIC, topicOf(address)]),
  ])
  const logs: Log[] = []
  for (const o of outcomes) {
    if (!o.ok) throw o.error
    if (Array.isArray(o.result)) logs.push(...(o.result as Log[]))
  }
  const hashes = [...new Set(logs.sort((a, b) => Number(BigInt(b.blockNumber) - BigInt(a.blockNumber))).map((l) => l.transactionHash))]
    .filter((h) => !skip.has(h.toLowerCase()))
    .slice(0, CHAIN_HISTORY_LIMIT)
  if (hashes.length === 0) return []
  const read = await jsonRpcBatch(
    network,
    hashes.flatMap((h) => [
      { method: 'eth_getTransactionByHash', params: [h] },
      { method: 'eth_getTransactionReceipt', params: [h] },
    ]),
  )
  const found: Found[] = []
  for (let i = 0; i < hashes.length; i++) {
    const tx = read[2 * i]
    const receipt = read[2 * i + 1]
    if (!tx?.ok) throw tx?.error
    if (!receipt?.ok) throw receipt?.error
    if (tx.result && receipt.result) found.push({ tx: tx.result as RpcTx, receipt: receipt.result as RpcReceipt })
  }
  const blocks = [...new Set(found.map((f) => f.receipt.blockNumber))]
  const times = await jsonRpcBatch(
    network,
    blocks.map((b) => ({ method: 'eth_getBlockByNumber', params: [b, false] })),
  )
  const timeOf = new Map(blocks.map((b, i) => [b, (times[i]?.ok ? (times[i].result as { timestamp?: string } | null) : null)?.timestamp]))
  return found.map((f) => ({ ...f, timestamp: timeOf.get(f.receipt.blockNumber) }))
}

/**
 * The on-chain transactions of `address` on `network` not in `known` (lowercase hashes the service
 * sent), newest first, at most {@link CHAIN_HISTORY_LIMIT} of each source; a transaction that moved
 * nothing to or from the address is left out.
 *
 * @throws FAILED_PRECONDITION when the network's node is not reachable, does not answer in time, or refuses eth_getLogs
 */
export async function evmChainHistory(network: Network, address: string, known: Set<string>): Promise<EthTransactionHistoryItem[]> {
  const ots = (await searchOtterscan(network, address)).filter((f) => !known.has(f.tx.hash.toLowerCase()))
  const seen = new Set([...known, ...ots.map((f) => f.tx.hash.toLowerCase())])
  const found = [...ots, ...(await searchTransferLogs(network, address, seen))]
  const items: Array<EthTransactionHistoryItem & { order: bigint }> = []
  for (const f of found) {
    const transfers = await transfersOf(network, f, address)
    const failed = f.receipt.status !== undefined && f.receipt.status !== '0x1'
    // what others did that touched the address without moving anything of it is not its history
    if (transfers.length === 0 && !(f.tx.from.toLowerCase() === address.toLowerCase())) continue
    const fee =
      f.receipt.effectiveGasPrice === undefined ? '' : (BigInt(f.receipt.gasUsed) * BigInt(f.receipt.effectiveGasPrice)).toString()
    items.push({
      order: BigInt(f.receipt.blockNumber),
      transactionHash: f.tx.hash,
      block: {
        number: BigInt(f.receipt.blockNumber).toString(),
        hash: f.receipt.blockHash,
        timestamp: f.timestamp ? new Date(Number(BigInt(f.timestamp)) * 1000).toISOString() : '',
      },
      status: 'CONFIRMED',
      origin: CHAIN_ORIGIN,
      from: checksummed(f.tx.from),
      ...(f.tx.to ? { to: checksummed(f.tx.to) } : {}),
      fee: { amount: fee, caip19: nativeAsset(network).caip19 },
      transfers,
      ...(f.receipt.status !== undefined ? { executionFailed: failed } : {}),
    })
  }
  items.sort((a, b) => (a.order === b.order ? 0 : a.order > b.order ? -1 : 1))
  return items.map(({ order: _, ...item }) => item)
}
