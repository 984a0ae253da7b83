import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { deleteUsers } from '../../api/operations/delete_users.js'
import { getQuorum } from '../store/organizations.js'
import { deleteUser } from '../store/users.js'
import { requireUser } from './shared/lookup.js'
import type { ActivityHandler } from './types.js'

/**
 * delete_users: refused for root-quorum members (update the quorum first).
 *
 * @throws NOT_FOUND when an id of parameters.userIds names no user of the organization
 * @throws FAILED_PRECONDITION when a user of parameters.userIds is a member of the root quorum
 */
export const handler: ActivityHandler<z.infer<typeof deleteUsers.parameters>> = async (ctx, p) => {
  const quorum = await getQuorum(ctx.tx, ctx.organizationId)
  for (const [i, id] of p.userIds.entries()) {
    const field = `parameters.userIds[${i}]`
    await requireUser(ctx.tx, ctx.organizationId, id, field)
    if (quorum.userIds.includes(id)) {
      throw fieldError('FAILED_PRECONDITION', field, 'user is a root quorum member; remove it from the quorum first')
    }
    await deleteUser(ctx.tx, id)
  }
  return { userIds: p.userIds }
}
