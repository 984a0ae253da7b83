import { requireUser } from '../activities/shared/lookup.js'
import { listOauthProviders, oauthProviderToWire } from '../store/oauthProviders.js'
import type { QueryHandler } from './types.js'

/**
 * get_oauth_providers: `{organizationId, userId?}` → `{oauthProviders}` of that user, or of every
 * user of the organization, oldest first.
 *
 * @throws NOT_FOUND when userId names no user of the organization
 */
export const handler: QueryHandler<{ userId?: string | undefined }> = async ({ sql, organizationId }, req) => {
  if (req.userId !== undefined) await requireUser(sql, organizationId, req.userId, 'userId')
  return { oauthProviders: (await listOauthProviders(sql, organizationId, req.userId)).map(oauthProviderToWire) }
}
