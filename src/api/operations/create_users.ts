/** create_users (service-interface.md Intents "createUsersIntentV2"; Turnkey V3 adds phone and OAuth). */
import { z } from 'zod'
import { ApiKeyParamsNoCurve, ApiKeysParam, AuthenticatorsParam, LegacyAuthenticatorParams, OauthProvidersParam } from '../common.js'
import { StringArray, boundedArray } from '../fields.js'
import { MAX_API_KEYS_PER_USER, MAX_AUTHENTICATORS_PER_USER, MAX_USER_TAGS, MAX_USERS } from '../limits.js'
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

const CreateUsersParameters = z.object({ users: boundedArray(UserParams, MAX_USERS) })
const CreateUsersResult = z.object({ userIds: StringArray })

/**
 * Creates users in an organization: ACTIVITY_TYPE_CREATE_USERS_V4, what `@turnkey/http` sends today
 * (V4 differs from V3 only in taking OAuth providers by `oidcClaims` as well as by token, which
 * {@link UserParams} accepts in both versions).
 */
export const createUsers = defineSubmit({
  name: 'create_users',
  path: '/public/v1/submit/create_users',
  type: 'ACTIVITY_TYPE_CREATE_USERS_V4',
  intentKey: 'createUsersIntentV4',
  resultKey: 'createUsersResult',
  parameters: CreateUsersParameters,
  result: CreateUsersResult,
})

/** ACTIVITY_TYPE_CREATE_USERS_V3, on the same path. */
export const createUsersV3 = defineSubmit({
  name: 'create_users_v3',
  path: '/public/v1/submit/create_users',
  type: 'ACTIVITY_TYPE_CREATE_USERS_V3',
  intentKey: 'createUsersIntentV3',
  resultKey: 'createUsersResult',
  parameters: CreateUsersParameters,
  result: CreateUsersResult,
})

/** ACTIVITY_TYPE_CREATE_USERS_V2, on the same path: API keys without `curveType` (P-256), no phone, no OAuth providers. */
export const createUsersV2 = defineSubmit({
  name: 'create_users_v2',
  path: '/public/v1/submit/create_users',
  type: 'ACTIVITY_TYPE_CREATE_USERS_V2',
  intentKey: 'createUsersIntentV2',
  resultKey: 'createUsersResult',
  parameters: z.object({
    users: boundedArray(
      z.object({
        userName: z.string().min(1, { error: 'required' }),
        userEmail: z.string().optional(),
        apiKeys: boundedArray(ApiKeyParamsNoCurve, MAX_API_KEYS_PER_USER),
        authenticators: AuthenticatorsParam,
        userTags: boundedArray(z.string(), MAX_USER_TAGS),
      }),
      MAX_USERS,
    ),
  }),
  result: CreateUsersResult,
})

/**
 * ACTIVITY_TYPE_CREATE_USERS (V1), on the same path: as V2 but with an `accessType` (accepted, not
 * kept: every Sigil user may use every credential it has) and authenticators in the legacy form.
 */
export const createUsersV1 = defineSubmit({
  name: 'create_users_v1',
  path: '/public/v1/submit/create_users',
  type: 'ACTIVITY_TYPE_CREATE_USERS',
  intentKey: 'createUsersIntent',
  resultKey: 'createUsersResult',
  parameters: z.object({
    users: boundedArray(
      z.object({
        userName: z.string().min(1, { error: 'required' }),
        userEmail: z.string().optional(),
        accessType: z.enum(['ACCESS_TYPE_WEB', 'ACCESS_TYPE_API', 'ACCESS_TYPE_ALL'], {
          error: 'one of ACCESS_TYPE_WEB, ACCESS_TYPE_API, ACCESS_TYPE_ALL',
        }),
        apiKeys: boundedArray(ApiKeyParamsNoCurve, MAX_API_KEYS_PER_USER),
        authenticators: boundedArray(LegacyAuthenticatorParams, MAX_AUTHENTICATORS_PER_USER),
        userTags: boundedArray(z.string(), MAX_USER_TAGS),
      }),
      MAX_USERS,
    ),
  }),
  result: CreateUsersResult,
})
