/** create_session_profile (hosted OpenAPI v1CreateSessionProfileIntent / Result; docs "Session profiles"). */
import { z } from 'zod'
import { MAX_SESSION_PROFILE_NAME, MAX_SESSION_PROFILE_NOTES, MAX_SESSION_PROFILE_SCOPE } from '../limits.js'
import { defineSubmit } from '../operation.js'

/**
 * Creates a session profile: ACTIVITY_TYPE_CREATE_SESSION_PROFILE. `scope` is policy language
 * evaluated on every activity signed with a session issued under the profile (false or an error
 * refuses it); `expirationSeconds` caps those sessions' lifetime. Profiles are immutable.
 */
export const createSessionProfile = defineSubmit({
  name: 'create_session_profile',
  path: '/public/v1/submit/create_session_profile',
  type: 'ACTIVITY_TYPE_CREATE_SESSION_PROFILE',
  intentKey: 'createSessionProfileIntent',
  resultKey: 'createSessionProfileResult',
  parameters: z.object({
    sessionProfileName: z
      .string({ error: 'required' })
      .trim()
      .min(1, { error: 'required' })
      .max(MAX_SESSION_PROFILE_NAME, { error: `at most ${MAX_SESSION_PROFILE_NAME} characters` })
      // The name is the session JWT's `session_type`, whose payload stays printable ASCII without > ? ~ (wire-formats B3).
      .regex(/^[\x20-\x3d\x40-\x7d]+$/, { error: "must be printable ASCII without > ? ~ (it becomes the session token's session_type)" }),
    scope: z
      .string({ error: 'required' })
      .min(1, { error: 'required: policy language, e.g. "true" or "activity.action == \'SIGN\'"' })
      .max(MAX_SESSION_PROFILE_SCOPE, { error: `at most ${MAX_SESSION_PROFILE_SCOPE} characters` }),
    expirationSeconds: z
      .string()
      .regex(/^[1-9][0-9]{0,9}$/, { error: 'must be a positive whole number of seconds' })
      .optional(),
    notes: z
      .string()
      .max(MAX_SESSION_PROFILE_NOTES, { error: `at most ${MAX_SESSION_PROFILE_NOTES} characters` })
      .optional(),
  }),
  result: z.object({ sessionProfileId: z.string() }),
})
