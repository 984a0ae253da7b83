/**
 * What a transaction (or a batch, its calls in order) changes in the user's balances, simulated
 * against the network's node before the approval window opens: `eth_simulateV1` with
 * `traceTransfers: true` (execution-apis `eth_simulateV1`; anvil, geth, reth, nethermind), whose
 * logs carry every ERC-20 / ERC-721 `Transfer` and a synthetic ERC-20-shaped `Transfer` from
 * 0xeeee…eeee for each movement of the network's coin, and the ERC-1155 `TransferSingle` /
 * `TransferBatch` the contracts emit. From the logs:
 *
 * - per asset (the coin, each ERC-20, each ERC-721 or ERC-1155 token id) what leaves and enters the user's
 *   address, netted ("You send 10 TKA", "You receive 20 TKB");
 * - every `Approval` / `ApprovalForAll` with the user as owner ("Approvals granted").
 *
 * A node without the method, a refused or failed simulation, or a malformed answer is
 * "Could not simulate: <reason>" — nothing is claimed then.
 */
import { decodeEventLog, formatUnits, getAddress, type Hex, parseAbi } from 'viem'
import { z } from 'zod'
import type { ApprovalGrantView, AssetChangeView, BalanceChangesView } from '../../../protocol/approvalView'
import { isUnlimited } from '../../approval/text'
import { EvmRpcError, evmRpc } from '../../chains/nodeRpc'
import type { Core } from '../../core'
import { configuredTokens, readToken, type TokenFacts, type TokenNetwork } from './tokenInfo'

/** `Transfer(address,address,uint256)`: ERC-20 (value in data) and ERC-721 (token id as 4th topic). */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
/** `Approval(address,address,uint256)`: ERC-20 (value in data) and ERC-721 (token id as 4th topic). */
export const APPROVAL_TOPIC = '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925'
/** `ApprovalForAll(address,address,bool)`: ERC-721 and ERC-1155. */
export const APPROVAL_FOR_ALL_TOPIC = '0x17307eab39ab6107e8899845ad3d59bd9653f200f220920489ca2b5937696c31'
/** ERC-1155 `TransferSingle(address,address,address,uint256,uint256)`: operator, from, to as topics. */
export const TRANSFER_SINGLE_TOPIC = '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62'
/** ERC-1155 `TransferBatch(address,address,address,uint256[],uint256[])`. */
export const TRANSFER_BATCH_TOPIC = '0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb'
const ERC1155_EVENTS = parseAbi([
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
])

/** The (id, amount) pairs an ERC-1155 transfer log moves; null when its data is not the event's. */
function erc1155Moves(log: SimLog): Array<[bigint, bigint]> | null {
  try {
    const event = decodeEventLog({ abi: ERC1155_EVENTS, topics: log.topics as [Hex, ...Hex[]], data: log.data as Hex, strict: true })
    if (event.eventName === 'TransferSingle') return [[event.args.id, event.args.value]]
    const { ids, values } = event.args
    if (ids.length !== values.length) return null
    return ids.map((id, i) => [id, values[i] as bigint])
  } catch {
    return null
  }
}

/** The address eth_simulateV1 gives the synthetic logs of native-coin transfers. */
export const NATIVE_LOG_ADDRESS = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'

/** How long the simulation may take; past it the window says it could not simulate. */
export const ASSET_SIM_TIMEOUT_MS = 8_000
/** Most logs read from one simulation (a batch of up to 50 calls). */
const MAX_LOGS = 2_000

const Hex = z.string().regex(/^0x[0-9a-fA-F]*$/)
const Log = z.object({ address: z.string().regex(/^0x[0-9a-fA-F]{40}$/), topics: z.array(Hex).max(4), data: Hex })
export type SimLog = z.output<typeof Log>
const SimCallResult = z.object({
  status: z.string(),
  logs: z.array(Log).max(MAX_LOGS).default([]),
  error: z
    .object({ message: z.string().max(2_000).optional() })
    .loose()
    .optional(),
})
const SimulateV1Result = z.array(z.object({ calls: z.array(SimCallResult).max(100) }).loose()).min(1)

/** One asset the changes are netted by: the coin, an ERC-20 contract, or one ERC-721 token. */
export type AssetKey =
  | { kind: 'native' }
  | { kind: 'erc20'; token: string }
  | { kind: 'erc721'; token: string; tokenId: bigint }
  | { kind: 'erc1155'; token: string; tokenId: bigint }
/** The user's net change of one asset (negative: sent). */
export type RawChange = AssetKey & { amount: bigint }
/** An approval the user (as owner) grants or revokes. */
export type RawApproval =
  | { kind: 'erc20'; token: string; spender: string; amount: bigint }
  | { kind: 'erc721'; token: string; spender: string; tokenId: bigint }
  | { kind: 'all'; token: string; spender: string; approved: boolean }

