import type { z } from 'zod'
import { invalidField } from '../../api/errors.js'
import type { updateUserName } from '../../api/operations/update_user_name.js'
import { updateUserFields } from '../store/users.js'
import { requireUser } from './shared/lookup.js'
import type { ActivityHandler } from './types.js'

/**
 * update_user_name: `{userId}`.
 *
 * @throws NOT_FOUND when parameters.userId names no user of the organization
 * @throws INVALID_ARGUMENT when parameters.userName is blank
 */
export const handler: ActivityHandler<z.infer<typeof updateUserName.parameters>> = async (ctx, p) => {
  const user = await requireUser(ctx.tx, ctx.organizationId, p.userId, 'parameters.userId')
  if (!p.userName.trim()) throw invalidField('parameters.userName', 'must not be blank')
  await updateUserFields(ctx.tx, user.id, { userName: p.userName }, ctx.now)
  return { userId: user.id }
}
