/** get_session_profile (hosted OpenAPI v1GetSessionProfileRequest / Response). */
import { z } from 'zod'
import { Timestamp } from '../common.js'
import { defineQuery } from '../operation.js'

/** A session profile as the hosted v1SessionProfile. */
export const SessionProfile = z.object({
  sessionProfileId: z.string(),
  sessionProfileName: z.string(),
  scope: z.string(),
  expirationSeconds: z.string().optional(),
  notes: z.string().optional(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
})

/** One of the organization's session profiles → `{sessionProfile}`. */
export const getSessionProfile = defineQuery({
  name: 'get_session_profile',
  path: '/public/v1/query/get_session_profile',
  request: z.object({
    organizationId: z.string().min(1, { error: 'required' }),
    sessionProfileId: z.string({ error: 'required' }).min(1, { error: 'required' }).max(64, { error: 'must be a session profile id' }),
  }),
  response: z.object({ sessionProfile: SessionProfile }),
})
