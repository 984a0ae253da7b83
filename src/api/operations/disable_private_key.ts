/**
 * disable_private_key (service-interface.md Intents "disablePrivateKeyIntent", Results
 * "disablePrivateKeyResult"). The hosted OpenAPI lists the activity type but no path; Sigil serves it
 * at the path its naming rule gives.
 */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'

/** Disables a private key for good (it signs nothing after): ACTIVITY_TYPE_DISABLE_PRIVATE_KEY. */
export const disablePrivateKey = defineSubmit({
  name: 'disable_private_key',
  path: '/public/v1/submit/disable_private_key',
  type: 'ACTIVITY_TYPE_DISABLE_PRIVATE_KEY',
  intentKey: 'disablePrivateKeyIntent',
  resultKey: 'disablePrivateKeyResult',
  parameters: z.object({ privateKeyId: z.string().min(1, { error: 'required' }) }),
  result: z.object({ privateKeyId: z.string() }),
})
