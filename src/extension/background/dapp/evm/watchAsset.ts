/**
 * `wallet_watchAsset` (EIP-747), ERC-20 only, with the user's approval. The token is stored per
 * user (organization id + user id) in the persistent area, versioned and parsed on read. When the
 * site's network has a node, the token's `decimals()` must match what the site claims. The
 * popup's balances (wallet/balances.ts) read the stored tokens; "Import token" (wallet/importToken.ts)
 * adds to the same list.
 */
import { z } from 'zod'
import { RPC_ERROR, rpcError } from '../../../protocol/rpcErrors'
import { NOT_LOGGED_IN } from '../session'
import { accountsFor } from './accounts'
import { siteChain } from './chains'
import { evmRpc } from '../../chains/nodeRpc'
import type { DappContext, DappOutcome } from '../../methods'
import type { StorageAreaLike } from '../../storage/storageArea'

/** Storage key of the watched tokens. */
export const WATCHED_ASSETS_KEY = 'sigil.watchedAssets'

/** EIP-747 params (an object, not an array). */
export const WatchAssetParams = z
  .object({
    type: z.literal('ERC20'),
    options: z
      .object({
        address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
        symbol: z
          .string()
          .min(1)
          .max(11)
          .regex(/^[\x21-\x7e]+$/),
        decimals: z.number().int().min(0).max(36),
        image: z.string().max(2048).optional(),
      })
      .loose(),
  })
  .strict()

/** One watched token. */
export const WatchedAsset = z.object({
  chainId: z.string(),
  address: z.string(),
  symbol: z.string(),
  decimals: z.number().int(),
  addedAt: z.number().int(),
})
export type WatchedAsset = z.infer<typeof WatchedAsset>
const WatchedAssets = z.object({ v: z.literal(1), users: z.record(z.string(), z.array(WatchedAsset).max(200)) })

const userKey = (organizationId: string, userId: string) => `${organizationId}/${userId}`

async function loadAll(area: StorageAreaLike): Promise<Record<string, WatchedAsset[]>> {
  const parsed = WatchedAssets.safeParse((await area.get(WATCHED_ASSETS_KEY))[WATCHED_ASSETS_KEY])
  return parsed.success ? parsed.data.users : {}
}

/** The tokens a user watches. */
export async function watchedAssets(area: StorageAreaLike, organizationId: string, userId: string): Promise<WatchedAsset[]> {
  return (await loadAll(area))[userKey(organizationId, userId)] ?? []
}

/** Add (or replace) one watched token of a user; the newest 200 are kept. */
export async function addWatched(area: StorageAreaLike, organizationId: string, userId: string, asset: WatchedAsset): Promise<void> {
  const users = await loadAll(area)
  const key = userKey(organizationId, userId)
  const mine = (users[key] ?? []).filter((a) => !(a.chainId === asset.chainId && a.address === asset.address))
  await area.set({ [WATCHED_ASSETS_KEY]: { v: 1, users: { ...users, [key]: [...mine, asset].slice(-200) } } })
}

/** wallet_watchAsset: true once the user added the token (or already watches it). */
export async function watchAsset(p: z.output<typeof WatchAssetParams>, ctx: DappContext): Promise<DappOutcome> {
  const session = await ctx.core.current()
  if (!session) return { error: NOT_LOGGED_IN }
  const [address] = await accountsFor(ctx)
  if (address === undefined) return { error: rpcError(RPC_ERROR.UNAUTHORIZED, 'Unauthorized: this site is not connected') }
  const { organizationId, userId } = session.record
  const { label, network } = await siteChain(ctx)
  const token = p.options.address.toLowerCase()
  const mine = await watchedAssets(ctx.core.deps.local, organizationId, userId)
  if (mine.some((a) => a.chainId === label.chainId && a.address === token)) return { result: true }
  if (network) {
    let decimals: number | undefined
    try {
      const out = await evmRpc<string>(ctx.core.deps.fetch, network.rpcUrl, 'eth_call', [{ to: token, data: '0x313ce567' }, 'latest'])
      decimals = /^0x[0-9a-fA-F]{1,64}$/.test(out) ? Number(BigInt(out)) : undefined
    } catch {
      decimals = undefined
    }
    if (decimals === undefined)
      return {
        error: rpcError(
          RPC_ERROR.INVALID_PARAMS,
          `Invalid params for wallet_watchAsset: ${token} is not an ERC-20 token on ${network.name}`,
        ),
      }
    if (decimals !== p.options.decimals) {
      return {
        error: rpcError(
          RPC_ERROR.INVALID_PARAMS,
          `Invalid params for wallet_watchAsset: the token has ${decimals} decimals, not ${p.options.decimals}`,
        ),
      }
    }
  }
  const outcome = await ctx.dapp.ask(ctx.origin, 'wallet_watchAsset', {
    kind: 'watchAsset',
    address,
    token,
    symbol: p.options.symbol,
    decimals: p.options.decimals,
    chain: label,
  })
  if (!outcome.approved) return { error: outcome.error }
  const now = await ctx.core.current()
  if (!now || now.record.organizationId !== organizationId || now.record.userId !== userId) return { error: NOT_LOGGED_IN }
  await addWatched(ctx.core.deps.local, organizationId, userId, {
    chainId: label.chainId,
    address: token,
    symbol: p.options.symbol,
    decimals: p.options.decimals,
    addedAt: ctx.core.now(),
  })
  return { result: true }
}
