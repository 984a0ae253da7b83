import type { z } from 'zod'
import type { getNonces } from '../../api/operations/get_nonces.js'
import { fieldError } from '../../api/errors.js'
import { requireNetwork } from '../chains/assets.js'
import { jsonRpc } from '../chains/rpc.js'
import type { QueryHandler } from './types.js'

/**
 * get_nonces: when `nonce` is asked for, the address's next nonce on an EVM network (pending
 * transactions counted), read from
 * the node. There is no gas station here, so `gasStationNonce: true` is refused naming the field.
 *
 * @throws INVALID_ARGUMENT when caip2 is not a configured EVM network or gasStationNonce is true
 * @throws FAILED_PRECONDITION when nonce is asked for and the network's node is not reachable, does not answer in time, refuses the call or answers without a result
 */
export const handler: QueryHandler<z.output<typeof getNonces.request>> = async ({ rt }, req) => {
  const network = requireNetwork(rt.config.networks, req.caip2, 'caip2')
  if (network.family !== 'evm') throw fieldError('INVALID_ARGUMENT', 'caip2', `${network.caip2} is not an EVM network`)
  if (req.gasStationNonce)
    throw fieldError('INVALID_ARGUMENT', 'gasStationNonce', 'gas sponsorship (gas station) is not offered by this service')
  if (req.nonce !== true) return {}
  return { nonce: BigInt(await jsonRpc<string>(network, 'eth_getTransactionCount', [req.address, 'pending'])).toString() }
}
