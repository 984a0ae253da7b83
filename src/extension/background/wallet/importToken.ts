/**
 * "Import token" from the popup: an ERC-20 contract on the selected EVM network, checked on chain
 * (`decimals()` and `symbol()`; anything else is refused naming the address field), then kept in
 * the user's watched tokens (dapp/evm/watchAsset.ts), the same list `wallet_watchAsset` fills.
 * The popup's values are never stored: confirming reads the contract again.
 */
import type { ActiveSession, Core } from '../core'
import { ExtensionError } from '../failures'
import { evmChainIdOf, type NetworkInfo } from '../chains/networks'
import { nodeRpc } from '../chains/nodeRpc'
import { requirePopupNetwork } from '../chains/popupNetwork'
import { addWatched, watchedAssets } from '../dapp/evm/watchAsset'
import { readTokenFacts } from './erc20'

/** What the popup shows before the user confirms an import. */
export type TokenPreview = {
  caip2: string
  address: string
  symbol: string
  decimals: number
  /** Already shown: one of the network's tokens, or one the user watches. */
  alreadyListed: boolean
}

async function evmNetwork(core: Core, caip2: string): Promise<{ network: NetworkInfo; chainId: `0x${string}` }> {
  const network = await requirePopupNetwork(core, caip2)
  const chainId = evmChainIdOf(network)
  if (chainId === null) throw new ExtensionError('INVALID_ARGUMENT', `caip2: ${network.name} takes no ERC-20 tokens`, 'caip2')
  return { network, chainId }
}

/** Read the token's symbol and decimals on chain; INVALID_ARGUMENT naming `address` when it is not an ERC-20 token. */
export async function previewToken(core: Core, session: ActiveSession, p: { caip2: string; address: string }): Promise<TokenPreview> {
  const { network, chainId } = await evmNetwork(core, p.caip2)
  const address = p.address.toLowerCase()
  const code = await nodeRpc<unknown>(core, network, 'eth_getCode', [address, 'latest'])
  const facts =
    typeof code !== 'string' || code === '0x' ? undefined : await readTokenFacts(core, network, address).catch(refusedIsNotToken)
  if (!facts) throw notTokenError(address, network)
  const { organizationId, userId } = session.record
  const watched = await watchedAssets(core.deps.local, organizationId, userId)
  const alreadyListed =
    network.tokens.some((t) => t.address.toLowerCase() === address) || watched.some((a) => a.chainId === chainId && a.address === address)
  return { caip2: network.caip2, address, ...facts, alreadyListed }
}

/** Store the token (read on chain again) in the user's watched tokens on the network. */
export async function importToken(core: Core, session: ActiveSession, p: { caip2: string; address: string }): Promise<TokenPreview> {
  const preview = await previewToken(core, session, p)
  const { chainId } = await evmNetwork(core, p.caip2)
  if (!preview.alreadyListed) {
    await addWatched(core.deps.local, session.record.organizationId, session.record.userId, {
      chainId,
      address: preview.address,
      symbol: preview.symbol,
      decimals: preview.decimals,
      addedAt: core.now(),
    })
  }
  return { ...preview, alreadyListed: true }
}

function notTokenError(address: string, network: Pick<NetworkInfo, 'name'>): ExtensionError {
  return new ExtensionError(
    'INVALID_ARGUMENT',
    `address: ${address} is not an ERC-20 token on ${network.name} (it has no decimals and symbol)`,
    'address',
  )
}

/** A node that refuses the calls (a reverting contract) means "not a token"; an unreachable node stays NODE_UNAVAILABLE. */
function refusedIsNotToken(err: unknown): undefined {
  if (err instanceof ExtensionError && err.code === 'REQUEST_FAILED') return undefined
  throw err
}
