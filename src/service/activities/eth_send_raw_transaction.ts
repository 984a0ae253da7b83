import { Transaction } from 'micro-eth-signer'
import type { z } from 'zod'
import { fieldError, SigilError } from '../../api/errors.js'
import type { ethSendRawTransaction } from '../../api/operations/eth_send_raw_transaction.js'
import { evmChainId } from '../../chains/networks.js'
import { evmParties } from '../../chains/transfers.js'
import { requireNetwork } from '../chains/assets.js'
import { jsonRpc, RpcRefusedError } from '../chains/rpc.js'
import { recordSend } from '../sends/record.js'
import type { ActivityHandler } from './types.js'

type Params = z.infer<typeof ethSendRawTransaction.parameters>

/** How long the node may take to accept the transaction (the activity's transaction waits for it). */
const BROADCAST_TIMEOUT_MS = 5_000

/**
 * eth_send_raw_transaction: checks the signed transaction (a signed EIP-155/2930/1559 transaction
 * for the network's chain id), broadcasts it and answers its hash; a refusal by the node fails the
 * activity with the node's reason. The send is recorded so the tracker follows it to inclusion.
 *
 * @throws INVALID_ARGUMENT when parameters.caip2 is not a configured EVM network, or parameters.signedTransaction is not a signed Ethereum transaction for that network's chain id with a recoverable sender
 * @throws FAILED_PRECONDITION when the network's node refuses the transaction (other than as already known), is not reachable, does not answer within 5 s or answers without a result
 */
export const handler: ActivityHandler<Params> = async (ctx, p) => {
  const network = requireNetwork(ctx.rt.config.networks, p.caip2, 'parameters.caip2')
  if (network.family !== 'evm') throw fieldError('INVALID_ARGUMENT', 'parameters.caip2', `${network.caip2} is not an EVM network`)
  const field = 'parameters.signedTransaction'
  let tx: ReturnType<typeof Transaction.fromHex>
  try {
    tx = Transaction.fromHex(p.signedTransaction.startsWith('0x') ? p.signedTransaction : `0x${p.signedTransaction}`, false)
  } catch {
    throw fieldError('INVALID_ARGUMENT', field, 'not a serialized Ethereum transaction')
  }
  if (!tx.isSigned) throw fieldError('INVALID_ARGUMENT', field, 'the transaction is not signed')
  const chainId = 'chainId' in tx.raw ? tx.raw.chainId : undefined
  if (chainId === undefined)
    throw fieldError('INVALID_ARGUMENT', field, 'the transaction has no chain id, so it could be replayed on any chain')
  if (chainId !== BigInt(evmChainId(network)))
    throw fieldError('INVALID_ARGUMENT', field, `signed for chain id ${chainId}, not ${network.caip2}`)
  let from: string
  try {
    from = tx.sender
  } catch {
    throw fieldError('INVALID_ARGUMENT', field, 'the signature does not recover a sender')
  }
  const signedTx = tx.toHex()
  try {
    await jsonRpc<string>(network, 'eth_sendRawTransaction', [signedTx], BROADCAST_TIMEOUT_MS)
  } catch (e) {
    if (e instanceof RpcRefusedError && !/already known|known transaction/i.test(e.rpcMessage)) {
      throw fieldError('FAILED_PRECONDITION', field, `the node refused the transaction: ${e.rpcMessage}`)
    }
    if (!(e instanceof RpcRefusedError))
      throw e instanceof SigilError ? e : new SigilError('FAILED_PRECONDITION', `${network.caip2} is not reachable`)
  }
  // Signed elsewhere: no account of the organization signs, so the send has none.
  await recordSend(ctx, network, { address: from, id: '' }, { to: tx.raw.to }, evmParties(tx.raw.to, tx.raw.data), {
    signedTx,
    txHash: tx.hash,
    nonce: Number(tx.raw.nonce),
  })
  return { transactionHash: tx.hash }
}
