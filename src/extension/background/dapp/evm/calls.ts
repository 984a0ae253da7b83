/**
 * EIP-5792 `wallet_sendCalls`: a batch of calls approved in ONE window, then sent through the
 * service.
 *
 * - Params are checked here (-32602 naming the field); the batch's chain must be the site's
 *   active chain (5710); a capability the dApp marks non-optional that Sigil does not have is 5700;
 *   more than {@link MAX_BATCH_CALLS} calls is 5740; a call without `to` (a deployment, with its
 *   creation code) only alone, sent as one plain creation send paid by the user.
 * - A site cannot choose the account's delegate: any EIP-7702 authorization field is refused.
 * - Atomic (the account is or can be delegated to the network's Gas Station): one service send
 *   with every call (`eth_send_transaction` `calls`, `sponsor` when the dApp asked for
 *   `paymasterService` and the service sponsors the user). Otherwise, when the dApp does not
 *   require atomicity, one send per call, in order, each after the previous one has its hash; a
 *   single call is a plain send. `atomicRequired` without atomic support is 5760.
 * - The window shows every call decoded, the total value, who pays the gas and, when the account
 *   is not delegated yet, that approving upgrades it to Sigil's batch executor.
 * - The answer is `{ id }`; the id names the service's send(s) in callsStatus.ts, per origin.
 */
import { bytesToHex, randomBytes } from '@noble/hashes/utils.js'
import { formatUnits } from 'viem'
import { z } from 'zod'
import type { SigilClient } from '../../../../api/client'
import { RPC_ERROR, rpcError, type RpcErrorObject } from '../../../protocol/rpcErrors'
import type { BatchCallView, ApprovalView } from '../../../protocol/approvalView'
import { recordActivitySite } from '../../activity/activitySites'
import { feeRows } from '../../approval/text'
import type { DappContext, DappOutcome } from '../../methods'
import { failureOutcome, NOT_LOGGED_IN } from '../session'
import { accountsFor } from './accounts'
import { balanceChanges } from './assetChanges'
import { decodeTokenCall } from './calldata'
import { type AtomicStatus, capabilitiesOn } from './capabilities'
import { saveBatch, findBatch, type CallBatch } from './callsStatus'
import { siteChain, type DappNetwork } from './chains'
import { SEND_HASH_TIMEOUT_MS } from './send'
import { NOT_CONNECTED, signerFor } from './signing'
import { organizationAbis, simulateTransaction, type Simulation } from './simulate'

/** Most calls in one batch (the service's `calls` limit). */
export const MAX_BATCH_CALLS = 50

/** -32602: what a site asking for an EIP-7702 delegate gets. */
export const DELEGATE_REFUSED = 'Sigil does not let sites choose an account delegate'

/** Transaction fields that would carry an EIP-7702 authorization (any spelling a library uses). */
export const DELEGATE_FIELDS = ['authorizationList', 'authorization_list', 'authorizations', 'authorization'] as const

/** The -32602 for a request object carrying a 7702 authorization, or null. */
export function delegateFieldError(obj: unknown): RpcErrorObject | null {
  if (typeof obj !== 'object' || obj === null) return null
  const found = DELEGATE_FIELDS.find((f) => (obj as Record<string, unknown>)[f] !== undefined)
  return found === undefined ? null : rpcError(RPC_ERROR.INVALID_PARAMS, `${DELEGATE_REFUSED} (${found})`)
}

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, { error: 'expected a 0x-prefixed 20-byte address' })
const quantity = z.string().regex(/^0x(0|[1-9a-fA-F][0-9a-fA-F]{0,63})$/, { error: 'expected a 0x quantity' })
const data = z
  .string()
  .max(262_146, { error: 'at most 128 KiB' })
  .regex(/^0x([0-9a-fA-F]{2})*$/, { error: 'expected 0x-prefixed hex bytes' })
