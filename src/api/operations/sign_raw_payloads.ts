/** sign_raw_payloads (wire-formats B4 signRawPayloads). */
import { z } from 'zod'
import { HashFunction, PayloadEncoding } from '../enums.js'
import { boundedArray } from '../fields.js'
import { MAX_RAW_PAYLOADS } from '../limits.js'
import { defineSubmit } from '../operation.js'
import { RawSignature } from './sign_raw_payload.js'

/** Signs several payloads with one account: ACTIVITY_TYPE_SIGN_RAW_PAYLOADS. */
export const signRawPayloads = defineSubmit({
  name: 'sign_raw_payloads',
  path: '/public/v1/submit/sign_raw_payloads',
  type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS',
  intentKey: 'signRawPayloadsIntent',
  resultKey: 'signRawPayloadsResult',
  parameters: z.object({
    signWith: z.string().min(1, { error: 'required' }),
    payloads: boundedArray(z.string(), MAX_RAW_PAYLOADS),
    encoding: PayloadEncoding,
    hashFunction: HashFunction,
  }),
  result: z.object({ signatures: z.array(RawSignature) }),
})
