/** In-memory background state (lost when the MV3 worker stops; nothing here must survive). */
import { createApprovalRegistry, type ApprovalRegistry } from './approval/approvals'
import { createRateLimiter, type RateLimiter } from './dapp/rateLimit'

/** The chain a site is on before the network list is known (each site then has its own, dapp/evm/chains.ts). Hex quantity. */
export type ChainState = { chainId: `0x${string}` }

/** All in-memory background state. */
export type BackgroundState = {
  chain: ChainState
  pongCount: number
  approvals: ApprovalRegistry
  /** Per-origin limit of the dApp's read-only RPC passthrough. */
  readLimiter: RateLimiter
}

/** Fresh state: Ethereum mainnet, no pings yet. */
export function createBackgroundState(): BackgroundState {
  return { chain: { chainId: '0x1' }, pongCount: 0, approvals: createApprovalRegistry(), readLimiter: createRateLimiter() }
}

/** `net_version` for a chain: the decimal chain id. */
export function netVersion(chain: ChainState): string {
  return BigInt(chain.chainId).toString(10)
}
