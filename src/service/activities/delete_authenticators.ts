import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { deleteAuthenticators } from '../../api/operations/delete_authenticators.js'
import { deleteUserAuthenticator } from '../store/users.js'
import { requireUser } from './shared/lookup.js'
import type { ActivityHandler } from './types.js'

/**
 * delete_authenticators: every id must be a passkey of the user, or nothing is deleted.
 *
 * @throws NOT_FOUND when parameters.userId names no user of the organization, or an id of parameters.authenticatorIds is not a passkey of that user
 */
export const handler: ActivityHandler<z.infer<typeof deleteAuthenticators.parameters>> = async (ctx, p) => {
  await requireUser(ctx.tx, ctx.organizationId, p.userId, 'parameters.userId')
  for (const [i, id] of p.authenticatorIds.entries()) {
    if (!(await deleteUserAuthenticator(ctx.tx, p.userId, id))) {
      throw fieldError('NOT_FOUND', `parameters.authenticatorIds[${i}]`, 'no such authenticator for the user')
    }
  }
  return { authenticatorIds: p.authenticatorIds }
}
