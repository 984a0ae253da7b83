/**
 * `wallet_addEthereumChain` (EIP-3085) with the user's approval. Before any window: the params
 * are checked and a chain the wallet already knows is refused (the site should switch to it);
 * nothing is sent to the site's RPC URL then (a site must not make the
 * extension probe a URL of its choosing, e.g. a port on 127.0.0.1). The window shows the RPC URL;
 * only once the user approved is the RPC asked `eth_chainId`, and the network is stored when it
 * answers the same chain id. Any other outcome (an error, another chain, garbage, no answer) is
 * the same fixed refusal: nothing of the RPC's answer reaches the page. The network is stored in
 * the persistent area (chains.ts).
 *
 * As MetaMask does, the site then is on that chain: approving a new network also switches the site
 * to it (one window; its pending requests are rejected and its tabs get `chainChanged`). A chain the
 * wallet already knows is not added again (its RPC is kept): a site already on it gets null at once,
 * a site on another chain gets the switch window, as for `wallet_switchEthereumChain`.
 */
import { z } from 'zod'
import { RPC_ERROR, rpcError } from '../../../protocol/rpcErrors'
import { failureOutcome, NOT_LOGGED_IN } from '../session'
import { dappNetworks, normalizeChainId, saveAddedChain } from './chains'
import { applySiteChain, askToSwitch } from './switchChain'
import { evmRpc } from '../../chains/nodeRpc'
import type { DappContext, DappOutcome } from '../../methods'

const printable = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[\x20-\x7e]+$/)
    .refine((s) => s.trim() === s)

/** An RPC URL: https, or http to this machine (dev chains). No credentials in it. */
const rpcUrl = z
  .string()
  .max(2048)
  .refine((u) => {
    try {
      const url = new URL(u)
      if (url.username || url.password) return false
      return url.protocol === 'https:' || (url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname))
    } catch {
      return false
    }
  })

/** EIP-3085 AddEthereumChainParameter. */
export const AddEthereumChainParameter = z
  .object({
    chainId: z.string().regex(/^0x[1-9a-fA-F][0-9a-fA-F]{0,12}$/),
    chainName: printable(64),
    rpcUrls: z.array(rpcUrl).min(1).max(8),
    nativeCurrency: z.object({ name: printable(64), symbol: printable(11), decimals: z.literal(18) }),
    blockExplorerUrls: z
      .array(
        z
          .string()
          .max(2048)
          .regex(/^https:\/\//),
      )
      .max(8)
      .nullable()
      .optional(),
    iconUrls: z.array(z.string().max(2048)).max(8).optional(),
  })
  .strict()

/** wallet_addEthereumChain params: one {@link AddEthereumChainParameter}. */
export const AddEthereumChainParams = z.tuple([AddEthereumChainParameter])

/**
 * Whether the RPC at `url` answers `eth_chainId` with `chainId`. Called only after the user's
 * approval; every failure is `false`, so the page cannot tell a closed port from an open one.
 */
async function servesChain(ctx: DappContext, url: string, chainId: string): Promise<boolean> {
  try {
    const served = await evmRpc<unknown>(ctx.core.deps.fetch, url, 'eth_chainId', [], 5_000)
    return typeof served === 'string' && normalizeChainId(served) === chainId
  } catch {
    return false
  }
}

/** wallet_addEthereumChain [params]: null once the user added the network. */
export async function addEthereumChain([p]: readonly [z.output<typeof AddEthereumChainParameter>], ctx: DappContext): Promise<DappOutcome> {
  const session = await ctx.core.current()
  if (!session) return { error: NOT_LOGGED_IN }
  const chainId = normalizeChainId(p.chainId)
  if (chainId === null) return { error: rpcError(RPC_ERROR.INVALID_PARAMS, 'Invalid params for wallet_addEthereumChain: chainId') }
  let known: Awaited<ReturnType<typeof dappNetworks>>
  try {
    known = await dappNetworks(ctx.core)
  } catch (err) {
    return failureOutcome(err)
  }
  const same = known.find((n) => n.chainId === chainId)
  if (same) return askToSwitch(ctx, same, 'wallet_addEthereumChain')
  const [url] = p.rpcUrls as [string, ...string[]]
  const outcome = await ctx.dapp.ask(ctx.origin, 'wallet_addEthereumChain', {
    kind: 'addChain',
    chain: { chainId, name: p.chainName },
    rpcUrl: url,
    nativeSymbol: p.nativeCurrency.symbol,
    nativeDecimals: p.nativeCurrency.decimals,
    explorerUrl: p.blockExplorerUrls?.[0] ?? null,
  })
  if (!outcome.approved) return { error: outcome.error }
  if (!(await servesChain(ctx, url, chainId))) {
    return {
      error: rpcError(
        RPC_ERROR.INVALID_PARAMS,
        `Invalid params for wallet_addEthereumChain: the RPC ${url} does not serve chain ${chainId}`,
      ),
    }
  }
  const added = {
    chainId,
    name: p.chainName,
    rpcUrl: url,
    nativeSymbol: p.nativeCurrency.symbol,
    nativeDecimals: p.nativeCurrency.decimals,
  }
  await saveAddedChain(ctx.core.deps.local, { ...added, addedAt: ctx.core.now() })
  // The approval covered the switch too (the window says so).
  await applySiteChain(ctx, { ...added, caip2: `eip155:${BigInt(chainId)}`, added: true })
  return { result: null }
}
