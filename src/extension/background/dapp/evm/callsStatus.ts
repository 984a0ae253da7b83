/**
 * EIP-5792 batch ids and their status. A batch sent with `wallet_sendCalls` is remembered under
 * its id, per origin (another site cannot read it: an id it did not send is 5730), with the
 * chain, the account and the service's send status id(s): one for an atomic batch (the Gas
 * Station executes every call in one transaction), one per call for sequential sends.
 *
 * `wallet_getCallsStatus` asks the service for each send's status and the network's node for
 * the receipts once included: 100 pending, 200 included, 400 failed before reaching the chain
 * (nothing happened), 500 reverted on chain (atomic: nothing happened; sequential: all reverted),
 * 600 some calls landed and others did not. Not secret (ids, chain, status ids); versioned,
 * parsed on read, the newest {@link MAX_BATCHES_PER_ORIGIN} per site kept.
 */
import { z } from 'zod'
import { RPC_ERROR, rpcError } from '../../../protocol/rpcErrors'
import { evmRpc } from '../../chains/nodeRpc'
import type { StorageAreaLike } from '../../storage/storageArea'
import type { DappContext, DappOutcome } from '../../methods'
import { failureOutcome, NOT_LOGGED_IN } from '../session'
import { dappNetworks } from './chains'

/** Storage key of the batches sites sent. */
export const CALL_BATCHES_KEY = 'sigil.callBatches'
/** How many batches of one site are remembered (older ids answer 5730). */
export const MAX_BATCHES_PER_ORIGIN = 200

/** A batch as remembered. `sends[i]` is the service status id of send i; `calls` how many calls it had. */
export const CallBatch = z.object({
  id: z.string().min(1).max(4096),
  chainId: z.string().regex(/^0x[0-9a-f]{1,16}$/),
  caip2: z.string().max(64),
  organizationId: z.string().max(128),
  from: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  atomic: z.boolean(),
  calls: z.number().int().min(1).max(50),
  sends: z.array(z.string().min(1).max(128)).max(50),
  /** Sequential sends stopped early (a call failed before the chain): the calls after it were never sent. */
  stopped: z.boolean(),
  at: z.number().int(),
})
export type CallBatch = z.infer<typeof CallBatch>

const Batches = z.object({ v: z.literal(1), sites: z.record(z.string(), z.array(CallBatch).max(MAX_BATCHES_PER_ORIGIN)) })

async function loadAll(area: StorageAreaLike): Promise<Record<string, CallBatch[]>> {
  const parsed = Batches.safeParse((await area.get(CALL_BATCHES_KEY))[CALL_BATCHES_KEY])
  return parsed.success ? parsed.data.sites : {}
}

/** One write at a time per area: two batches completing together must not drop each other. */
const writes = new WeakMap<StorageAreaLike, Promise<void>>()

/** Store (or replace, same id) `origin`'s batch. */
export function saveBatch(area: StorageAreaLike, origin: string, batch: CallBatch): Promise<void> {
  const write = async () => {
    const sites = await loadAll(area)
    const kept = (sites[origin] ?? []).filter((b) => b.id !== batch.id)
    const next = [...kept, batch].slice(-MAX_BATCHES_PER_ORIGIN)
    await area.set({ [CALL_BATCHES_KEY]: { v: 1, sites: { ...sites, [origin]: next } } })
  }
  const run = (writes.get(area) ?? Promise.resolve()).then(write, write)
  writes.set(area, run)
  return run
}

/** `origin`'s batch with this id, or undefined (ids of other sites are not visible). */
export async function findBatch(area: StorageAreaLike, origin: string, id: string): Promise<CallBatch | undefined> {
  return (await loadAll(area))[origin]?.find((b) => b.id === id)
}

/** Where one send is: not final yet, included, reverted on chain, or failed before the chain. */
export type SendState = 'pending' | 'included' | 'reverted' | 'failed'

/** A service status (`get_send_transaction_status`) as a {@link SendState}. */
export function sendStateOf(status: { txStatus: string; eth?: { txHash?: string | undefined } | undefined }): SendState {
  if (status.txStatus === 'INCLUDED') return 'included'
  if (status.txStatus === 'FAILED') return status.eth?.txHash ? 'reverted' : 'failed'
  return 'pending'
}

