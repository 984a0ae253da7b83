/**
 * `wallet_switchEthereumChain` (EIP-3326) to a known network, approved by the user. The active
 * chain is per site: a switch rejects that site's pending requests (DEVELOPERS.md "Wallet
 * invariants"), is persisted, and that site's tabs get `chainChanged` (EIP-1193).
 */
import { SUPERSEDED } from '../../approval/approvals'
import { failureOutcome } from '../session'
import { type DappNetwork, findDappNetwork, saveSiteChain, siteChain } from './chains'
import type { DappContext, DappOutcome } from '../../methods'

/** EIP-3326 / MetaMask: the chain is not known to the wallet. */
export const UNRECOGNIZED_CHAIN = { code: 4902, message: 'Unrecognized chain ID' } as const

/** Make `target` the active chain of `ctx.origin`: pending requests of the site rejected, its tabs told. */
export async function applySiteChain(ctx: DappContext, target: DappNetwork): Promise<void> {
  ctx.state.approvals.rejectFor(ctx.origin, SUPERSEDED)
  await saveSiteChain(ctx.core.deps.local, ctx.origin, target.chainId)
  ctx.dapp.emit(ctx.origin, 'chainChanged', target.chainId)
}

/**
 * Ask the user to move `ctx.origin` to `target` (the window names `method`, the request that asks)
 * and move it once approved; null at once when the site is already on it.
 */
export async function askToSwitch(ctx: DappContext, target: DappNetwork, method: string): Promise<DappOutcome> {
  const current = await siteChain(ctx)
  if (target.chainId === current.label.chainId) return { result: null }
  const outcome = await ctx.dapp.ask(ctx.origin, method, {
    kind: 'switchChain',
    from: current.label,
    to: { chainId: target.chainId, name: target.name },
  })
  if (!outcome.approved) return { error: outcome.error }
  await applySiteChain(ctx, target)
  return { result: null }
}

/** Switch to `chainId` after approval; null on success. */
export async function switchChain([{ chainId }]: readonly [{ chainId: string }], ctx: DappContext): Promise<DappOutcome> {
  let target: DappNetwork | undefined
  try {
    target = await findDappNetwork(ctx.core, chainId)
  } catch (err) {
    return failureOutcome(err)
  }
  if (!target) return { error: { ...UNRECOGNIZED_CHAIN } }
  return askToSwitch(ctx, target, 'wallet_switchEthereumChain')
}
