import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { deleteOauthProviders } from '../../api/operations/delete_oauth_providers.js'
import { deleteUserOauthProvider } from '../store/oauthProviders.js'
import { requireUser } from './shared/lookup.js'
import type { ActivityHandler } from './types.js'

/**
 * delete_oauth_providers: every id must be an OAuth provider of the user, or nothing is deleted;
 * `{providerIds}`.
 *
 * @throws NOT_FOUND when parameters.userId names no user of the organization, or an id of parameters.providerIds is not an OAuth provider of that user
 */
export const handler: ActivityHandler<z.infer<typeof deleteOauthProviders.parameters>> = async (ctx, p) => {
  await requireUser(ctx.tx, ctx.organizationId, p.userId, 'parameters.userId')
  for (const [i, id] of p.providerIds.entries()) {
    if (!(await deleteUserOauthProvider(ctx.tx, p.userId, id))) {
      throw fieldError('NOT_FOUND', `parameters.providerIds[${i}]`, 'no such OAuth provider for the user')
    }
  }
  return { providerIds: p.providerIds }
}
