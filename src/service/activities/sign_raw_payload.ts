import type { z } from 'zod'
import type { signRawPayload, signRawPayloadV1 } from '../../api/operations/sign_raw_payload.js'
import { renamed } from '../fieldNames.js'
import { signPayloadsWith } from '../signing/payloads.js'
import type { ActivityHandler } from './types.js'

/**
 * sign_raw_payload V2 (wire-formats B4): `{r, s, v}`.
 *
 * @throws NOT_FOUND when parameters.signWith names no wallet account or private key of the organization
 * @throws FAILED_PRECONDITION when parameters.signWith is a disabled private key
 * @throws INVALID_ARGUMENT when parameters.payload, parameters.encoding or parameters.hashFunction is invalid, or not valid for the account's curve
 */
export const handler: ActivityHandler<z.infer<typeof signRawPayload.parameters>> = async (ctx, p) => {
  const [signature] = await signPayloadsWith(ctx, p, [{ payload: p.payload, field: 'parameters.payload' }])
  return { ...signature }
}

/** sign_raw_payload V1: as V2 with `privateKeyId` for `signWith`; errors name parameters.privateKeyId. */
export const handlerV1: ActivityHandler<z.infer<typeof signRawPayloadV1.parameters>> = async (ctx, p) => {
  const { privateKeyId, ...rest } = p
  try {
    return await handler(ctx, { ...rest, signWith: privateKeyId })
  } catch (e) {
    throw renamed(e, (f) => (f === 'parameters.signWith' ? 'parameters.privateKeyId' : f))
  }
}
