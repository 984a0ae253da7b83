/**
 * `eth_sendTransaction` (and `wallet_sendTransaction`, viem's retry name): params checked (-32602),
 * `from` must be the site's connected account (4100), the chain the site's active one; the
 * transaction is simulated against the network's node BEFORE the window opens, the window shows
 * what is sent (to, value, network, decoded call or selector, fee, the simulation's verdict), and
 * only on approval is it sent through the service's eth_send_transaction with exactly the gas and
 * fees shown. The answer is the transaction hash (polled with get_send_transaction_status).
 *
 * Without `to` the transaction deploys a contract: the window ("Deploy a contract") shows the code
 * size and the address the contract will have, CREATE of the account at its pending nonce; the send
 * is made at that nonce, so the address shown is the one the contract gets (or the send fails).
 */
import { formatUnits, getContractAddress } from 'viem'
import type { SigilClient } from '../../../../api/client'
import { RPC_ERROR, rpcError, type RpcErrorObject } from '../../../protocol/rpcErrors'
import { recordActivitySite } from '../../activity/activitySites'
import { feeRows } from '../../approval/text'
import type { ApprovalView } from '../../../protocol/approvalView'
import { balanceChanges } from './assetChanges'
import { decodeTokenCall } from './calldata'
import { failureOutcome, NOT_LOGGED_IN } from '../session'
import { accountsFor } from './accounts'
import { siteChain } from './chains'
import { NOT_CONNECTED, signerFor } from './signing'
import { organizationAbis, type Simulation, simulateTransaction } from './simulate'
import { checkSendParams, type TransactionRequest } from './ethTransaction'
import { evmRpc } from '../../chains/nodeRpc'
import type { DappContext, DappOutcome } from '../../methods'

/** The two names a dApp sends a transaction with. */
export type SendMethod = 'eth_sendTransaction' | 'wallet_sendTransaction'

/** How long to wait for the service to sign and broadcast before giving up on the hash. */
export const SEND_HASH_TIMEOUT_MS = 60_000
const POLL_MS = 150

function invalid(method: SendMethod, message: string): { error: RpcErrorObject } {
  return { error: rpcError(RPC_ERROR.INVALID_PARAMS, `Invalid params for ${method}: ${message}`) }
}
function internal(message: string): { error: RpcErrorObject } {
  return { error: rpcError(RPC_ERROR.INTERNAL, message) }
}

/** The hash of the send once the service broadcast it; the failure's message when it failed first. */
async function awaitHash(ctx: DappContext, client: SigilClient, organizationId: string, id: string): Promise<DappOutcome> {
  const deadline = ctx.core.now() + SEND_HASH_TIMEOUT_MS
  for (;;) {
    const status = await client.getSendTransactionStatus({ organizationId, sendTransactionStatusId: id })
    const hash = status.eth?.txHash
    if (hash && /^0x[0-9a-fA-F]{64}$/.test(hash)) return { result: hash.toLowerCase() }
    if (status.txStatus === 'FAILED') {
      const why = (status.error?.message ?? status.txError ?? 'the service could not send it').slice(0, 300)
      return internal(`The transaction was not sent: ${why}`)
    }
    if (ctx.core.now() > deadline) return internal('The transaction was submitted but no hash is known yet; check the wallet history')
    await new Promise((r) => setTimeout(r, POLL_MS))
  }
}

/** The account's pending transaction count (the nonce its next transaction gets). */
async function pendingNonce(ctx: DappContext, rpcUrl: string, address: string): Promise<bigint> {
  const count = await evmRpc<unknown>(ctx.core.deps.fetch, rpcUrl, 'eth_getTransactionCount', [address, 'pending'])
  if (typeof count !== 'string' || !/^0x[0-9a-fA-F]{1,16}$/.test(count)) throw new Error('malformed eth_getTransactionCount answer')
  return BigInt(count)
}

