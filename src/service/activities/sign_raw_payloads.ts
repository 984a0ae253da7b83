import type { z } from 'zod'
import { invalidField } from '../../api/errors.js'
import type { signRawPayloads } from '../../api/operations/sign_raw_payloads.js'
import { signPayloadsWith } from '../signing/payloads.js'
import type { ActivityHandler } from './types.js'

/**
 * sign_raw_payloads (wire-formats B4): `{signatures: [{r, s, v}]}`, one per payload, in order.
 *
 * @throws INVALID_ARGUMENT when parameters.payloads is empty, or a payload, parameters.encoding or parameters.hashFunction is invalid, or not valid for the account's curve
 * @throws NOT_FOUND when parameters.signWith names no wallet account of the organization
 */
export const handler: ActivityHandler<z.infer<typeof signRawPayloads.parameters>> = async (ctx, p) => {
  if (p.payloads.length === 0) throw invalidField('parameters.payloads', 'at least one payload is required')
  const signatures = await signPayloadsWith(
    ctx,
    p,
    p.payloads.map((payload, i) => ({ payload, field: `parameters.payloads[${i}]` })),
  )
  return { signatures }
}
