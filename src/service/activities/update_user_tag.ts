import type { z } from 'zod'
import type { updateUserTag } from '../../api/operations/update_user_tag.js'
import { renameTag, tagUsers, untagUsers } from '../store/tags.js'
import { assertTagName, requireTag, requireUsers } from './shared/tags.js'
import type { ActivityHandler } from './types.js'

/**
 * update_user_tag: renames the tag when `newUserTagName` is given, puts it on `addUserIds` and takes
 * it off `removeUserIds` (a user in both ends without it); `{userTagId}`.
 *
 * @throws NOT_FOUND when parameters.userTagId names no user tag of the organization, or an id of parameters.addUserIds / removeUserIds no user
 * @throws ALREADY_EXISTS when another user tag has the new name
 */
export const handler: ActivityHandler<z.infer<typeof updateUserTag.parameters>> = async (ctx, p) => {
  const tag = await requireTag(ctx.tx, ctx.organizationId, 'TAG_TYPE_USER', p.userTagId, 'parameters.userTagId')
  const add = await requireUsers(ctx.tx, ctx.organizationId, p.addUserIds, 'parameters.addUserIds')
  const remove = await requireUsers(ctx.tx, ctx.organizationId, p.removeUserIds, 'parameters.removeUserIds')
  if (p.newUserTagName !== undefined) {
    const name = await assertTagName(ctx.tx, ctx.organizationId, 'TAG_TYPE_USER', p.newUserTagName, 'parameters.newUserTagName', tag.id)
    if (name !== tag.name) await renameTag(ctx.tx, tag.id, name, ctx.now)
  }
  await tagUsers(ctx.tx, tag.id, add, ctx.now)
  await untagUsers(ctx.tx, ctx.organizationId, tag.id, remove, ctx.now)
  return { userTagId: tag.id }
}
