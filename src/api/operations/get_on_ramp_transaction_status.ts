/** get_on_ramp_transaction_status (Turnkey `v1GetOnRampTransactionStatusRequest`). */
import { z } from 'zod'
import { OrganizationScoped } from '../common.js'
import { defineQuery } from '../operation.js'

/** Reads the status of an on-ramp transaction started by init_fiat_on_ramp. */
export const getOnRampTransactionStatus = defineQuery({
  name: 'get_on_ramp_transaction_status',
  // The hosted service's spelling; Sigil's first one stays as an alias.
  path: '/public/v1/query/get_onramp_transaction_status',
  aliases: ['/public/v1/query/get_on_ramp_transaction_status'],
  request: OrganizationScoped.extend({
    transactionId: z.string().min(1, { error: 'required' }),
    refresh: z.boolean().optional(),
  }),
  response: z.object({ transactionStatus: z.string(), txHash: z.string().optional() }),
})
