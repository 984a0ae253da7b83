/**
 * What the chain itself says a Solana address took part in, beside the service's own sends: SOL
 * that came in or went out (the faucet's airdrops, a payment from another wallet) and SPL token
 * transfers to or from the address's token accounts, as list_sol_transaction_history items with
 * origin {@link CHAIN_ORIGIN}.
 *
 * Sources, each bounded per request: the address's token accounts (`getTokenAccountsByOwner`, SPL
 * Token and Token-2022, at most {@link TOKEN_ACCOUNT_LIMIT}: a payment to a token account does not
 * name its owner), then `getSignaturesForAddress` of the address and of each of those, the newest
 * {@link SOLANA_HISTORY_LIMIT} signatures of them all, then `getTransaction` (`json`, v0 allowed) of
 * each the service did not send, all in batches. SOL moved is the change of the address's balance
 * (its fee added back when it paid it); tokens moved are the changes of the pre/postTokenBalances
 * whose owner is the address; the counterparty is the key (or owner) that moved the most the other
 * way (tokens minted to the address: the mint). A node that is down or slow fails the request with FAILED_PRECONDITION naming the network,
 * as balances do.
 */
import type { SolTransactionHistoryItem } from '../../api/operations/list_sol_transaction_history.js'
import type { Network } from '../../chains/networks.js'
import { erc20AssetId } from '../../chains/networks.js'
import { type AssetInfo, formatUnits, nativeAsset, tokenAsset } from '../chains/assets.js'
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../../chains/splToken.js'
import { jsonRpcBatch, type RpcOutcome } from '../chains/rpc.js'
import { CHAIN_ORIGIN } from './evmChainHistory.js'

export { CHAIN_ORIGIN }
/** At most this many signatures read from the chain per request. */
export const SOLANA_HISTORY_LIMIT = 50
/** At most this many of the address's token accounts are searched. */
export const TOKEN_ACCOUNT_LIMIT = 20

type SignatureInfo = { signature: string; slot: number; err: unknown; blockTime?: number | null }
type TokenBalance = {
  accountIndex: number
  mint: string
  owner?: string
  uiTokenAmount: { amount: string; decimals: number }
}
/** A getTransaction answer (`json` encoding) as far as history reads it. */
export type RpcTransaction = {
  slot: number
  blockTime?: number | null
  meta: {
    err: unknown
    fee: number
    preBalances: number[]
    postBalances: number[]
    preTokenBalances?: TokenBalance[] | null
    postTokenBalances?: TokenBalance[] | null
    loadedAddresses?: { writable: string[]; readonly: string[] } | null
  } | null
  transaction: {
    signatures: string[]
    message: {
      accountKeys: string[]
      header: { numRequiredSignatures: number; numReadonlySignedAccounts: number; numReadonlyUnsignedAccounts: number }
    }
  }
}
type Transfer = SolTransactionHistoryItem['transfers'][number]

/** The asset of `mint`: configured on the network, else named by a shortened mint with the decimals the chain gives. */
function mintAsset(network: Network, mint: string, decimals: number): AssetInfo {
  const configured = network.tokens.find((t) => t.address === mint)
  if (configured) return tokenAsset(network, configured)
  const short = `${mint.slice(0, 4)}…${mint.slice(-4)}`
  return { caip19: erc20AssetId(network, { address: mint }), symbol: short, name: 'Unknown token', decimals }
}

const transfer = (direction: 'IN' | 'OUT', amount: bigint, counterparty: string, asset: AssetInfo): Transfer => ({
  direction,
  asset,
  amount: amount.toString(),
  counterparty,
  display: { crypto: formatUnits(amount, asset.decimals) },
})

/** Every key of the transaction in index order: its static keys, then the lookup tables' writable and read-only ones. */
function keysOf(tx: RpcTransaction): string[] {
  const loaded = tx.meta?.loadedAddresses
  return [...tx.transaction.message.accountKeys, ...(loaded?.writable ?? []), ...(loaded?.readonly ?? [])]
}

/**
 * The transfers of one transaction relative to `address`. SOL: the address's balance change (fee
 * excluded), the counterparty the key whose balance moved the most the other way. Tokens: per mint,
 * the change of the address's token accounts, the counterparty the other owner that moved most.
 */
