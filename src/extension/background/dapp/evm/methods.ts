/**
 * The dApp RPC allow-list (EIP-1193 / EIP-1474 methods). Anything not listed is refused
 * with 4200 by the router. Connecting, signing, sending, adding a chain and watching a token
 * need the user's approval in our window (accounts.ts, signing.ts, wallet/send.ts,
 * addChain.ts, watchAsset.ts); read-only node methods go to the site's network through
 * a closed list (read.ts). Rows marked `asks` hold one of the site's places in the approval queue
 * from arrival (router.ts; a flood is refused before any work). Rows marked `session` wait for a
 * login when the session is gone and the site is connected (dapp/sessionGate.ts). eth_sign is not supported (no raw-hash signing): 4100 until
 * connected, then 4200.
 */
import { z } from 'zod'
import { RPC_ERROR, rpcError } from '../../../protocol/rpcErrors'
import { AddEthereumChainParams, addEthereumChain } from './addChain'
import { NOT_LOGGED_IN } from '../session'
import { accountsFor, connect, permissionsOf, revoke } from './accounts'
import { siteChain } from './chains'
import { READ_ROWS } from './read'
import { sendTransaction } from './send'
import { personalSign, signTransaction, signTypedDataV4 } from './signing'
import { switchChain } from './switchChain'
import { WatchAssetParams, watchAsset } from './watchAsset'
import { TransactionRequest } from './ethTransaction'
import { dappMethod, type DappContext, type DappOutcome } from '../../methods'
import { delegateFieldError, sendCalls } from './calls'
import { getCallsStatus, showCallsStatus } from './callsStatus'
import { GetCapabilitiesParams, getCapabilities } from './capabilities'

const noParams = z.union([z.undefined(), z.tuple([])])
const hex = z.string().regex(/^0x[0-9a-fA-F]*$/)
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/)
const quantity = z.string().regex(/^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$/)
/** A transaction object that may carry an EIP-7702 authorization field, refused before anything else. */
const TransactionWithDelegate = TransactionRequest.loose()
const batchId = z.string().min(1).max(4096)
const ethAccountsPermission = z.tuple([z.object({ eth_accounts: z.object({}).loose() }).strict()])

/** 4100 when not connected, 4200 otherwise: methods the wallet refuses to perform. */
async function unsupported(method: string, ctx: DappContext): Promise<DappOutcome> {
  if (!(await ctx.core.current())) return { error: NOT_LOGGED_IN }
  if ((await accountsFor(ctx)).length === 0) return { error: rpcError(RPC_ERROR.UNAUTHORIZED, 'Unauthorized: this site is not connected') }
  return { error: rpcError(RPC_ERROR.UNSUPPORTED_METHOD, `Unsupported method: ${method}`) }
}

/** The dApp method table: `{ method: { params, handler } }`. */
export const DAPP_METHODS = {
  ...READ_ROWS,
  eth_chainId: dappMethod({ params: noParams, handler: async (_p, ctx) => ({ result: (await siteChain(ctx)).label.chainId }) }),
  net_version: dappMethod({
    params: noParams,
    handler: async (_p, ctx) => ({ result: BigInt((await siteChain(ctx)).label.chainId).toString(10) }),
  }),
  eth_accounts: dappMethod({ params: noParams, handler: async (_p, ctx) => ({ result: await accountsFor(ctx) }) }),
  eth_requestAccounts: dappMethod({
    asks: true,
    params: noParams,
    handler: async (_p, ctx) => {
      const r = await connect(ctx)
      return 'error' in r ? r : { result: r.accounts }
    },
  }),
  wallet_getPermissions: dappMethod({ params: noParams, handler: async (_p, ctx) => ({ result: await permissionsOf(ctx) }) }),
  wallet_requestPermissions: dappMethod({
    asks: true,
    params: ethAccountsPermission,
    handler: async (_p, ctx) => {
      // EIP-2255 asks again even when connected: the user may change the site's accounts.
      const r = await connect(ctx, { reask: true })
      return 'error' in r ? r : { result: await permissionsOf(ctx) }
    },
  }),
  wallet_revokePermissions: dappMethod({
    params: ethAccountsPermission,
    handler: async (_p, ctx) => {
      await revoke(ctx)
      return { result: null }
    },
  }),
  wallet_switchEthereumChain: dappMethod({ asks: true, params: z.tuple([z.object({ chainId: quantity }).loose()]), handler: switchChain }),
  personal_sign: dappMethod({ asks: true, session: 'evm', params: z.tuple([hex, address], z.string()), handler: personalSign }),
  eth_signTypedData_v4: dappMethod({
    asks: true,
    session: 'evm',
    params: z.tuple([address, z.union([z.string(), z.record(z.string(), z.unknown())])]),
    handler: signTypedDataV4,
  }),
  eth_signTransaction: dappMethod({
    asks: true,
    session: 'evm',
    params: z.tuple([TransactionWithDelegate]),
    handler: (p, ctx) => {
      const refused = delegateFieldError(p[0])
      return refused ? { error: refused } : signTransaction(p, ctx)
    },
  }),
  eth_sign: dappMethod({ params: z.tuple([address, hex]), handler: (_p, ctx) => unsupported('eth_sign', ctx) }),
  eth_sendTransaction: dappMethod({
    asks: true,
    session: 'evm',
    params: z.tuple([TransactionWithDelegate]),
    handler: (p, ctx) => {
      const refused = delegateFieldError(p[0])
      return refused ? { error: refused } : sendTransaction(p, ctx)
    },
  }),
  wallet_getCapabilities: dappMethod({ params: GetCapabilitiesParams, handler: getCapabilities }),
  wallet_sendCalls: dappMethod({ asks: true, session: 'evm', params: z.tuple([z.unknown()]), handler: sendCalls }),
  wallet_getCallsStatus: dappMethod({ params: z.tuple([batchId]), handler: getCallsStatus }),
  wallet_showCallsStatus: dappMethod({ params: z.tuple([batchId]), handler: showCallsStatus }),
  // viem retries a send refused with -32602 / 4200 under this name: the same checks, handler and approval.
  wallet_sendTransaction: dappMethod({
    asks: true,
    session: 'evm',
    params: z.tuple([TransactionWithDelegate]),
    handler: (p, ctx) => {
      const refused = delegateFieldError(p[0])
      return refused ? { error: refused } : sendTransaction(p, ctx, 'wallet_sendTransaction')
    },
  }),
  wallet_addEthereumChain: dappMethod({ asks: true, session: 'evm', params: AddEthereumChainParams, handler: addEthereumChain }),
  wallet_watchAsset: dappMethod({ asks: true, session: 'evm', params: WatchAssetParams, handler: watchAsset }),
}
