/** get_session_profiles (hosted OpenAPI v1GetSessionProfilesRequest / Response). */
import { z } from 'zod'
import { defineQuery } from '../operation.js'
import { SessionProfile } from './get_session_profile.js'

/** Every session profile of the organization, oldest first → `{sessionProfiles}`. */
export const getSessionProfiles = defineQuery({
  name: 'get_session_profiles',
  path: '/public/v1/query/get_session_profiles',
  request: z.object({ organizationId: z.string().min(1, { error: 'required' }) }),
  response: z.object({ sessionProfiles: z.array(SessionProfile) }),
})
