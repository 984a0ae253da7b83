import type { z } from 'zod'
import type { signRawPayload } from '../../api/operations/sign_raw_payload.js'
import { signPayloadsWith } from './shared/signing.js'
import type { ActivityHandler } from './types.js'

/** sign_raw_payload V2 (wire-formats B4): `{r, s, v}`. */
export const handler: ActivityHandler<z.infer<typeof signRawPayload.parameters>> = async (ctx, p) => {
  const [signature] = await signPayloadsWith(ctx, p, [{ payload: p.payload, field: 'parameters.payload' }])
  return { ...signature }
}
