/** create_read_write_session (service-interface.md "Submit operations" 10; wire-formats B4). */
import { z } from 'zod'
import { ExpirationSeconds } from '../fields.js'
import { defineSubmit } from '../operation.js'

/** Creates a session API key delivered as a credential bundle: ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2. */
export const createReadWriteSession = defineSubmit({
  name: 'create_read_write_session',
  path: '/public/v1/submit/create_read_write_session',
  type: 'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2',
  intentKey: 'createReadWriteSessionIntentV2',
  resultKey: 'createReadWriteSessionResultV2',
  parameters: z.object({
    targetPublicKey: z.string(),
    userId: z.string().optional(),
    apiKeyName: z.string().optional(),
    expirationSeconds: ExpirationSeconds.optional(),
    invalidateExisting: z.boolean().optional(),
  }),
  result: z.object({
    organizationId: z.string(),
    organizationName: z.string(),
    userId: z.string(),
    username: z.string(),
    apiKeyId: z.string(),
    credentialBundle: z.string(),
  }),
})