/** A capability as EIP-5792 carries it: an object, `optional: true` when the wallet may ignore it. */
const Capability = z.object({ optional: z.boolean().optional() }).loose()
const Capabilities = z.record(z.string().max(64), Capability).optional()

const Call = z.object({ to: address.optional(), data: data.optional(), value: quantity.optional(), capabilities: Capabilities }).loose()

/** The `wallet_sendCalls` request object (version 2.0.0). */
export const SendCallsRequest = z
  .object({
    version: z.literal('2.0.0', { error: 'Sigil supports version "2.0.0"' }),
    id: z.string().min(1).max(4096).optional(),
    from: address.optional(),
    chainId: z.string().regex(/^0x[0-9a-fA-F]{1,16}$/, { error: 'expected a 0x chain id' }),
    atomicRequired: z.boolean({ error: 'expected true or false' }),
    calls: z.array(Call).min(1, { error: 'at least one call' }).max(1000),
    capabilities: Capabilities,
  })
  .loose()
export type SendCallsRequest = z.output<typeof SendCallsRequest>

/** The capabilities Sigil understands in a request. */
const KNOWN_CAPABILITIES = new Set(['paymasterService'])

/** A checked call: what the service sends; `to` null deploys a contract (only as the batch's one call). */
export type CheckedCall = { to: string | null; value: bigint; data: string }

/** The checked batch, or the error to answer (before anything is asked or read). */
export function checkSendCalls(
  raw: unknown,
):
  | { ok: true; request: SendCallsRequest; calls: CheckedCall[]; wantsPaymaster: 'no' | 'optional' | 'required' }
  | { ok: false; error: RpcErrorObject } {
  const invalid = (message: string) => ({
    ok: false as const,
    error: rpcError(RPC_ERROR.INVALID_PARAMS, `Invalid params for wallet_sendCalls: ${message}`),
  })
  const parsed = SendCallsRequest.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const path = issue
      ? issue.path
          .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
          .join('')
          .replace(/^\./, '')
      : ''
    return invalid(`${path || 'params'}: ${issue?.message ?? 'invalid'}`)
  }
  const request = parsed.data
  const delegate = delegateFieldError(request) ?? request.calls.map(delegateFieldError).find((e) => e !== null) ?? null
  if (delegate) return { ok: false, error: delegate }
  if (request.calls.length > MAX_BATCH_CALLS)
    return { ok: false, error: rpcError(RPC_ERROR.BUNDLE_TOO_LARGE, `Too many calls: Sigil sends at most ${MAX_BATCH_CALLS} in one batch`) }
  const calls: CheckedCall[] = []
  for (const [i, c] of request.calls.entries()) {
    if (c.to === undefined && request.calls.length > 1)
      return invalid(`calls[${i}].to: required (a contract deployment cannot be part of a batch)`)
    if (c.to === undefined && (c.data ?? '0x') === '0x') return invalid(`calls[${i}].data: a deployment needs its creation code`)
    calls.push({ to: c.to ?? null, value: BigInt(c.value ?? '0x0'), data: c.data ?? '0x' })
  }
  // Capabilities the dApp requires and Sigil does not have are refused (EIP-5792 5700); optional ones are ignored.
  const all = [request.capabilities ?? {}, ...request.calls.map((c) => c.capabilities ?? {})]
  for (const caps of all) {
    for (const [name, cap] of Object.entries(caps)) {
      if (!KNOWN_CAPABILITIES.has(name) && cap.optional !== true)
        return { ok: false, error: rpcError(RPC_ERROR.UNSUPPORTED_CAPABILITY, `Unsupported non-optional capability: ${name.slice(0, 64)}`) }
    }
  }
  const pm = request.capabilities?.['paymasterService']
  const wantsPaymaster = pm === undefined ? 'no' : pm.optional === true ? 'optional' : 'required'
  return { ok: true, request, calls, wantsPaymaster }
}

/** How the batch goes out. */
export type BatchPlan = { mode: 'single' | 'atomic' | 'sequential'; sponsor: boolean; upgrade: boolean }

