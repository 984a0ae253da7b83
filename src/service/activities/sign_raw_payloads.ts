import type { z } from 'zod'
import { invalidField } from '../../api/errors.js'
import type { signRawPayloads } from '../../api/operations/sign_raw_payloads.js'
import { signPayloadsWith } from './shared/signing.js'
import type { ActivityHandler } from './types.js'

/** sign_raw_payloads (wire-formats B4): `{signatures: [{r, s, v}]}`, one per payload, in order. */
export const handler: ActivityHandler<z.infer<typeof signRawPayloads.parameters>> = async (ctx, p) => {
  if (p.payloads.length === 0) throw invalidField('parameters.payloads', 'at least one payload is required')
  const signatures = await signPayloadsWith(
    ctx,
    p,
    p.payloads.map((payload, i) => ({ payload, field: `parameters.payloads[${i}]` })),
  )
  return { signatures }
}
