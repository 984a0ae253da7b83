import type { z } from 'zod'
import type { signRawPayload } from '../../api/operations/sign_raw_payload.js'
import { signPayloadsWith } from './shared/signing.js'
import type { ActivityHandler } from './types.js'

/**
 * sign_raw_payload V2 (wire-formats B4): `{r, s, v}`.
 *
 * @throws NOT_FOUND when parameters.signWith names no wallet account of the organization
 * @throws INVALID_ARGUMENT when parameters.payload, parameters.encoding or parameters.hashFunction is invalid, or not valid for the account's curve
 */
export const handler: ActivityHandler<z.infer<typeof signRawPayload.parameters>> = async (ctx, p) => {
  const [signature] = await signPayloadsWith(ctx, p, [{ payload: p.payload, field: 'parameters.payload' }])
  return { ...signature }
}