export function solanaTransfersOf(network: Network, tx: RpcTransaction, address: string): Transfer[] {
  const meta = tx.meta
  if (!meta || meta.err !== null) return []
  const keys = keysOf(tx)
  const out: Transfer[] = []
  const me = keys.indexOf(address)
  if (me >= 0) {
    const delta = (i: number) => BigInt(meta.postBalances[i] ?? 0) - BigInt(meta.preBalances[i] ?? 0) + (i === 0 ? BigInt(meta.fee) : 0n)
    const mine = delta(me)
    if (mine !== 0n) {
      let other: { key: string; moved: bigint } | undefined
      keys.forEach((key, i) => {
        if (i === me) return
        const d = delta(i)
        // the other side moved the other way; the largest such move is the one that paid or was paid
        if ((mine > 0n ? d < 0n : d > 0n) && (!other || (d < 0n ? -d : d) > other.moved)) other = { key, moved: d < 0n ? -d : d }
      })
      out.push(transfer(mine > 0n ? 'IN' : 'OUT', mine > 0n ? mine : -mine, other?.key ?? '', nativeAsset(network)))
    }
  }
  // token balances: per (owner, mint), post minus pre
  const change = new Map<string, { owner: string; mint: string; decimals: number; delta: bigint }>()
  const add = (b: TokenBalance, sign: 1n | -1n) => {
    const owner = b.owner ?? keys[b.accountIndex] ?? ''
    const key = `${owner}/${b.mint}`
    const c = change.get(key) ?? { owner, mint: b.mint, decimals: b.uiTokenAmount.decimals, delta: 0n }
    c.delta += sign * BigInt(b.uiTokenAmount.amount)
    change.set(key, c)
  }
  for (const b of meta.preTokenBalances ?? []) add(b, -1n)
  for (const b of meta.postTokenBalances ?? []) add(b, 1n)
  for (const c of change.values()) {
    if (c.owner !== address || c.delta === 0n) continue
    let other: { owner: string; moved: bigint } | undefined
    for (const o of change.values()) {
      if (o.mint !== c.mint || o.owner === address || (c.delta > 0n ? o.delta >= 0n : o.delta <= 0n)) continue
      const moved = o.delta < 0n ? -o.delta : o.delta
      if (!other || moved > other.moved) other = { owner: o.owner, moved }
    }
    const amount = c.delta > 0n ? c.delta : -c.delta
    // no other owner's balance moved: minted to the address (or burned), the mint is the other side
    out.push(transfer(c.delta > 0n ? 'IN' : 'OUT', amount, other?.owner ?? c.mint, mintAsset(network, c.mint, c.decimals)))
  }
  return out
}

/** A batch call's result, or its error thrown (a refusal names the network). */
function resultOf<T>(outcome: RpcOutcome | undefined): T {
  if (!outcome) throw new Error('the node answered fewer calls than were asked')
  if (!outcome.ok) throw outcome.error
  return outcome.result as T
}

/** The signers of a transaction and whether each may write, from its header. */
function signersOf(tx: RpcTransaction): SolTransactionHistoryItem['signers'] {
  const { header, accountKeys } = tx.transaction.message
  const n = header.numRequiredSignatures
  return accountKeys.slice(0, n).map((a, i) => ({ address: a, writable: i < n - header.numReadonlySignedAccounts }))
}

/**
 * The on-chain transactions of `address` on the Solana `network` whose signatures are not in
 * `known` (the ones the service sent), newest first, from the newest {@link SOLANA_HISTORY_LIMIT}
 * signatures naming the address; a transaction that moved nothing of the address and that it did
 * not sign is left out.
 *
 * @throws FAILED_PRECONDITION when the network's node is not reachable, does not answer in time, or refuses the calls
 */
export async function solanaChainHistory(network: Network, address: string, known: Set<string>): Promise<SolTransactionHistoryItem[]> {
  const accounts = await jsonRpcBatch(
    network,
    [TOKEN_PROGRAM, TOKEN_2022_PROGRAM].map((programId) => ({
      method: 'getTokenAccountsByOwner',
      params: [address, { programId }, { encoding: 'base64', commitment: 'confirmed' }],
    })),
  )
  const tokenAccounts = accounts
    .flatMap((o) => resultOf<{ value: Array<{ pubkey: string }> }>(o).value.map((a) => a.pubkey))
    .slice(0, TOKEN_ACCOUNT_LIMIT)
  const lists = await jsonRpcBatch(
    network,
    [address, ...tokenAccounts].map((a) => ({
      method: 'getSignaturesForAddress',
      params: [a, { limit: SOLANA_HISTORY_LIMIT, commitment: 'confirmed' }],
    })),
  )
  const bySignature = new Map<string, SignatureInfo>()
  for (const o of lists) for (const s of resultOf<SignatureInfo[]>(o)) bySignature.set(s.signature, s)
  const signatures = [...bySignature.values()]
    .filter((s) => !known.has(s.signature))
    .sort((a, b) => b.slot - a.slot)
    .slice(0, SOLANA_HISTORY_LIMIT)
  if (signatures.length === 0) return []
  const read = await jsonRpcBatch(
    network,
    signatures.map((s) => ({
      method: 'getTransaction',
      params: [s.signature, { encoding: 'json', commitment: 'confirmed', maxSupportedTransactionVersion: 0 }],
    })),
  )
  const items: SolTransactionHistoryItem[] = []
  signatures.forEach((s, i) => {
    const tx = resultOf<RpcTransaction | null>(read[i])
    // a transaction the node no longer holds in full (pruned) cannot be told apart: left out
    if (!tx?.meta || !tx.transaction?.message) return
    const signers = signersOf(tx)
    const transfers = solanaTransfersOf(network, tx, address)
    if (transfers.length === 0 && !signers.some((x) => x.address === address)) return
    const blockTime = tx.blockTime ?? s.blockTime
    items.push({
      signature: s.signature,
      block: {
        number: String(tx.slot),
        hash: '',
        timestamp: typeof blockTime === 'number' ? new Date(blockTime * 1000).toISOString() : '',
      },
      status: 'CONFIRMED',
      origin: CHAIN_ORIGIN,
      feePayer: signers[0]?.address ?? '',
      signers,
      fee: { amount: String(tx.meta.fee), caip19: nativeAsset(network).caip19 },
      transfers,
      executionFailed: tx.meta.err !== null,
    })
  })
  // getSignaturesForAddress answers newest first; the slot orders what it does not
  return items.sort((a, b) => Number(b.block.number) - Number(a.block.number))
}