const topicAddress = (t: string | undefined): string | null =>
  t !== undefined && /^0x0{24}[0-9a-fA-F]{40}$/.test(t) ? `0x${t.slice(26).toLowerCase()}` : null
const word = (data: string): bigint | null => (/^0x[0-9a-fA-F]{64}$/.test(data) ? BigInt(data) : null)
const keyOf = (k: AssetKey) =>
  k.kind === 'native' ? 'native' : k.kind === 'erc20' ? `erc20:${k.token}` : `${k.kind}:${k.token}:${k.tokenId}`

/**
 * The user's net change per asset and the approvals granted, from a simulation's logs in order
 * (pure). Assets whose moves cancel out are left out; changes keep the order assets first appear.
 */
export function assetChangesFromLogs(logs: readonly SimLog[], account: string): { changes: RawChange[]; approvals: RawApproval[] } {
  const me = account.toLowerCase()
  const net = new Map<string, RawChange>()
  const approvals: RawApproval[] = []
  const add = (key: AssetKey, amount: bigint) => {
    const k = keyOf(key)
    const prev = net.get(k)
    net.set(k, { ...key, amount: (prev?.amount ?? 0n) + amount })
  }
  for (const log of logs) {
    const contract = log.address.toLowerCase()
    const [topic, t1, t2, t3] = log.topics.map((t) => t.toLowerCase())
    if ((topic === TRANSFER_SINGLE_TOPIC || topic === TRANSFER_BATCH_TOPIC) && contract !== NATIVE_LOG_ADDRESS) {
      const from = topicAddress(t2)
      const to = topicAddress(t3)
      if (from === null || to === null || from === to || (from !== me && to !== me)) continue
      const moved = erc1155Moves(log)
      if (moved === null) continue
      for (const [tokenId, value] of moved) add({ kind: 'erc1155', token: contract, tokenId }, to === me ? value : -value)
      continue
    }
    const a = topicAddress(t1)
    const b = topicAddress(t2)
    if (a === null || b === null) continue
    if (topic === TRANSFER_TOPIC) {
      if (a === b || (a !== me && b !== me)) continue
      let key: AssetKey
      let amount: bigint
      if (log.topics.length === 3) {
        const value = word(log.data)
        if (value === null) continue
        key = contract === NATIVE_LOG_ADDRESS ? { kind: 'native' } : { kind: 'erc20', token: contract }
        amount = value
      } else if (log.topics.length === 4 && t3 !== undefined && contract !== NATIVE_LOG_ADDRESS) {
        key = { kind: 'erc721', token: contract, tokenId: BigInt(t3) }
        amount = 1n
      } else continue
      add(key, b === me ? amount : -amount)
    } else if (topic === APPROVAL_TOPIC && a === me && contract !== NATIVE_LOG_ADDRESS) {
      if (log.topics.length === 3) {
        const value = word(log.data)
        if (value !== null) approvals.push({ kind: 'erc20', token: contract, spender: b, amount: value })
      } else if (log.topics.length === 4 && t3 !== undefined && BigInt(b) !== 0n) {
        // An ERC-721 approval cleared (spender zero, as older tokens log on transfer) grants nothing.
        approvals.push({ kind: 'erc721', token: contract, spender: b, tokenId: BigInt(t3) })
      }
    } else if (topic === APPROVAL_FOR_ALL_TOPIC && a === me && log.topics.length === 3) {
      const value = word(log.data)
      if (value !== null) approvals.push({ kind: 'all', token: contract, spender: b, approved: value !== 0n })
    }
  }
  return { changes: [...net.values()].filter((c) => c.amount !== 0n), approvals }
}

/** A call of the transaction or batch, from the user's account. */
export type AssetSimCall = { to: string | null; value: bigint; data: string }

/** The simulation's logs, or why there are none (shown as "Could not simulate: <reason>"). */
export type AssetSimulation = { ok: true; logs: SimLog[] } | { ok: false; reason: string }

const hex = (n: bigint) => `0x${n.toString(16)}`

/**
 * `calls` from `from`, in order, in one simulated block on the node at `rpcUrl` (the state each
 * call leaves is the next one's). Never throws: every failure is a reason.
 */
