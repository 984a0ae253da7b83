import type { z } from 'zod'
import { withP256 } from '../../api/common.js'
import type { createUsers, createUsersV1, createUsersV2 } from '../../api/operations/create_users.js'
import { fromLegacyAuthenticator, withLegacyAuthenticatorFields } from './shared/legacyAuthenticators.js'
import { createUser } from './shared/users.js'
import type { ActivityHandler } from './types.js'

/**
 * create_users V3: users with API keys, passkeys and OAuth providers.
 *
 * @throws INVALID_ARGUMENT when a user's userName is empty, its userEmail or userPhoneNumber is malformed, one of its API keys or passkey attestations is invalid, or an OAuth provider has neither oidcClaims nor a decodable oidcToken
 * @throws ALREADY_EXISTS when a passkey's credential id is already registered, in any organization
 * @throws NOT_FOUND when an id of a user's userTags names no user tag of the organization
 */
export const handler: ActivityHandler<z.infer<typeof createUsers.parameters>> = async (ctx, p) => {
  const userIds: string[] = []
  for (const [i, u] of p.users.entries()) {
    userIds.push(await createUser(ctx, ctx.organizationId, u, `parameters.users[${i}]`))
  }
  return { userIds }
}

/** create_users V2: API keys without `curveType` are P-256; no phone numbers or OAuth providers. */
export const handlerV2: ActivityHandler<z.infer<typeof createUsersV2.parameters>> = (ctx, p) =>
  handler(ctx, { users: p.users.map((u) => ({ ...u, apiKeys: u.apiKeys.map(withP256), oauthProviders: [] })) })

/**
 * create_users V1: as V2, with authenticators in the legacy form (verified as the current form is;
 * their `userId` is not checked, the user does not exist yet) and `accessType` not kept.
 */
export const handlerV1: ActivityHandler<z.infer<typeof createUsersV1.parameters>> = async (ctx, p) => {
  const users = p.users.map(({ accessType: _, ...u }, i) => ({
    ...u,
    apiKeys: u.apiKeys.map(withP256),
    authenticators: u.authenticators.map((a, j) => fromLegacyAuthenticator(a, `parameters.users[${i}].authenticators[${j}]`)),
    oauthProviders: [],
  }))
  return withLegacyAuthenticatorFields(() => handler(ctx, { users }))
}
