import type { QueryHandler } from './types.js'
import { requireUser } from '../activities/shared/lookup.js'
import { userToWire } from '../store/users.js'

/**
 * get_user: `{organizationId, userId}` → `{user}`.
 *
 * @throws NOT_FOUND when userId names no user of the organization
 */
export const handler: QueryHandler<{ userId: string }> = async ({ sql, organizationId }, req) => {
  const user = await requireUser(sql, organizationId, req.userId, 'userId')
  return { user: await userToWire(sql, user) }
}