export async function simulateAssetLogs(
  fetchFn: typeof fetch | undefined,
  rpcUrl: string,
  from: string,
  calls: readonly AssetSimCall[],
): Promise<AssetSimulation> {
  const request = {
    blockStateCalls: [
      {
        calls: calls.map((c) => ({ from, ...(c.to !== null ? { to: c.to } : {}), value: hex(c.value), data: c.data })),
      },
    ],
    traceTransfers: true,
    validation: false,
  }
  let answer: unknown
  try {
    answer = await evmRpc<unknown>(fetchFn, rpcUrl, 'eth_simulateV1', [request, 'latest'], ASSET_SIM_TIMEOUT_MS)
  } catch (e) {
    if (e instanceof EvmRpcError) {
      if (e.code === -32601 || /not (found|supported|available)|unknown method|does not exist/i.test(e.message))
        return { ok: false, reason: 'the network’s node cannot simulate transactions' }
      return { ok: false, reason: `the network’s node refused (${e.message.slice(0, 160)})` }
    }
    return { ok: false, reason: 'the network’s node did not answer' }
  }
  const parsed = SimulateV1Result.safeParse(answer)
  if (!parsed.success) return { ok: false, reason: 'the network’s node gave an answer Sigil cannot read' }
  const results = parsed.data.flatMap((b) => b.calls)
  if (results.length !== calls.length) return { ok: false, reason: 'the network’s node gave an answer Sigil cannot read' }
  const failed = results.findIndex((r) => r.status !== '0x1')
  if (failed !== -1)
    return { ok: false, reason: calls.length === 1 ? 'the transaction fails' : `call ${failed + 1} fails when the calls run in order` }
  return { ok: true, logs: results.flatMap((r) => r.logs) }
}

/** A token's amount as shown: exact in its units with its symbol, else the raw integer. */
function tokenAmount(amount: bigint, token: TokenFacts | null, address: string): string {
  if (token === null) return `${amount} units of token ${getAddress(address)} (decimals unknown)`
  return `${formatUnits(amount, token.decimals)} ${token.symbol ?? '(no symbol)'}`
}

/** The view of the simulated changes: amounts in each asset's units, read on chain (tokenInfo.ts). */
export async function describeAssetChanges(
  core: Core,
  network: TokenNetwork & { nativeSymbol: string; nativeDecimals: number },
  account: string,
  sim: AssetSimulation,
): Promise<BalanceChangesView> {
  if (!sim.ok) return { status: 'unknown', reason: sim.reason }
  const { changes, approvals } = assetChangesFromLogs(sim.logs, account)
  const erc20s = new Set([
    ...changes.flatMap((c) => (c.kind === 'erc20' ? [c.token] : [])),
    ...approvals.flatMap((a) => (a.kind === 'erc20' ? [a.token] : [])),
  ])
  const configured = erc20s.size > 0 ? await configuredTokens(core, network) : []
  const facts = new Map<string, TokenFacts | null>()
  await Promise.all([...erc20s].map(async (t) => facts.set(t, (await readToken(core.deps.fetch, network, configured, t)).token)))
  const idOf = (token: string | null) => `${network.caip2}/${token ?? 'native'}`
  const shortToken = (t: string) => `${getAddress(t).slice(0, 6)}…${t.slice(-4)}`
  const changeViews: AssetChangeView[] = changes.map((c) => {
    const direction = c.amount < 0n ? 'send' : 'receive'
    const abs = c.amount < 0n ? -c.amount : c.amount
    if (c.kind === 'native')
      return {
        direction,
        amount: `${formatUnits(abs, network.nativeDecimals)} ${network.nativeSymbol}`,
        symbol: network.nativeSymbol,
        assetId: idOf(null),
        token: null,
      }
    if (c.kind === 'erc20') {
      const f = facts.get(c.token) ?? null
      return {
        direction,
        amount: tokenAmount(abs, f, c.token),
        symbol: f?.symbol ?? '?',
        assetId: idOf(c.token),
        token: getAddress(c.token),
      }
    }
    return {
      direction,
      amount: c.kind === 'erc1155' ? `${abs} × NFT #${c.tokenId} of ${shortToken(c.token)}` : `NFT #${c.tokenId} of ${shortToken(c.token)}`,
      symbol: 'NFT',
      assetId: idOf(c.token),
      token: getAddress(c.token),
    }
  })
  const approvalViews: ApprovalGrantView[] = approvals.map((a) => {
    const base = { spender: getAddress(a.spender), assetId: idOf(a.token), token: getAddress(a.token) }
    if (a.kind === 'erc20') {
      const f = facts.get(a.token) ?? null
      const symbol = f?.symbol ?? '?'
      const what = isUnlimited(a.amount) ? `Unlimited ${f?.symbol ?? `token ${getAddress(a.token)}`}` : tokenAmount(a.amount, f, a.token)
      return { ...base, what, symbol, revoke: a.amount === 0n }
    }
    if (a.kind === 'erc721') return { ...base, what: `NFT #${a.tokenId} of ${shortToken(a.token)}`, symbol: 'NFT', revoke: false }
    return { ...base, what: `All your NFTs of ${shortToken(a.token)}`, symbol: 'NFT', revoke: !a.approved }
  })
  return { status: 'simulated', changes: changeViews, approvals: approvalViews }
}

/** Simulate `calls` from `account` and describe what they change ({@link simulateAssetLogs}, {@link describeAssetChanges}). */
export async function balanceChanges(
  core: Core,
  network: TokenNetwork & { nativeSymbol: string; nativeDecimals: number },
  account: string,
  calls: readonly AssetSimCall[],
): Promise<BalanceChangesView> {
  return describeAssetChanges(core, network, account, await simulateAssetLogs(core.deps.fetch, network.rpcUrl, account, calls))
}