/** eth_sendTransaction [tx]: the transaction hash. */
export async function sendTransaction(
  [tx]: readonly [TransactionRequest],
  ctx: DappContext,
  method: SendMethod = 'eth_sendTransaction',
): Promise<DappOutcome> {
  const signer = await signerFor(ctx, tx.from)
  if ('error' in signer) return signer
  const { label, network } = await siteChain(ctx)
  const checked = checkSendParams(tx, label.chainId)
  if (!checked.ok) return invalid(method, checked.reason)
  if (!network) return { error: rpcError(RPC_ERROR.CHAIN_DISCONNECTED, `Sigil has no RPC node for chain ${label.chainId}`) }
  if (network.added) {
    return {
      error: rpcError(RPC_ERROR.UNSUPPORTED_METHOD, `Sending on ${network.name} (a network you added) is not supported by Sigil's service`),
    }
  }

  const gas = tx.gas ?? tx.gasLimit
  const maxFee = tx.maxFeePerGas ?? tx.gasPrice
  const prio = tx.maxPriorityFeePerGas ?? tx.gasPrice
  let sim: Simulation
  // A creation's address depends on the nonce: the dApp's, else the node's pending count (read with the simulation).
  let nonce: bigint | undefined = tx.nonce !== undefined ? BigInt(tx.nonce) : undefined
  try {
    const counted = checked.to === null && nonce === undefined ? pendingNonce(ctx, network.rpcUrl, signer.address) : undefined
    counted?.catch(() => undefined) // awaited below, after the simulation (which may throw first)
    sim = await simulateTransaction(
      ctx.core.deps.fetch,
      network.rpcUrl,
      { from: signer.address, to: checked.to, value: checked.value, data: checked.data },
      {
        ...(gas !== undefined ? { gas: BigInt(gas) } : {}),
        ...(maxFee !== undefined ? { maxFeePerGas: BigInt(maxFee) } : {}),
        ...(prio !== undefined ? { maxPriorityFeePerGas: BigInt(prio) } : {}),
      },
      organizationAbis(ctx, signer.organizationId),
    )
    if (counted !== undefined) nonce = await counted
  } catch {
    return internal(`The RPC node of ${network.name} did not answer; nothing was sent`)
  }

  const shown = {
    address: signer.address,
    valueWei: checked.value.toString(10),
    value: `${formatUnits(checked.value, network.nativeDecimals)} ${network.nativeSymbol}`,
    data: checked.data,
    chain: label,
    fees: feeRows({
      valueWei: checked.value,
      gasLimit: sim.gasLimit,
      price: { maxFeePerGas: sim.maxFeePerGas, maxPriorityFeePerGas: sim.maxPriorityFeePerGas },
      estimatedWei: sim.feeWei,
      native: { symbol: network.nativeSymbol, decimals: network.nativeDecimals },
    }),
    warnings: sim.failure === null ? [] : [`This transaction will fail: ${sim.failure}`],
  }
  let view: ApprovalView
  if (checked.to === null) {
    const at = nonce ?? 0n // always read above for a creation
    view = {
      kind: 'deploy',
      ...shown,
      codeBytes: (checked.data.length - 2) / 2,
      predictedAddress: getContractAddress({ from: signer.address as `0x${string}`, nonce: at }),
      nonce: at.toString(10),
    }
  } else {
    const [call, changes] = await Promise.all([
      decodeTokenCall(ctx.core, network, checked.to, checked.data),
      balanceChanges(ctx.core, network, signer.address, [{ to: checked.to, value: checked.value, data: checked.data }]),
    ])
    view = {
      kind: 'sendTransaction',
      ...shown,
      balanceChanges: changes,
      to: checked.to,
      call,
      selector: call === null && checked.data.length >= 10 ? checked.data.slice(0, 10).toLowerCase() : null,
    }
  }
  const outcome = await ctx.dapp.ask(ctx.origin, method, view)
  if (!outcome.approved) return { error: outcome.error }

  // Bound to what was shown: the same chain for the site, the same connected account, the same session's organization.
  if ((await siteChain(ctx)).label.chainId !== label.chainId) return { error: rpcError(RPC_ERROR.USER_REJECTED, 'The network changed') }
  const still = (await accountsFor(ctx)).some((a) => a.toLowerCase() === signer.address.toLowerCase())
  if (!still) return { error: NOT_CONNECTED }
  try {
    return await ctx.core.withSession(async (client, s) => {
      if (s.record.organizationId !== signer.organizationId) return { error: NOT_LOGGED_IN }
      const res = await client.ethSendTransaction({
        organizationId: signer.organizationId,
        from: signer.address,
        caip2: network.caip2,
        // A creation has no `to`: the service sends it as a contract creation.
        calls: [{ ...(checked.to !== null ? { to: checked.to } : {}), value: checked.value.toString(10), data: checked.data }],
        ...(nonce !== undefined ? { nonce: nonce.toString(10) } : {}),
        ...(sim.gasLimit !== null ? { gasLimit: sim.gasLimit.toString(10) } : {}),
        maxFeePerGas: sim.maxFeePerGas.toString(10),
        maxPriorityFeePerGas: sim.maxPriorityFeePerGas.toString(10),
      })
      // Recorded whatever becomes of it: the activity row names the site that asked (activity/activitySites.ts).
      await recordActivitySite(ctx.core.deps.local, res.activity.id, ctx.origin, ctx.core.now())
      if (res.activity.status !== 'ACTIVITY_STATUS_COMPLETED')
        return internal('The send needs another approval in the service; nothing was sent yet')
      return awaitHash(ctx, client, signer.organizationId, res.sendTransactionStatusId)
    })
  } catch (err) {
    const out = failureOutcome(err)
    if (out.error.code !== RPC_ERROR.INTERNAL) return out
    const why = err instanceof Error && 'code' in err && typeof err.code === 'string' ? ` (${err.code})` : ''
    return internal(`The wallet could not send the transaction${why}`)
  }
}