/** EIP-5792 status code of a batch from its sends' states (never-sent calls of a stopped batch count as failed). */
export function batchStatusCode(states: readonly SendState[]): 100 | 200 | 400 | 500 | 600 {
  if (states.some((s) => s === 'pending')) return 100
  if (states.every((s) => s === 'included')) return 200
  if (states.every((s) => s === 'failed')) return 400
  if (states.some((s) => s === 'included')) return 600
  return 500
}

/** An EIP-5792 receipt: the fields it names, from the node's receipt. */
export type CallsReceipt = {
  logs: Array<{ address: string; data: string; topics: string[] }>
  status: string
  blockHash: string
  blockNumber: string
  gasUsed: string
  transactionHash: string
}

const NodeReceipt = z.object({
  logs: z.array(z.object({ address: z.string(), data: z.string(), topics: z.array(z.string()) }).loose()),
  status: z.string(),
  blockHash: z.string(),
  blockNumber: z.string(),
  gasUsed: z.string(),
  transactionHash: z.string(),
})

/** The receipt's EIP-5792 fields (unknown fields of the node dropped), or null when the node has none. */
export function callsReceiptOf(raw: unknown): CallsReceipt | null {
  const r = NodeReceipt.safeParse(raw)
  if (!r.success) return null
  const { logs, status, blockHash, blockNumber, gasUsed, transactionHash } = r.data
  return {
    logs: logs.map((l) => ({ address: l.address, data: l.data, topics: l.topics })),
    status,
    blockHash,
    blockNumber,
    gasUsed,
    transactionHash,
  }
}

/** wallet_getCallsStatus [id]. */
export async function getCallsStatus([id]: readonly [string], ctx: DappContext): Promise<DappOutcome> {
  if (!(await ctx.core.current())) return { error: NOT_LOGGED_IN }
  const batch = await findBatch(ctx.core.deps.local, ctx.origin, id)
  if (!batch) return { error: rpcError(RPC_ERROR.UNKNOWN_BUNDLE_ID, 'Unknown bundle id: this site sent no batch with this id') }
  const network = (await dappNetworks(ctx.core)).find((n) => n.chainId === batch.chainId)
  if (!network) return { error: rpcError(RPC_ERROR.CHAIN_DISCONNECTED, `Sigil has no RPC node for chain ${batch.chainId}`) }
  try {
    return await ctx.core.withSession(async (client, s) => {
      if (s.record.organizationId !== batch.organizationId) return { error: NOT_LOGGED_IN }
      const states: SendState[] = []
      const receipts: CallsReceipt[] = []
      for (const sendId of batch.sends) {
        const status = await client.getSendTransactionStatus({ organizationId: batch.organizationId, sendTransactionStatusId: sendId })
        let state = sendStateOf(status)
        const hash = status.eth?.txHash
        if ((state === 'included' || state === 'reverted') && hash) {
          const receipt = callsReceiptOf(await evmRpc<unknown>(ctx.core.deps.fetch, network.rpcUrl, 'eth_getTransactionReceipt', [hash]))
          if (receipt) receipts.push(receipt)
          // The service marks it final only after the node has the receipt; a node behind it is still pending.
          else state = 'pending'
        }
        states.push(state)
      }
      const unsent = batch.atomic ? 0 : batch.calls - batch.sends.length
      for (let i = 0; i < unsent; i++) states.push(batch.stopped ? 'failed' : 'pending')
      const status = batchStatusCode(states)
      return {
        result: {
          version: '2.0.0',
          id: batch.id,
          chainId: batch.chainId,
          status,
          atomic: batch.atomic,
          ...(receipts.length > 0 ? { receipts } : {}),
        },
      }
    })
  } catch (err) {
    return failureOutcome(err)
  }
}

/**
 * wallet_showCallsStatus [id]: Sigil's window on its Activity (where the batch's sends are listed
 * with the site's name); null once shown. Unknown ids (or another site's) are 5730.
 */
export async function showCallsStatus([id]: readonly [string], ctx: DappContext): Promise<DappOutcome> {
  if (!(await ctx.core.current())) return { error: NOT_LOGGED_IN }
  const batch = await findBatch(ctx.core.deps.local, ctx.origin, id)
  if (!batch) return { error: rpcError(RPC_ERROR.UNKNOWN_BUNDLE_ID, 'Unknown bundle id: this site sent no batch with this id') }
  const shown = await ctx.dapp.showWallet?.()
  if (shown === false) return { error: rpcError(RPC_ERROR.INTERNAL, "Sigil's window could not be opened") }
  return { result: null }
}
