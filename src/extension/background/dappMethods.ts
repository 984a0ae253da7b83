/**
 * The dApp RPC allow-list (EIP-1193 / EIP-1474 methods). Anything not listed is refused
 * with 4200 by the router. Signing methods answer 4100 until sessions exist (issue 7).
 */
import { z } from 'zod'
import { RPC_ERROR, rpcError } from '../protocol/rpcErrors'
import { dappMethod, type DappOutcome } from './methods'
import { netVersion } from './state'

const noParams = z.union([z.undefined(), z.tuple([])])
const hex = z.string().regex(/^0x[0-9a-fA-F]*$/)
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/)
const quantity = z.string().regex(/^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$/)

const transaction = z
  .object({
    from: address,
    to: address.optional(),
    value: quantity.optional(),
    data: hex.optional(),
    gas: quantity.optional(),
    nonce: quantity.optional(),
    chainId: quantity.optional(),
  })
  .loose()

const notLoggedIn: DappOutcome = { error: rpcError(RPC_ERROR.UNAUTHORIZED, 'Unauthorized: not logged in') }

/** The dApp method table: `{ method: { params, handler } }`. */
export const DAPP_METHODS = {
  eth_chainId: dappMethod({ params: noParams, handler: (_p, { state }) => ({ result: state.chain.chainId }) }),
  net_version: dappMethod({ params: noParams, handler: (_p, { state }) => ({ result: netVersion(state.chain) }) }),
  eth_accounts: dappMethod({ params: noParams, handler: () => ({ result: [] }) }),
  eth_requestAccounts: dappMethod({ params: noParams, handler: () => notLoggedIn }),
  wallet_getPermissions: dappMethod({ params: noParams, handler: () => ({ result: [] }) }),
  personal_sign: dappMethod({ params: z.tuple([hex, address], z.string()), handler: () => notLoggedIn }),
  eth_sign: dappMethod({ params: z.tuple([address, hex]), handler: () => notLoggedIn }),
  eth_signTypedData_v4: dappMethod({
    params: z.tuple([address, z.union([z.string(), z.record(z.string(), z.unknown())])]),
    handler: () => notLoggedIn,
  }),
  eth_sendTransaction: dappMethod({ params: z.tuple([transaction]), handler: () => notLoggedIn }),
}
