import { requireUser } from '../activities/shared/lookup.js'
import { listOrgApiKeys } from '../store/credentials.js'
import { apiKeyToWire } from '../store/users.js'
import type { QueryHandler } from './types.js'

/**
 * get_api_keys: `{organizationId, userId?}` → `{apiKeys}`, oldest first: the user's keys, or every
 * key of the organization without `userId` (session keys included, each with its expiry).
 *
 * @throws NOT_FOUND when userId names no user of the organization
 */
export const handler: QueryHandler<{ userId?: string | undefined }> = async ({ sql, organizationId }, req) => {
  if (req.userId !== undefined) await requireUser(sql, organizationId, req.userId, 'userId')
  const keys = await listOrgApiKeys(sql, organizationId, req.userId)
  return { apiKeys: keys.map(apiKeyToWire) }
}