/** The plan from the facts, or the EIP-5792 error (5760 atomicity, 5700 paymaster) when it cannot go. */
export function planBatch(
  calls: number,
  atomicRequired: boolean,
  atomic: AtomicStatus,
  sponsorAvailable: boolean,
  wantsPaymaster: 'no' | 'optional' | 'required',
  deploys = false,
): BatchPlan | { error: RpcErrorObject } {
  // A deployment is a plain creation send from the account: never through the executor, never sponsored.
  if (deploys) {
    if (wantsPaymaster === 'required')
      return {
        error: rpcError(RPC_ERROR.UNSUPPORTED_CAPABILITY, 'Unsupported capability: paymasterService (not for a contract deployment)'),
      }
    return { mode: 'single', sponsor: false, upgrade: false }
  }
  const sponsor = wantsPaymaster !== 'no' && sponsorAvailable && atomic !== 'unsupported'
  if (wantsPaymaster === 'required' && !sponsor)
    return {
      error: rpcError(
        RPC_ERROR.UNSUPPORTED_CAPABILITY,
        'Unsupported capability: paymasterService (the service does not sponsor your gas on this chain)',
      ),
    }
  if (calls === 1 && !sponsor) return { mode: 'single', sponsor: false, upgrade: false }
  if (atomic !== 'unsupported') return { mode: 'atomic', sponsor, upgrade: atomic === 'supported' }
  if (atomicRequired)
    return {
      error: rpcError(
        RPC_ERROR.ATOMICITY_NOT_SUPPORTED,
        'Atomicity not supported: this chain has no Sigil batch executor for your account',
      ),
    }
  return { mode: 'sequential', sponsor: false, upgrade: false }
}

/**
 * Gas of the batch for the window: each call simulated alone from the account, one intrinsic
 * 21,000, the executor's own work per call and per batch (signature check, nonce), and the
 * authorization when the account is upgraded. The service estimates the real transaction.
 */
export function batchGasEstimate(perCall: readonly bigint[], upgrade: boolean): bigint {
  const calls = perCall.reduce((sum, g) => sum + (g > 21_000n ? g - 21_000n : 0n) + 10_000n, 0n)
  return 21_000n + calls + 30_000n + (upgrade ? 25_000n : 0n)
}

const POLL_MS = 150

/** The hash of a send once broadcast, or null when it failed before (or did not get one in time). */
async function hashOf(ctx: DappContext, client: SigilClient, organizationId: string, id: string): Promise<string | null> {
  const deadline = ctx.core.now() + SEND_HASH_TIMEOUT_MS
  for (;;) {
    const status = await client.getSendTransactionStatus({ organizationId, sendTransactionStatusId: id })
    if (status.eth?.txHash) return status.eth.txHash
    if (status.txStatus === 'FAILED' || ctx.core.now() > deadline) return null
    await new Promise((r) => setTimeout(r, POLL_MS))
  }
}

function nativeText(wei: bigint, network: DappNetwork): string {
  return `${formatUnits(wei, network.nativeDecimals)} ${network.nativeSymbol}`
}

