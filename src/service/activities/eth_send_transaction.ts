import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import { evmParties } from '../../chains/transfers.js'
import type { ethSendTransaction, ethSendTransactionV1 } from '../../api/operations/eth_send_transaction.js'
import { requireNetwork } from '../chains/assets.js'
import type { EvmSendRequest } from '../sends/evm.js'
import { recordSend } from '../sends/record.js'
import { requireAccount } from '../signing/walletLookup.js'
import type { ActivityHandler } from './types.js'

type Params = z.infer<typeof ethSendTransaction.parameters> | z.infer<typeof ethSendTransactionV1.parameters>

/**
 * eth_send_transaction (V1 with one inline call, V2 with `calls`): records the send in the
 * activity's transaction; the tracker fills nonce, gas and fees from the node, signs with `from`,
 * broadcasts and follows it (get_send_transaction_status). Gas sponsorship is not offered.
 *
 * @throws INVALID_ARGUMENT when parameters.caip2 is not a configured EVM network, parameters.sponsor is true, there is not exactly one call, parameters.maxPriorityFeePerGas exceeds parameters.maxFeePerGas, or parameters.from is not an Ethereum account
 * @throws NOT_FOUND when parameters.from names no wallet account of the organization
 */
export const handler: ActivityHandler<Params> = async (ctx, p) => {
  const network = requireNetwork(ctx.rt.config.networks, p.caip2, 'parameters.caip2')
  if (network.family !== 'evm') throw fieldError('INVALID_ARGUMENT', 'parameters.caip2', `${network.caip2} is not an EVM network`)
  if (p.sponsor)
    throw fieldError('INVALID_ARGUMENT', 'parameters.sponsor', 'gas sponsorship is not offered by this service; send with sponsor false')
  const calls =
    'calls' in p
      ? p.calls
      : [{ to: p.to, ...(p.value !== undefined ? { value: p.value } : {}), ...(p.data !== undefined ? { data: p.data } : {}) }]
  const [call] = calls
  if (!call || calls.length > 1)
    throw fieldError(
      'INVALID_ARGUMENT',
      'parameters.calls',
      'one call per transaction: batching several calls needs gas sponsorship, which this service does not offer',
    )
  if (p.maxFeePerGas !== undefined && p.maxPriorityFeePerGas !== undefined && BigInt(p.maxPriorityFeePerGas) > BigInt(p.maxFeePerGas)) {
    throw fieldError('INVALID_ARGUMENT', 'parameters.maxPriorityFeePerGas', 'must not exceed maxFeePerGas')
  }
  const account = await requireAccount(ctx.tx, ctx.organizationId, p.from, 'parameters.from')
  if (account.address_format !== 'ADDRESS_FORMAT_ETHEREUM') {
    throw fieldError('INVALID_ARGUMENT', 'parameters.from', `a ${account.address_format} account cannot send on ${network.caip2}`)
  }
  const request: EvmSendRequest = {
    to: call.to,
    ...(call.value !== undefined ? { value: BigInt(call.value).toString() } : {}),
    ...(call.data !== undefined ? { data: call.data } : {}),
    ...(p.nonce !== undefined ? { nonce: BigInt(p.nonce).toString() } : {}),
    ...(p.gasLimit !== undefined ? { gasLimit: BigInt(p.gasLimit).toString() } : {}),
    ...(p.maxFeePerGas !== undefined ? { maxFeePerGas: BigInt(p.maxFeePerGas).toString() } : {}),
    ...(p.maxPriorityFeePerGas !== undefined ? { maxPriorityFeePerGas: BigInt(p.maxPriorityFeePerGas).toString() } : {}),
  }
  return { sendTransactionStatusId: await recordSend(ctx, network, account, request, evmParties(call.to, call.data)) }
}
