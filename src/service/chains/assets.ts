/**
 * Assets on the configured networks and balances read from their nodes: each network's native
 * asset and the tokens of `SIGIL_TOKENS`: on EVM networks ERC-20s (balances read with
 * `eth_call balanceOf` in the same JSON-RPC batch as the native balance), on Solana networks SPL
 * Token mints (balances summed over the owner's token accounts of each mint, from one
 * `getTokenAccountsByOwner` in the same batch as `getBalance`).
 */
import { fieldError, SigilError } from '../../api/errors.js'
import type { AssetBalance } from '../../api/operations/get_wallet_address_balances.js'
import type { AssetMetadata } from '../../api/operations/list_supported_assets.js'
import { balanceOfCalldata, decodeUint256 } from '../../chains/erc20.js'
import { type Erc20Token, type Network, erc20AssetId, nativeAssetId, normalizeCaip2 } from '../../chains/networks.js'
import type { Logger } from '../logger.js'
import { jsonRpc, jsonRpcBatch } from './rpc.js'
import { TOKEN_PROGRAM } from '../../chains/splToken.js'

/** The configured network `caip2` names (aliases resolved), or a 400 naming `field`. */
export function requireNetwork(networks: readonly Network[], caip2: string, field: string): Network {
  const id = normalizeCaip2(caip2)
  const network = networks.find((n) => n.caip2 === id)
  if (!network)
    throw fieldError(
      'INVALID_ARGUMENT',
      field,
      `unknown network ${JSON.stringify(caip2)}; configured: ${networks.map((n) => n.caip2).join(', ')}`,
    )
  return network
}

/** What every asset has: its CAIP-19 id, symbol, decimals and name. */
export type AssetInfo = { caip19: string; symbol: string; decimals: number; name: string }

export function nativeAsset(network: Network): AssetInfo {
  return {
    caip19: nativeAssetId(network),
    symbol: network.nativeSymbol,
    decimals: network.nativeDecimals,
    name:
      network.family === 'evm'
        ? `${network.name} ${network.nativeSymbol}`
        : network.nativeSymbol === 'SOL'
          ? 'Solana'
          : network.nativeSymbol,
  }
}

/** An ERC-20 token's metadata on its network. */
export function tokenAsset(network: Network, token: Erc20Token): AssetInfo {
  return { caip19: erc20AssetId(network, token), symbol: token.symbol, decimals: token.decimals, name: token.name }
}

/** The assets of a network: its native asset, then its configured tokens in configuration order. */
export function supportedAssets(network: Network): AssetMetadata[] {
  return [{ ...nativeAsset(network), stable: false }, ...network.tokens.map((t) => ({ ...tokenAsset(network, t), stable: t.stable }))]
}

/** The native balance of `address` on `network`, in atomic units. */
export async function nativeBalance(network: Network, address: string): Promise<bigint> {
  if (network.family === 'evm') return BigInt(await jsonRpc<string>(network, 'eth_getBalance', [address, 'latest']))
  const { value } = await jsonRpc<{ value: number }>(network, 'getBalance', [address, { commitment: 'confirmed' }])
  return BigInt(value)
}

/**
 * Balances of `address` on `network`, with display values: the native asset, then each configured
 * token (zero balances included). On an EVM network the native balance and every `balanceOf` go
 * in one JSON-RPC batch. A node that is down, slow or refuses the native balance throws (the
 * request fails); a token whose contract refuses `balanceOf` or answers no uint256 (say, no
 * contract at that address) is left out and logged, so one misconfigured token does not hide the rest.
 */
