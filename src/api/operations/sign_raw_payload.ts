/** sign_raw_payload (wire-formats B4 signRawPayload). */
import { z } from 'zod'
import { HashFunction, PayloadEncoding } from '../enums.js'
import { defineSubmit } from '../operation.js'

/** `{r, s, v}`: r and s 64-hex without 0x, v 2-hex (wire-formats B4). */
export const RawSignature = z.object({ r: z.string(), s: z.string(), v: z.string() })
export type RawSignature = z.infer<typeof RawSignature>

/** Signs one payload with a wallet account: ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2. */
export const signRawPayload = defineSubmit({
  name: 'sign_raw_payload',
  path: '/public/v1/submit/sign_raw_payload',
  type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
  intentKey: 'signRawPayloadIntentV2',
  resultKey: 'signRawPayloadResult',
  parameters: z.object({
    signWith: z.string().min(1, { error: 'required' }),
    payload: z.string(),
    encoding: PayloadEncoding,
    hashFunction: HashFunction,
  }),
  result: RawSignature,
})

/** ACTIVITY_TYPE_SIGN_RAW_PAYLOAD, on the same path: the key named by `privateKeyId` (an id or address, as `signWith`). */
export const signRawPayloadV1 = defineSubmit({
  name: 'sign_raw_payload_v1',
  path: '/public/v1/submit/sign_raw_payload',
  type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD',
  intentKey: 'signRawPayloadIntent',
  resultKey: 'signRawPayloadResult',
  parameters: z.object({
    privateKeyId: z.string().min(1, { error: 'required' }),
    payload: z.string(),
    encoding: PayloadEncoding,
    hashFunction: HashFunction,
  }),
  result: RawSignature,
})
