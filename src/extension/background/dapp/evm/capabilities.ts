/**
 * EIP-5792 `wallet_getCapabilities`: what the connected account can do on each of the wallet's
 * EVM networks, keyed by hex chain id as viem/wagmi parse it.
 *
 * - `atomic`: `ready` when the account is already delegated (EIP-7702) to the network's Gas
 *   Station (read with eth_getCode from the network's node); `supported` when the service has a
 *   Gas Station there (the service answers the account's Gas Station nonce, get_nonces
 *   `gasStationNonce: true`, which it refuses on networks without one); `unsupported` otherwise
 *   (networks the user added, no Gas Station, or the account delegated to another contract, which
 *   the service refuses to batch through).
 * - `paymasterService: { supported: true }` only where atomic batches go and the service sponsors
 *   this user's gas with budget left in its window (get_gas_usage).
 *
 * The service's answers are cached briefly per organization and network (a dApp asks often).
 */
import { z } from 'zod'
import { delegationOf, type Delegation } from '../../../../chains/gasStation/batch'
import type { SigilClient } from '../../../../api/client'
import { RPC_ERROR, rpcError } from '../../../protocol/rpcErrors'
import { evmRpc } from '../../chains/nodeRpc'
import type { Core } from '../../core'
import type { DappContext, DappOutcome } from '../../methods'
import { NOT_LOGGED_IN } from '../session'
import { accountsFor } from './accounts'
import { type DappNetwork, dappNetworks, normalizeChainId } from './chains'

/** How long the service's "has a Gas Station" and "sponsors you" answers are reused. */
export const CAPABILITY_CACHE_MS = 60_000

/** EIP-5792 atomic status of an account on a chain. */
export type AtomicStatus = 'supported' | 'ready' | 'unsupported'

/** One chain's capabilities as the dApp reads them. */
export type ChainCapabilities = { atomic: { status: AtomicStatus }; paymasterService?: { supported: true } }

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/)
const chainIdQ = z.string().regex(/^0x[0-9a-fA-F]{1,16}$/)
/** `[address, chainIds?]`; viem sends `[undefined]` (null) when the client has no account. */
export const GetCapabilitiesParams = z.union([z.tuple([address.nullable()]), z.tuple([address.nullable(), z.array(chainIdQ).max(64)])])

type Cached = { at: number; value: boolean }
const caches = new WeakMap<Core, Map<string, Cached>>()

async function cached(core: Core, key: string, read: () => Promise<boolean>): Promise<boolean> {
  let map = caches.get(core)
  if (!map) caches.set(core, (map = new Map()))
  const hit = map.get(key)
  if (hit && core.now() - hit.at < CAPABILITY_CACHE_MS) return hit.value
  const value = await read()
  map.set(key, { at: core.now(), value })
  return value
}

/** Whether the service runs a Gas Station on `network` for this account (cached; a refusal or failure is "no"). */
export async function serviceHasGasStation(core: Core, client: SigilClient, organizationId: string, account: string, network: DappNetwork) {
  if (network.added) return false
  return cached(core, `gs|${organizationId}|${network.caip2}`, async () => {
    try {
      const r = await client.getNonces({ organizationId, address: account, caip2: network.caip2, gasStationNonce: true })
      return typeof r.gasStationNonce === 'string'
    } catch {
      return false
    }
  })
}

/** Whether the service sponsors this organization's gas with budget left in its window (cached; failure is "no"). */
export async function serviceSponsors(core: Core, client: SigilClient, organizationId: string): Promise<boolean> {
  return cached(core, `sp|${organizationId}`, async () => {
    try {
      const usage = await client.getGasUsage({ organizationId })
      const limit = Number(usage.windowLimitUsd)
      const used = Number(usage.usageUsd)
      return Number.isFinite(limit) && Number.isFinite(used) && limit > 0 && used < limit
    } catch {
      return false
    }
  })
}

/** The account's EIP-7702 delegation on `network`, read from its node. */
export async function delegationOn(core: Core, network: Pick<DappNetwork, 'rpcUrl'>, account: string): Promise<Delegation> {
  const code = await evmRpc<unknown>(core.deps.fetch, network.rpcUrl, 'eth_getCode', [account, 'latest'])
  if (typeof code !== 'string') throw new Error('eth_getCode answered no code')
  return delegationOf(code.toLowerCase())
}

/** The atomic status from the facts: service Gas Station, the network's named Gas Station, the account's delegation. */
export function atomicStatusOf(hasGasStation: boolean, gasStation: string | undefined, delegation: Delegation | null): AtomicStatus {
  if (!hasGasStation) return 'unsupported'
  if (delegation === null || delegation.kind === 'none') return 'supported'
  if (delegation.kind === 'delegated' && gasStation !== undefined && delegation.to === gasStation.toLowerCase()) return 'ready'
  // Delegated elsewhere (or a contract account): the service refuses to batch until it is undelegated.
  return 'unsupported'
}

/** The capabilities of `account` on `network`. */
export async function capabilitiesOn(
  core: Core,
  client: SigilClient,
  organizationId: string,
  account: string,
  network: DappNetwork,
): Promise<ChainCapabilities> {
  const has = await serviceHasGasStation(core, client, organizationId, account, network)
  let delegation: Delegation | null = null
  if (has) {
    try {
      delegation = await delegationOn(core, network, account)
    } catch {
      delegation = null
    }
  }
  const atomic = atomicStatusOf(has, network.gasStation, delegation)
  const sponsored = atomic !== 'unsupported' && (await serviceSponsors(core, client, organizationId))
  return { atomic: { status: atomic }, ...(sponsored ? { paymasterService: { supported: true as const } } : {}) }
}

/** wallet_getCapabilities [address, chainIds?]: the connected account's capabilities per chain. */
export async function getCapabilities(params: z.output<typeof GetCapabilitiesParams>, ctx: DappContext): Promise<DappOutcome> {
  const session = await ctx.core.current()
  if (!session) return { error: NOT_LOGGED_IN }
  const accounts = await accountsFor(ctx)
  const asked = params[0] ?? accounts[0]
  const account = asked === undefined ? undefined : accounts.find((a) => a.toLowerCase() === asked.toLowerCase())
  if (account === undefined) return { error: rpcError(RPC_ERROR.UNAUTHORIZED, 'Unauthorized: this site is not connected to that account') }
  const wanted = params[1]?.map(normalizeChainId)
  const networks = (await dappNetworks(ctx.core)).filter((n) => wanted === undefined || wanted.includes(n.chainId))
  const out: Record<string, ChainCapabilities> = {}
  try {
    await ctx.core.withSession(async (client, s) => {
      for (const n of networks) out[n.chainId] = await capabilitiesOn(ctx.core, client, s.record.organizationId, account, n)
    })
  } catch {
    return { error: NOT_LOGGED_IN }
  }
  return { result: out }
}
