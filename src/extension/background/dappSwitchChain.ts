/**
 * `wallet_switchEthereumChain` (EIP-3326) to an allow-listed chain, approved by the user.
 * A switch rejects everything else pending (DEVELOPERS.md "Wallet invariants"), is persisted,
 * and every known tab gets `chainChanged`.
 */
import { ALREADY_PENDING, SUPERSEDED } from './approvals'
import { chainLabel, dappChain, saveSelectedChain } from './dappChains'
import type { DappContext, DappOutcome } from './methods'

/** EIP-3326 / MetaMask: the chain is not known to the wallet. */
export const UNRECOGNIZED_CHAIN = { code: 4902, message: 'Unrecognized chain ID' } as const

/** Switch to `chainId` after approval; null on success. */
export async function switchChain([{ chainId }]: readonly [{ chainId: string }], ctx: DappContext): Promise<DappOutcome> {
  const target = dappChain(chainId)
  if (!target) return { error: { ...UNRECOGNIZED_CHAIN } }
  if (target.chainId === ctx.state.chain.chainId) return { result: null }
  if (ctx.state.approvals.hasPendingFor(ctx.origin)) return { error: ALREADY_PENDING }
  const outcome = await ctx.dapp.ask(ctx.origin, 'wallet_switchEthereumChain', {
    kind: 'switchChain',
    from: chainLabel(ctx.state.chain),
    to: target,
  })
  if (!outcome.approved) return { error: outcome.error }
  ctx.state.approvals.rejectAll(SUPERSEDED)
  ctx.state.chain.chainId = target.chainId
  await saveSelectedChain(ctx.core.deps.local, target.chainId)
  ctx.dapp.emitAll('chainChanged', target.chainId)
  return { result: null }
}
