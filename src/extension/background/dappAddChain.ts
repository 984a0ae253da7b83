/**
 * `wallet_addEthereumChain` (EIP-3085) with the user's approval. Before any window: the params
 * are checked, a chain the wallet already knows is refused (the site should switch to it), and
 * the given RPC must answer `eth_chainId` with the same chain id. The window shows the RPC URL.
 * The network is stored in the persistent area (dappChains.ts); the site is not switched.
 */
import { z } from 'zod'
import { RPC_ERROR, rpcError } from '../protocol/rpcErrors'
import { ALREADY_PENDING } from './approvals'
import { failureOutcome, NOT_LOGGED_IN } from './dappAccounts'
import { dappNetworks, normalizeChainId, saveAddedChain } from './dappChains'
import { EvmRpcError, evmRpc } from './evmRpc'
import type { DappContext, DappOutcome } from './methods'

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
  if (same) {
    return {
      error: rpcError(
        RPC_ERROR.INVALID_PARAMS,
        `Chain ${chainId} is already known to Sigil as ${same.name}: use wallet_switchEthereumChain`,
      ),
    }
  }
  if (ctx.state.approvals.hasPendingFor(ctx.origin)) return { error: ALREADY_PENDING }
  const [url] = p.rpcUrls as [string, ...string[]]
  let served: string
  try {
    served = await evmRpc<string>(ctx.core.deps.fetch, url, 'eth_chainId', [], 5_000)
  } catch (e) {
    const why = e instanceof EvmRpcError ? `answered an error (${e.message.slice(0, 80)})` : 'did not answer'
    return { error: rpcError(RPC_ERROR.INVALID_PARAMS, `Invalid params for wallet_addEthereumChain: the RPC ${url} ${why}`) }
  }
  if (typeof served !== 'string' || normalizeChainId(served) !== chainId) {
    return {
      error: rpcError(
        RPC_ERROR.INVALID_PARAMS,
        `Invalid params for wallet_addEthereumChain: the RPC ${url} serves chain ${String(served).slice(0, 20)}, not ${chainId}`,
      ),
    }
  }
  const outcome = await ctx.dapp.ask(ctx.origin, 'wallet_addEthereumChain', {
    kind: 'addChain',
    chain: { chainId, name: p.chainName },
    rpcUrl: url,
    nativeSymbol: p.nativeCurrency.symbol,
    nativeDecimals: p.nativeCurrency.decimals,
    explorerUrl: p.blockExplorerUrls?.[0] ?? null,
  })
  if (!outcome.approved) return { error: outcome.error }
  await saveAddedChain(ctx.core.deps.local, {
    chainId,
    name: p.chainName,
    rpcUrl: url,
    nativeSymbol: p.nativeCurrency.symbol,
    nativeDecimals: p.nativeCurrency.decimals,
    addedAt: ctx.core.now(),
  })
  return { result: null }
}
