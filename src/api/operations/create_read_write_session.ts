/** create_read_write_session (service-interface.md "Submit operations" 10; wire-formats B4). */
import { z } from 'zod'
import { ExpirationSeconds } from '../fields.js'
import { defineSubmit } from '../operation.js'

const SessionResult = z.object({
  organizationId: z.string(),
  organizationName: z.string(),
  userId: z.string(),
  username: z.string(),
  apiKeyId: z.string(),
  credentialBundle: z.string(),
})

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
  result: SessionResult,
})

/**
 * ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION (V1), on the same path: the user named by `email` (the
 * stamping user, or from a parent organization a user of the named sub-organization); result
 * `createReadWriteSessionResult`.
 */
export const createReadWriteSessionV1 = defineSubmit({
  name: 'create_read_write_session_v1',
  path: '/public/v1/submit/create_read_write_session',
  type: 'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION',
  intentKey: 'createReadWriteSessionIntent',
  resultKey: 'createReadWriteSessionResult',
  parameters: z.object({
    targetPublicKey: z.string(),
    email: z.string().min(1, { error: 'required' }),
    apiKeyName: z.string().optional(),
    expirationSeconds: ExpirationSeconds.optional(),
  }),
  result: SessionResult,
})
