/**
 * What an approval needs to say a token amount in the token's units: its `decimals()` and
 * `symbol()`. A token the network's configuration lists is known without a call; any other is read
 * from the chain (eth_call on the network's node, bounded in time) and remembered per chain and
 * address while the background runs. A symbol is text from a contract: it is shown trimmed,
 * bounded and with invisible characters escaped, and never taken as a known token's name — one
 * that claims a configured token's symbol at another address gets a warning.
 */
import { decodeAbiParameters, getAddress, type Hex, hexToString, isAddress } from 'viem'
import type { Core } from '../../core'
import { evmRpc } from '../../chains/nodeRpc'
import { listNetworks } from '../../chains/networks'
import { visibleText } from './typedData'

/** A token's units and name as the approval shows them. */
export type TokenFacts = {
  decimals: number
  /** Shown as is (already trimmed and escaped); null when the token has none or it cannot be read. */
  symbol: string | null
  /** Listed by the network's configuration (not read from the contract). */
  configured: boolean
}

/** The node and configuration of the network the call goes to. */
export type TokenNetwork = { chainId: string; caip2: string; rpcUrl: string; name: string }

/** How long each of the two reads may take; past it the amount is shown raw. */
export const TOKEN_READ_TIMEOUT_MS = 3_000
/** Longest symbol shown, in characters (after escaping); longer ones are cut with "…". */
export const SYMBOL_MAX = 24
/** The most token reads remembered; the memory is emptied when it is full. */
const CACHE_MAX = 500
/** A symbol() answer longer than this (hex characters) is not read. */
const SYMBOL_ANSWER_MAX = 2 + 2 * 1024

const DECIMALS_SELECTOR = '0x313ce567'
const SYMBOL_SELECTOR = '0x95d89b41'

const cache = new Map<string, TokenFacts>()

/** Forgets every token read (tests; a new background starts empty anyway). */
export function forgetTokenReads(): void {
  cache.clear()
}

/** A contract's symbol as shown: trimmed, invisible characters escaped, at most {@link SYMBOL_MAX} characters; null when empty. */
export function symbolText(raw: string): string | null {
  const shown = visibleText(raw.trim())
  if (shown === '') return null
  return shown.length > SYMBOL_MAX ? `${shown.slice(0, SYMBOL_MAX)}…` : shown
}

/** decimals() as a uint256 answer; null unless it is one and at most 36 (what a configured token may have). */
function decimalsOf(answer: unknown): number | null {
  if (typeof answer !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(answer)) return null
  const d = BigInt(answer)
  return d <= 36n ? Number(d) : null
}

/** symbol() as an ABI string, or as bytes32 (older tokens); null when neither. */
function symbolOf(answer: unknown): string | null {
  if (typeof answer !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(answer) || answer.length > SYMBOL_ANSWER_MAX) return null
  if (answer.length === 66) {
    const text = hexToString(answer as Hex).replace(/\u0000+$/, '')
    if (!text.includes('\u0000')) return symbolText(text)
  }
  try {
    const [s] = decodeAbiParameters([{ type: 'string' }], answer as Hex)
    return symbolText(s)
  } catch {
    return null
  }
}

async function call(fetchFn: typeof fetch | undefined, rpcUrl: string, to: string, data: string): Promise<unknown> {
  try {
    return await evmRpc<unknown>(fetchFn, rpcUrl, 'eth_call', [{ to, data }, 'latest'], TOKEN_READ_TIMEOUT_MS)
  } catch {
    return null
  }
}

/** A token the network's configuration lists. */
export type ConfiguredToken = { address: string; symbol: string; decimals: number }

/** The tokens the service's configuration lists for `network`; none when the service cannot be reached. */
export async function configuredTokens(core: Core, network: Pick<TokenNetwork, 'caip2'>): Promise<ConfiguredToken[]> {
  try {
    return (await listNetworks(core)).find((n) => n.caip2 === network.caip2)?.tokens ?? []
  } catch {
    return []
  }
}

/**
 * The token at `address` on `network` (null when its decimals cannot be read), and the warnings
 * about it; `configured` is the network's token list ({@link configuredTokens}).
 */
export async function readToken(
  fetchFn: typeof fetch | undefined,
  network: TokenNetwork,
  configured: readonly ConfiguredToken[],
  address: string,
): Promise<{ token: TokenFacts | null; warnings: string[] }> {
  const lower = address.toLowerCase()
  const listed = configured.find((t) => t.address.toLowerCase() === lower)
  if (listed) return { token: { decimals: listed.decimals, symbol: symbolText(listed.symbol), configured: true }, warnings: [] }

  const key = `${network.chainId}:${lower}`
  let token = cache.get(key) ?? null
  if (token === null) {
    const [d, s] = await Promise.all([
      call(fetchFn, network.rpcUrl, address, DECIMALS_SELECTOR),
      call(fetchFn, network.rpcUrl, address, SYMBOL_SELECTOR),
    ])
    const decimals = decimalsOf(d)
    if (decimals === null) return { token: null, warnings: [] }
    token = { decimals, symbol: symbolOf(s), configured: false }
    if (cache.size >= CACHE_MAX) cache.clear()
    cache.set(key, token)
  }
  const claimed = token.symbol?.toLowerCase()
  const impersonated = claimed === undefined ? undefined : configured.find((t) => t.symbol.trim().toLowerCase() === claimed)
  const warnings = impersonated
    ? [
        `This token calls itself ${token.symbol} but is not the ${network.name} ${impersonated.symbol} Sigil knows (${isAddress(impersonated.address) ? getAddress(impersonated.address) : impersonated.address}). Check the token contract.`,
      ]
    : []
  return { token, warnings }
}

/** Most tokens one request's amounts are read for; the rest stay raw integers. */
export const TOKENS_PER_REQUEST = 8

/**
 * The tokens at `addresses` on `network` ({@link readToken} each, at most {@link TOKENS_PER_REQUEST}),
 * by lower-case address, with their warnings (each once).
 */
export async function readTokens(
  core: Core,
  network: TokenNetwork,
  addresses: readonly string[],
): Promise<{ tokens: Map<string, TokenFacts | null>; warnings: string[] }> {
  const tokens = new Map<string, TokenFacts | null>()
  if (addresses.length === 0) return { tokens, warnings: [] }
  const configured = await configuredTokens(core, network)
  const read = await Promise.all(
    addresses
      .slice(0, TOKENS_PER_REQUEST)
      .map(async (a) => [a.toLowerCase(), await readToken(core.deps.fetch, network, configured, a)] as const),
  )
  for (const [a, r] of read) tokens.set(a, r.token)
  return { tokens, warnings: [...new Set(read.flatMap(([, r]) => r.warnings))] }
}
