import { requireUser } from '../activities/shared/lookup.js'
import { listUserAuthenticators } from '../store/credentials.js'
import { authenticatorToWire } from '../store/users.js'
import type { QueryHandler } from './types.js'

/**
 * get_authenticators: `{organizationId, userId}` → `{authenticators}` of that user, oldest first.
 *
 * @throws NOT_FOUND when userId names no user of the organization
 */
export const handler: QueryHandler<{ userId: string }> = async ({ sql, organizationId }, req) => {
  await requireUser(sql, organizationId, req.userId, 'userId')
  const list = await listUserAuthenticators(sql, organizationId, req.userId)
  return { authenticators: list.map(authenticatorToWire) }
}
