/** update_allowed_origins (service-interface.md Intents "updateAllowedOriginsIntent"; wire-formats A4 origins). */
import { z } from 'zod'
import { boundedArray } from '../fields.js'
import { MAX_ALLOWED_ORIGINS } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** Replaces the WebAuthn allowed origins: ACTIVITY_TYPE_UPDATE_ALLOWED_ORIGINS. */
export const updateAllowedOrigins = defineSubmit({
  name: 'update_allowed_origins',
  path: '/public/v1/submit/update_allowed_origins',
  type: 'ACTIVITY_TYPE_UPDATE_ALLOWED_ORIGINS',
  intentKey: 'updateAllowedOriginsIntent',
  resultKey: 'updateAllowedOriginsResult',
  parameters: z.object({ allowedOrigins: boundedArray(z.string(), MAX_ALLOWED_ORIGINS) }),
  result: z.object({}),
})
