/** stamp_login (wire-formats B4 stampLogin, B6). */
import { z } from 'zod'
import { ExpirationSeconds } from '../fields.js'
import { defineSubmit } from '../operation.js'

/** Issues a session JWT for the stamping credential: ACTIVITY_TYPE_STAMP_LOGIN. */
export const stampLogin = defineSubmit({
  name: 'stamp_login',
  path: '/public/v1/submit/stamp_login',
  type: 'ACTIVITY_TYPE_STAMP_LOGIN',
  intentKey: 'stampLoginIntent',
  resultKey: 'stampLoginResult',
  parameters: z.object({
    publicKey: z.string(),
    expirationSeconds: ExpirationSeconds.optional(),
    invalidateExisting: z.boolean().optional(),
    sessionProfileId: z.string().optional(),
  }),
  result: z.object({ session: z.string() }),
})
