/** get_nonces (hosted OpenAPI v1GetNoncesRequest/Response). */
import { z } from 'zod'
import { OrganizationScoped } from '../common.js'
import { defineQuery } from '../operation.js'
import { EvmAddress } from './eth_send_transaction.js'

/** The next nonce of an EVM address on a network, as a decimal string. */
export const getNonces = defineQuery({
  name: 'get_nonces',
  path: '/public/v1/query/get_nonces',
  request: OrganizationScoped.extend({
    address: EvmAddress,
    caip2: z.string().min(1, { error: 'required' }).max(64),
    nonce: z.boolean().optional(),
    gasStationNonce: z.boolean().optional(),
  }),
  response: z.object({ nonce: z.string().optional(), gasStationNonce: z.string().optional() }),
})
