import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { deleteApiKeys } from '../../api/operations/delete_api_keys.js'
import { deleteUserApiKey } from '../store/users.js'
import { requireUser } from './shared/lookup.js'
import type { ActivityHandler } from './types.js'

/**
 * delete_api_keys: every id must be a key of the user, or nothing is deleted.
 *
 * @throws NOT_FOUND when parameters.userId names no user of the organization, or an id of parameters.apiKeyIds is not an API key of that user
 */
export const handler: ActivityHandler<z.infer<typeof deleteApiKeys.parameters>> = async (ctx, p) => {
  await requireUser(ctx.tx, ctx.organizationId, p.userId, 'parameters.userId')
  for (const [i, id] of p.apiKeyIds.entries()) {
    if (!(await deleteUserApiKey(ctx.tx, p.userId, id))) {
      throw fieldError('NOT_FOUND', `parameters.apiKeyIds[${i}]`, 'no such API key for the user')
    }
  }
  return { apiKeyIds: p.apiKeyIds }
}
