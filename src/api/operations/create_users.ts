/** create_users (service-interface.md Intents "createUsersIntentV2"; Turnkey V3 adds phone and OAuth). */
import { z } from 'zod'
import { ApiKeyParams, AuthenticatorParams, OauthProviderParams } from '../common.js'
import { StringArray } from '../fields.js'
import { defineSubmit } from '../operation.js'

/** One user to create. */
export const UserParams = z.object({
  userName: z.string().min(1, { error: 'required' }),
  userEmail: z.string().optional(),
  userPhoneNumber: z.string().optional(),
  apiKeys: z.array(ApiKeyParams),
  authenticators: z.array(AuthenticatorParams),
  oauthProviders: z.array(OauthProviderParams),
  userTags: StringArray,
})
export type UserParams = z.infer<typeof UserParams>

/** Creates users in an organization: ACTIVITY_TYPE_CREATE_USERS_V3. */
export const createUsers = defineSubmit({
  name: 'create_users',
  path: '/public/v1/submit/create_users',
  type: 'ACTIVITY_TYPE_CREATE_USERS_V3',
  intentKey: 'createUsersIntentV3',
  resultKey: 'createUsersResult',
  parameters: z.object({ users: z.array(UserParams) }),
  result: z.object({ userIds: StringArray }),
})
