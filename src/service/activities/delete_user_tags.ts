import type { z } from 'zod'
import { invalidField } from '../../api/errors.js'
import type { deleteUserTags } from '../../api/operations/delete_user_tags.js'
import { deleteTag, untagUsers } from '../store/tags.js'
import { requireTag } from './shared/tags.js'
import type { ActivityHandler } from './types.js'

/**
 * delete_user_tags: deletes the tags and takes them off every user; `{userTagIds, userIds}` with
 * the users that carried one of them.
 *
 * @throws INVALID_ARGUMENT when parameters.userTagIds is empty
 * @throws NOT_FOUND when an id of parameters.userTagIds names no user tag of the organization
 */
export const handler: ActivityHandler<z.infer<typeof deleteUserTags.parameters>> = async (ctx, p) => {
  if (p.userTagIds.length === 0) throw invalidField('parameters.userTagIds', 'at least one user tag id is required')
  const ids = new Set<string>()
  for (const [i, id] of p.userTagIds.entries()) {
    ids.add((await requireTag(ctx.tx, ctx.organizationId, 'TAG_TYPE_USER', id, `parameters.userTagIds[${i}]`)).id)
  }
  const users = new Set<string>()
  for (const id of ids) {
    for (const u of await untagUsers(ctx.tx, ctx.organizationId, id, 'all', ctx.now)) users.add(u)
    await deleteTag(ctx.tx, id)
  }
  return { userTagIds: [...ids], userIds: [...users] }
}
