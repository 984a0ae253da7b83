/** create_read_only_session (hosted OpenAPI v1CreateReadOnlySessionIntent / Result). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'

/**
 * A read-only session for the stamping user: ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION. The intent is
 * empty; `session` is a session JWT (wire-formats B3, `session_type` SESSION_TYPE_READ_ONLY) that
 * the client sends as the `X-Session` header of queries; `sessionExpiry` is in seconds.
 */
export const createReadOnlySession = defineSubmit({
  name: 'create_read_only_session',
  path: '/public/v1/submit/create_read_only_session',
  type: 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION',
  intentKey: 'createReadOnlySessionIntent',
  resultKey: 'createReadOnlySessionResult',
  parameters: z.object({}),
  result: z.object({
    organizationId: z.string(),
    organizationName: z.string(),
    userId: z.string(),
    username: z.string(),
    session: z.string(),
    sessionExpiry: z.string(),
  }),
})
