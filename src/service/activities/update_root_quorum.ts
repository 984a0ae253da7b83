import type { z } from 'zod'
import { invalidField } from '../../api/errors.js'
import type { updateRootQuorum } from '../../api/operations/update_root_quorum.js'
import { setQuorum } from '../store/organizations.js'
import { requireUser } from './shared/lookup.js'
import type { ActivityHandler } from './types.js'

/**
 * update_root_quorum: members must be users of the organization; 1 ≤ threshold ≤ members.
 *
 * @throws INVALID_ARGUMENT when parameters.userIds is empty or repeats a user, or parameters.threshold exceeds the number of members
 * @throws NOT_FOUND when an id of parameters.userIds names no user of the organization
 */
export const handler: ActivityHandler<z.infer<typeof updateRootQuorum.parameters>> = async (ctx, p) => {
  const ids = [...new Set(p.userIds)]
  if (ids.length !== p.userIds.length) throw invalidField('parameters.userIds', 'must not repeat a user')
  if (ids.length === 0) throw invalidField('parameters.userIds', 'at least one member is required')
  if (p.threshold > ids.length) throw invalidField('parameters.threshold', `must not exceed the number of members (${ids.length})`)
  for (const [i, id] of ids.entries()) await requireUser(ctx.tx, ctx.organizationId, id, `parameters.userIds[${i}]`)
  await setQuorum(ctx.tx, ctx.organizationId, p.threshold, ids, ctx.now)
  return {}
}
