import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { ethUndelegate7702 } from '../../api/operations/eth_undelegate_7702.js'
import { requireNetwork } from '../chains/assets.js'
import type { EvmSendRequest } from '../sends/evm.js'
import { recordSend } from '../sends/record.js'
import { requireAccount } from '../signing/walletLookup.js'
import type { ActivityHandler } from './types.js'

/**
 * eth_undelegate_7702: records a send that clears `from`'s EIP-7702 delegation: a type-4
 * transaction from the account to itself whose authorization (nonce: the account's next but one)
 * delegates to the zero address. The tracker reads the account's code when it builds it: an
 * account that is not delegated fails the send ("not delegated"), as a node-dependent check does
 * not belong in the activity. Without `gasLimit` the fixed undelegation limit (60,000) is used.
 *
 * @throws INVALID_ARGUMENT when parameters.caip2 is not a configured EVM network, parameters.maxPriorityFeePerGas exceeds parameters.maxFeePerGas, or parameters.from is not an Ethereum account
 * @throws NOT_FOUND when parameters.from names no wallet account of the organization
 */
export const handler: ActivityHandler<z.infer<typeof ethUndelegate7702.parameters>> = async (ctx, p) => {
  const network = requireNetwork(ctx.rt.config.networks, p.caip2, 'parameters.caip2')
  if (network.family !== 'evm') throw fieldError('INVALID_ARGUMENT', 'parameters.caip2', `${network.caip2} is not an EVM network`)
  if (p.maxFeePerGas !== undefined && p.maxPriorityFeePerGas !== undefined && BigInt(p.maxPriorityFeePerGas) > BigInt(p.maxFeePerGas)) {
    throw fieldError('INVALID_ARGUMENT', 'parameters.maxPriorityFeePerGas', 'must not exceed maxFeePerGas')
  }
  const account = await requireAccount(ctx.tx, ctx.organizationId, p.from, 'parameters.from')
  if (account.address_format !== 'ADDRESS_FORMAT_ETHEREUM') {
    throw fieldError('INVALID_ARGUMENT', 'parameters.from', `a ${account.address_format} account cannot send on ${network.caip2}`)
  }
  const request: EvmSendRequest = {
    undelegate: true,
    ...(p.nonce !== undefined ? { nonce: BigInt(p.nonce).toString() } : {}),
    ...(p.gasLimit !== undefined ? { gasLimit: BigInt(p.gasLimit).toString() } : {}),
    ...(p.maxFeePerGas !== undefined ? { maxFeePerGas: BigInt(p.maxFeePerGas).toString() } : {}),
    ...(p.maxPriorityFeePerGas !== undefined ? { maxPriorityFeePerGas: BigInt(p.maxPriorityFeePerGas).toString() } : {}),
  }
  return { sendTransactionStatusId: await recordSend(ctx, network, account, request, []) }
}
