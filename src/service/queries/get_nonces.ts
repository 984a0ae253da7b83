import type { z } from 'zod'
import type { getNonces } from '../../api/operations/get_nonces.js'
import { fieldError } from '../../api/errors.js'
import { BATCH_NONCE_SLOT } from '../../chains/gasStation/batch.js'
import { requireNetwork } from '../chains/assets.js'
import { jsonRpc } from '../chains/rpc.js'
import type { QueryHandler } from './types.js'

/**
 * get_nonces: when `nonce` is asked for, the address's next nonce on an EVM network (pending
 * transactions counted); when `gasStationNonce` is, the batch nonce its next Gas Station batch
 * must sign (0 for an account that never ran one), read from the account's own storage slot of
 * the Gas Station contract, delegated or not. Both from the node.
 *
 * @throws INVALID_ARGUMENT when caip2 is not a configured EVM network, or gasStationNonce is asked on a network without a Gas Station
 * @throws FAILED_PRECONDITION when the network's node is not reachable, does not answer in time, refuses the call or answers without a result
 */
export const handler: QueryHandler<z.output<typeof getNonces.request>> = async ({ rt }, req) => {
  const network = requireNetwork(rt.config.networks, req.caip2, 'caip2')
  if (network.family !== 'evm') throw fieldError('INVALID_ARGUMENT', 'caip2', `${network.caip2} is not an EVM network`)
  if (req.gasStationNonce && !network.gasStation)
    throw fieldError('INVALID_ARGUMENT', 'gasStationNonce', `no Gas Station is configured on ${network.caip2}, so there is no batch nonce`)
  const address = req.address.toLowerCase()
  const [nonce, gasStationNonce] = await Promise.all([
    req.nonce === true ? jsonRpc<string>(network, 'eth_getTransactionCount', [address, 'pending']) : undefined,
    req.gasStationNonce === true ? jsonRpc<string>(network, 'eth_getStorageAt', [address, BATCH_NONCE_SLOT, 'pending']) : undefined,
  ])
  return {
    ...(nonce !== undefined ? { nonce: BigInt(nonce).toString() } : {}),
    ...(gasStationNonce !== undefined ? { gasStationNonce: BigInt(gasStationNonce).toString() } : {}),
  }
}
