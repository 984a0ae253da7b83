/**
 * ERC-20 facts read from a network's node for the popup (balanceOf, decimals, symbol), over
 * chains/nodeRpc.ts. A contract that answers none of them, or garbage, is not an ERC-20 token.
 */
import { decodeFunctionResult, encodeFunctionData, erc20Abi, hexToString, isHex, trim } from 'viem'
import type { Core } from '../core'
import type { NetworkInfo } from '../chains/networks'
import { nodeRpc, quantity } from '../chains/nodeRpc'

type Node = Pick<NetworkInfo, 'rpcUrl' | 'name'>

async function call(core: Core, network: Node, token: string, data: `0x${string}`): Promise<`0x${string}`> {
  const raw = await nodeRpc<unknown>(core, network, 'eth_call', [{ to: token, data }, 'latest'])
  return typeof raw === 'string' && isHex(raw) ? raw : '0x'
}

/** `balanceOf(owner)` of the token, in atomic units. */
export async function readTokenBalance(core: Core, network: Node, token: string, owner: string): Promise<bigint> {
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [owner as `0x${string}`] })
  const raw = await call(core, network, token, data)
  if (raw === '0x') return 0n
  return quantity(raw.replace(/^0x0+(?=[0-9a-fA-F])/, '0x'), 'balanceOf')
}

/** `decimals()` and `symbol()` of the token; undefined when the contract does not answer them as an ERC-20 does. */
export async function readTokenFacts(core: Core, network: Node, token: string): Promise<{ decimals: number; symbol: string } | undefined> {
  const [rawDecimals, rawSymbol] = await Promise.all([
    call(core, network, token, encodeFunctionData({ abi: erc20Abi, functionName: 'decimals' })),
    call(core, network, token, encodeFunctionData({ abi: erc20Abi, functionName: 'symbol' })),
  ])
  if (!/^0x[0-9a-fA-F]{64}$/.test(rawDecimals)) return undefined
  const decimals = BigInt(rawDecimals)
  if (decimals > 36n) return undefined
  const symbol = decodeSymbol(rawSymbol)
  if (symbol === undefined) return undefined
  return { decimals: Number(decimals), symbol }
}

/** A `symbol()` answer as ABI `string`, or as the older `bytes32`; undefined when neither gives printable text. */
export function decodeSymbol(raw: `0x${string}`): string | undefined {
  let text: string | undefined
  try {
    text = decodeFunctionResult({ abi: erc20Abi, functionName: 'symbol', data: raw })
  } catch {
    if (/^0x[0-9a-fA-F]{64}$/.test(raw)) text = hexToString(trim(raw, { dir: 'right' }))
  }
  const clean = text?.trim()
  return clean && /^[\x21-\x7e]{1,11}$/.test(clean) ? clean : undefined
}
