/** create_users (service-interface.md Intents "createUsersIntentV2"; Turnkey V3 adds phone and OAuth). */
import { z } from 'zod'
import { ApiKeysParam, AuthenticatorsParam, OauthProvidersParam } from '../common.js'
import { StringArray, boundedArray } from '../fields.js'
import { MAX_USER_TAGS, MAX_USERS } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** One user to create. */
export const UserParams = z.object({
  userName: z.string().min(1, { error: 'required' }),
  userEmail: z.string().optional(),
  userPhoneNumber: z.string().optional(),
  apiKeys: ApiKeysParam,
  authenticators: AuthenticatorsParam,
  oauthProviders: OauthProvidersParam,
  userTags: boundedArray(z.string(), MAX_USER_TAGS),
})
export type UserParams = z.infer<typeof UserParams>

/** Creates users in an organization: ACTIVITY_TYPE_CREATE_USERS_V3. */
export const createUsers = defineSubmit({
  name: 'create_users',
  path: '/public/v1/submit/create_users',
  type: 'ACTIVITY_TYPE_CREATE_USERS_V3',
  intentKey: 'createUsersIntentV3',
  resultKey: 'createUsersResult',
  parameters: z.object({ users: boundedArray(UserParams, MAX_USERS) }),
  result: z.object({ userIds: StringArray }),
})