/** wallet_sendCalls [request]: `{ id }` once the batch is handed to the service. */
export async function sendCalls([raw]: readonly [unknown], ctx: DappContext): Promise<DappOutcome> {
  const checked = checkSendCalls(raw)
  if (!checked.ok) return { error: checked.error }
  const { request, calls, wantsPaymaster } = checked
  const from = request.from ?? (await accountsFor(ctx))[0]
  if (from === undefined) return { error: (await ctx.core.current()) ? NOT_CONNECTED : NOT_LOGGED_IN }
  const signer = await signerFor(ctx, from)
  if ('error' in signer) return signer
  const { label, network } = await siteChain(ctx)
  if (BigInt(request.chainId) !== BigInt(label.chainId))
    return {
      error: rpcError(
        RPC_ERROR.UNSUPPORTED_CHAIN_ID,
        `Unsupported chain id ${request.chainId}: the site's active chain is ${label.chainId}`,
      ),
    }
  if (!network) return { error: rpcError(RPC_ERROR.CHAIN_DISCONNECTED, `Sigil has no RPC node for chain ${label.chainId}`) }
  if (network.added)
    return {
      error: rpcError(
        RPC_ERROR.UNSUPPORTED_CHAIN_ID,
        `Sending on ${network.name} (a network you added) is not supported by Sigil's service`,
      ),
    }
  if (request.id !== undefined && (await findBatch(ctx.core.deps.local, ctx.origin, request.id)))
    return { error: rpcError(RPC_ERROR.DUPLICATE_ID, 'Duplicate id: this site already sent a batch with this id') }

  let plan: BatchPlan | { error: RpcErrorObject }
  const sims: Simulation[] = []
  try {
    const caps = await ctx.core.withSession((client) => capabilitiesOn(ctx.core, client, signer.organizationId, signer.address, network))
    const deploys = calls.some((c) => c.to === null)
    plan = planBatch(calls.length, request.atomicRequired, caps.atomic.status, caps.paymasterService !== undefined, wantsPaymaster, deploys)
    if ('error' in plan) return plan
    for (const c of calls)
      sims.push(
        await simulateTransaction(
          ctx.core.deps.fetch,
          network.rpcUrl,
          { from: signer.address, ...c },
          {},
          organizationAbis(ctx, signer.organizationId),
        ),
      )
  } catch (err) {
    const out = failureOutcome(err)
    if (out.error.code !== RPC_ERROR.INTERNAL) return out
    return { error: rpcError(RPC_ERROR.INTERNAL, `The RPC node of ${network.name} did not answer; nothing was sent`) }
  }
  const thePlan = plan

  const [decoded, changes] = await Promise.all([
    Promise.all(calls.map((c) => (c.to === null ? null : decodeTokenCall(ctx.core, network, c.to, c.data)))),
    balanceChanges(ctx.core, network, signer.address, calls),
  ])
  const views: BatchCallView[] = calls.map((c, i) => {
    // Creation code is not a call: neither decoded nor given a selector.
    const call = decoded[i] ?? null
    return {
      to: c.to,
      valueWei: c.value.toString(10),
      value: nativeText(c.value, network),
      data: c.data,
      call,
      selector: call === null && c.to !== null && c.data.length >= 10 ? c.data.slice(0, 10).toLowerCase() : null,
      failure: sims[i]?.failure ?? null,
    }
  })
  const total = calls.reduce((s, c) => s + c.value, 0n)
  const first = sims[0]
  const perCall = sims.map((s) => s.gasLimit)
  const known = perCall.every((g): g is bigint => g !== null)
  const gas = !known
    ? null
    : thePlan.mode === 'atomic'
      ? batchGasEstimate(
          perCall.map((g) => (g * 10n) / 12n),
          thePlan.upgrade,
        )
      : perCall.reduce((a, b) => a + b, 0n)
  const fees =
    thePlan.sponsor || first === undefined
      ? []
      : feeRows({
          valueWei: total,
          gasLimit: gas,
          price: { maxFeePerGas: first.maxFeePerGas, maxPriorityFeePerGas: first.maxPriorityFeePerGas },
          ...(gas !== null && first.baseFeePerGas !== null
            ? {
                estimatedWei:
                  gas *
                  (first.baseFeePerGas + first.maxPriorityFeePerGas < first.maxFeePerGas
                    ? first.baseFeePerGas + first.maxPriorityFeePerGas
                    : first.maxFeePerGas),
              }
            : {}),
          native: { symbol: network.nativeSymbol, decimals: network.nativeDecimals },
        })
  const failing = views.flatMap((v, i) => (v.failure === null ? [] : [`Call ${i + 1} fails when simulated alone: ${v.failure}`]))
  const view: ApprovalView = {
    kind: 'sendCalls',
    address: signer.address,
    chain: label,
    calls: views,
    total: nativeText(total, network),
    atomic: thePlan.mode !== 'sequential',
    gasPayer: thePlan.sponsor ? 'sponsor' : 'you',
    fees,
    upgrade: thePlan.upgrade,
    warnings: failing,
    balanceChanges: changes,
  }
  const outcome = await ctx.dapp.ask(ctx.origin, 'wallet_sendCalls', view)
  if (!outcome.approved) return { error: outcome.error }

  // Bound to what was shown: the same chain for the site, the same connected account, the same session's organization.
  if ((await siteChain(ctx)).label.chainId !== label.chainId) return { error: rpcError(RPC_ERROR.USER_REJECTED, 'The network changed') }
  const still = (await accountsFor(ctx)).some((a) => a.toLowerCase() === signer.address.toLowerCase())
  if (!still) return { error: NOT_CONNECTED }

  const id = request.id ?? `0x${bytesToHex(randomBytes(32))}`
  const batch: CallBatch = {
    id,
    chainId: label.chainId,
    caip2: network.caip2,
    organizationId: signer.organizationId,
    from: signer.address,
    atomic: thePlan.mode !== 'sequential',
    calls: calls.length,
    sends: [],
    stopped: false,
    at: ctx.core.now(),
  }
  try {
    return await ctx.core.withSession(async (client, s) => {
      if (s.record.organizationId !== signer.organizationId) return { error: NOT_LOGGED_IN }
      const submit = async (batchCalls: CheckedCall[], sponsor: boolean) => {
        const res = await client.ethSendTransaction({
          organizationId: signer.organizationId,
          from: signer.address,
          caip2: network.caip2,
          calls: batchCalls.map((c) => ({ ...(c.to !== null ? { to: c.to } : {}), value: c.value.toString(10), data: c.data })),
          ...(sponsor ? { sponsor: true } : {}),
        })
        await recordActivitySite(ctx.core.deps.local, res.activity.id, ctx.origin, ctx.core.now())
        return res.activity.status === 'ACTIVITY_STATUS_COMPLETED' ? res.sendTransactionStatusId : null
      }
      if (thePlan.mode !== 'sequential') {
        const sendId = await submit(calls, thePlan.sponsor)
        if (sendId === null)
          return { error: rpcError(RPC_ERROR.INTERNAL, 'The batch needs another approval in the service; nothing was sent yet') }
        await saveBatch(ctx.core.deps.local, ctx.origin, { ...batch, sends: [sendId] })
        return { result: { id } }
      }
      // Sequential: each call after the previous one has its hash (the service numbers them in order).
      for (const [i, c] of calls.entries()) {
        const sendId = await submit([c], false)
        if (sendId === null) {
          await saveBatch(ctx.core.deps.local, ctx.origin, { ...batch, stopped: true })
          return i === 0
            ? { error: rpcError(RPC_ERROR.INTERNAL, 'The send needs another approval in the service; nothing was sent yet') }
            : { result: { id } }
        }
        batch.sends.push(sendId)
        await saveBatch(ctx.core.deps.local, ctx.origin, batch)
        if (i < calls.length - 1 && (await hashOf(ctx, client, signer.organizationId, sendId)) === null) {
          await saveBatch(ctx.core.deps.local, ctx.origin, { ...batch, stopped: true })
          break
        }
      }
      return { result: { id } }
    })
  } catch (err) {
    if (batch.sends.length > 0) {
      await saveBatch(ctx.core.deps.local, ctx.origin, { ...batch, stopped: true })
      return { result: { id } }
    }
    const out = failureOutcome(err)
    if (out.error.code !== RPC_ERROR.INTERNAL) return out
    const why = err instanceof Error && 'code' in err && typeof err.code === 'string' ? ` (${err.code})` : ''
    return { error: rpcError(RPC_ERROR.INTERNAL, `The wallet could not send the batch${why}`) }
  }
}