export async function balancesOf(network: Network, address: string, log?: Logger): Promise<AssetBalance[]> {
  const entry = (asset: AssetInfo, balance: bigint): AssetBalance => ({
    ...asset,
    balance: balance.toString(),
    display: { crypto: formatUnits(balance, asset.decimals) },
  })
  if (network.tokens.length === 0) return [entry(nativeAsset(network), await nativeBalance(network, address))]
  if (network.family === 'solana') return splBalances(network, address, entry, log)
  const [native, ...tokens] = await jsonRpcBatch(network, [
    { method: 'eth_getBalance', params: [address, 'latest'] },
    ...network.tokens.map((t) => ({ method: 'eth_call', params: [{ to: t.address, data: balanceOfCalldata(address) }, 'latest'] })),
  ])
  if (!native) throw new Error('the batch answered no native balance')
  if (!native.ok) throw native.error
  if (typeof native.result !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(native.result))
    throw new SigilError('FAILED_PRECONDITION', `${network.name} (${network.caip2}) answered eth_getBalance with no quantity`)
  const balances = [entry(nativeAsset(network), BigInt(native.result))]
  network.tokens.forEach((token, i) => {
    const outcome = tokens[i]
    const value = outcome?.ok ? decodeUint256(outcome.result) : undefined
    if (value === undefined) {
      log?.warn('token balance unreadable', {
        caip2: network.caip2,
        asset: token.address,
        reason: outcome && !outcome.ok ? outcome.error.message : 'balanceOf answered no uint256',
      })
      return
    }
    balances.push(entry(tokenAsset(network, token), value))
  })
  return balances
}

/** The native balance and each configured SPL token's (the sum over the owner's token accounts of its mint). */
async function splBalances(
  network: Network,
  address: string,
  entry: (asset: AssetInfo, balance: bigint) => AssetBalance,
  log?: Logger,
): Promise<AssetBalance[]> {
  const [native, accounts] = await jsonRpcBatch(network, [
    { method: 'getBalance', params: [address, { commitment: 'confirmed' }] },
    {
      method: 'getTokenAccountsByOwner',
      params: [address, { programId: TOKEN_PROGRAM }, { encoding: 'jsonParsed', commitment: 'confirmed' }],
    },
  ])
  if (!native) throw new Error('the batch answered no native balance')
  if (!native.ok) throw native.error
  const lamports = (native.result as { value?: unknown } | null)?.value
  if (typeof lamports !== 'number' || !Number.isSafeInteger(lamports) || lamports < 0)
    throw new SigilError('FAILED_PRECONDITION', `${network.name} (${network.caip2}) answered getBalance with no lamports`)
  const balances = [entry(nativeAsset(network), BigInt(lamports))]
  const held = accounts?.ok ? splHoldings(accounts.result) : undefined
  if (!held) {
    log?.warn('token balances unreadable', {
      caip2: network.caip2,
      reason: accounts && !accounts.ok ? accounts.error.message : 'getTokenAccountsByOwner answered no token accounts',
    })
    return balances
  }
  for (const token of network.tokens)
    balances.push({ ...entry(tokenAsset(network, token), held.get(token.address) ?? 0n), tokenProgram: TOKEN_PROGRAM })
  return balances
}

/** Base units held per mint in a jsonParsed `getTokenAccountsByOwner` answer; undefined when it is not one. */
function splHoldings(result: unknown): Map<string, bigint> | undefined {
  const value = (result as { value?: unknown } | null)?.value
  if (!Array.isArray(value)) return undefined
  const held = new Map<string, bigint>()
  for (const item of value) {
    const info = (item as { account?: { data?: { parsed?: { info?: { mint?: unknown; tokenAmount?: { amount?: unknown } } } } } })?.account
      ?.data?.parsed?.info
    const amount = info?.tokenAmount?.amount
    if (typeof info?.mint !== 'string' || typeof amount !== 'string' || !/^\d{1,20}$/.test(amount)) return undefined
    held.set(info.mint, (held.get(info.mint) ?? 0n) + BigInt(amount))
  }
  return held
}

/** Atomic units as a decimal string of whole units, trailing zeros dropped ("1.5", "0", "0.000001"). */
export function formatUnits(value: bigint, decimals: number): string {
  const negative = value < 0n
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '')
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`
}
