import type { z } from 'zod'
import type { createApiOnlyUsers } from '../../api/operations/create_api_only_users.js'
import { createUser } from './shared/users.js'
import type { ActivityHandler } from './types.js'

/**
 * create_api_only_users: users with API keys only (no passkeys, no OAuth); a key without
 * `curveType` is P-256. `{userIds}` in request order.
 *
 * @throws INVALID_ARGUMENT when a user's userName is empty, its userEmail malformed or an API key invalid
 * @throws NOT_FOUND when an id of a user's userTags names no user tag of the organization
 */
export const handler: ActivityHandler<z.infer<typeof createApiOnlyUsers.parameters>> = async (ctx, p) => {
  const userIds: string[] = []
  for (const [i, u] of p.apiOnlyUsers.entries()) {
    const apiKeys = u.apiKeys.map((k) => ({ ...k, curveType: k.curveType ?? ('API_KEY_CURVE_P256' as const) }))
    const id = await createUser(
      ctx,
      ctx.organizationId,
      { userName: u.userName, userEmail: u.userEmail, userTags: u.userTags, apiKeys, authenticators: [], oauthProviders: [] },
      `parameters.apiOnlyUsers[${i}]`,
    )
    userIds.push(id)
  }
  return { userIds }
}
