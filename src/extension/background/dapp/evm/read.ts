/**
 * Read-only RPC passthrough: a closed allow-list of node methods, each with
 * its own params schema, forwarded to the site's active network's RPC after a per-origin rate
 * limit. Only what the schema parsed is forwarded (unknown fields are dropped). Signing and
 * account methods are never here: they are the wallet's own rows (methods.ts) or refused.
 * Only a connected site's reads are forwarded (the connection is the user's
 * approval; before it nothing reaches the network on the site's behalf, 4100), and a node's
 * error reaches the page as a fixed message and code, never the node's own text.
 */
import { z } from 'zod'
import { RPC_ERROR, rpcError, type RpcErrorObject } from '../../../protocol/rpcErrors'
import { NOT_LOGGED_IN } from '../session'
import { accountsFor } from './accounts'
import { siteChain } from './chains'
import { EvmRpcError, evmRpc } from '../../chains/nodeRpc'
import { dappMethod, type DappContext, type DappMethod, type DappOutcome } from '../../methods'

const noParams = z.union([z.undefined(), z.tuple([])])
const hexBytes = z
  .string()
  .max(262_146)
  .regex(/^0x([0-9a-fA-F]{2})*$/)
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/)
const hash32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/)
const quantity = z.string().regex(/^0x(0|[1-9a-fA-F][0-9a-fA-F]{0,63})$/)
const tag = z.enum(['latest', 'earliest', 'pending', 'safe', 'finalized'])
const blockNumberOrTag = z.union([quantity, tag])
/** A block: number, tag, or an EIP-1898 object. */
const block = z.union([
  blockNumberOrTag,
  z.object({ blockNumber: quantity }).strict(),
  z.object({ blockHash: hash32, requireCanonical: z.boolean().optional() }).strict(),
])

/** A call object (eth_call, eth_estimateGas): known fields only, the rest dropped. */
export const CallObject = z.object({
  from: address.optional(),
  to: address.nullable().optional(),
  gas: quantity.optional(),
  gasPrice: quantity.optional(),
  maxFeePerGas: quantity.optional(),
  maxPriorityFeePerGas: quantity.optional(),
  value: quantity.optional(),
  data: hexBytes.optional(),
  input: hexBytes.optional(),
  nonce: quantity.optional(),
  type: quantity.optional(),
  chainId: quantity.optional(),
  accessList: z
    .array(z.object({ address, storageKeys: z.array(hash32).max(1000) }))
    .max(1000)
    .optional(),
})

const withBlock = <T extends z.ZodType>(first: T) => z.union([z.tuple([first]), z.tuple([first, block])])

const topic = z.union([hash32, z.null(), z.array(hash32.nullable()).max(32)])
const LogFilter = z.object({
  fromBlock: blockNumberOrTag.optional(),
  toBlock: blockNumberOrTag.optional(),
  blockHash: hash32.optional(),
  address: z.union([address, z.array(address).max(100)]).optional(),
  topics: z.array(topic).max(4).optional(),
})

/** The allow-listed read methods and their params (what reaches the node). */
export const READ_METHODS = {
  eth_call: withBlock(CallObject),
  eth_getBalance: withBlock(address),
  eth_blockNumber: noParams,
  eth_estimateGas: withBlock(CallObject),
  eth_gasPrice: noParams,
  eth_maxPriorityFeePerGas: noParams,
  eth_feeHistory: z.union([
    z.tuple([z.union([quantity, z.number().int().min(1).max(1024)]), blockNumberOrTag]),
    z.tuple([z.union([quantity, z.number().int().min(1).max(1024)]), blockNumberOrTag, z.array(z.number().min(0).max(100)).max(100)]),
  ]),
  eth_getCode: withBlock(address),
  eth_getTransactionCount: withBlock(address),
  eth_getTransactionByHash: z.tuple([hash32]),
  eth_getTransactionReceipt: z.tuple([hash32]),
  eth_getBlockByNumber: z.tuple([blockNumberOrTag, z.boolean()]),
  eth_getLogs: z.tuple([LogFilter]),
  eth_getStorageAt: z.union([z.tuple([address, z.union([quantity, hash32])]), z.tuple([address, z.union([quantity, hash32]), block])]),
} as const

/** -32005 (EIP-1474 "limit exceeded"): the site sends reads too fast. */
export const RATE_LIMITED: RpcErrorObject = { code: -32005, message: 'Too many requests from this site: slow down' }

/** 4100: the site has no connected account (logged in, so it could ask for one). */
const NOT_CONNECTED: RpcErrorObject = rpcError(RPC_ERROR.UNAUTHORIZED, 'Unauthorized: this site is not connected')

/** Hex bytes a node gave as an error's `data` (revert data), bounded; anything else is dropped. */
function revertData(data: unknown): string | undefined {
  return typeof data === 'string' && data.length <= 20_000 && /^0x([0-9a-fA-F]{2})*$/.test(data) ? data : undefined
}

/**
 * A node's error as the page sees it: the codes a dApp acts on kept (3 = revert, with its revert
 * data; -32000…-32099; -32602), each with a fixed message, never the node's text; -32601 is 4200,
 * anything else -32603.
 */
export function mapNodeError(e: EvmRpcError): RpcErrorObject {
  const data = revertData(e.data)
  const withData = (code: number, message: string): RpcErrorObject => (data === undefined ? { code, message } : { code, message, data })
  if (e.code === 3) return withData(3, 'execution reverted')
  if (e.code <= -32000 && e.code >= -32099) return withData(e.code, "The network's node refused the request")
  if (e.code === RPC_ERROR.INVALID_PARAMS) return { code: e.code, message: "The network's node refused the request's params" }
  if (e.code === -32601) return rpcError(RPC_ERROR.UNSUPPORTED_METHOD, "The network's node does not support this method")
  return rpcError(RPC_ERROR.INTERNAL, "The network's node answered an error")
}

/** Forward `method` to the site's network when the site is connected; every failure is an EIP-1193 error. */
export async function readThrough(method: keyof typeof READ_METHODS, params: unknown, ctx: DappContext): Promise<DappOutcome> {
  if (!(await ctx.core.current())) return { error: NOT_LOGGED_IN }
  if ((await accountsFor(ctx)).length === 0) return { error: NOT_CONNECTED }
  if (!ctx.state.readLimiter.take(ctx.origin, ctx.core.now())) return { error: RATE_LIMITED }
  const { network, label } = await siteChain(ctx)
  if (!network) return { error: rpcError(RPC_ERROR.CHAIN_DISCONNECTED, `Sigil has no RPC node for chain ${label.chainId}`) }
  try {
    return { result: await evmRpc(ctx.core.deps.fetch, network.rpcUrl, method, (params as unknown[] | undefined) ?? []) }
  } catch (e) {
    if (e instanceof EvmRpcError) return { error: mapNodeError(e) }
    return { error: rpcError(RPC_ERROR.INTERNAL, `The RPC node of ${network.name} did not answer`) }
  }
}

type ReadRows = { [M in keyof typeof READ_METHODS]: DappMethod<(typeof READ_METHODS)[M]> }

/** The read rows of the dApp method table. */
export const READ_ROWS = Object.fromEntries(
  Object.entries(READ_METHODS).map(([method, params]) => [
    method,
    dappMethod({ params, handler: (p, ctx) => readThrough(method as keyof typeof READ_METHODS, p, ctx) }),
  ]),
) as ReadRows
