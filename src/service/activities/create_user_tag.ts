import type { z } from 'zod'
import type { createUserTag } from '../../api/operations/create_user_tag.js'
import { insertTag, tagUsers } from '../store/tags.js'
import { assertTagName, assertTagRoom, requireUsers } from './shared/tags.js'
import type { ActivityHandler } from './types.js'

/**
 * create_user_tag: a new user tag, put on `userIds`; `{userTagId, userIds}`. Policies see it in
 * `approvers[].tags` / `user.tags` (tag ids).
 *
 * @throws INVALID_ARGUMENT when parameters.userTagName is blank
 * @throws ALREADY_EXISTS when the organization has a user tag of that name
 * @throws NOT_FOUND when an id of parameters.userIds names no user of the organization
 * @throws FAILED_PRECONDITION when the organization already holds 100 tags
 */
export const handler: ActivityHandler<z.infer<typeof createUserTag.parameters>> = async (ctx, p) => {
  const name = await assertTagName(ctx.tx, ctx.organizationId, 'TAG_TYPE_USER', p.userTagName, 'parameters.userTagName')
  const userIds = await requireUsers(ctx.tx, ctx.organizationId, p.userIds, 'parameters.userIds')
  await assertTagRoom(ctx.tx, ctx.organizationId)
  const id = crypto.randomUUID()
  await insertTag(ctx.tx, { id, orgId: ctx.organizationId, name, type: 'TAG_TYPE_USER', now: ctx.now })
  await tagUsers(ctx.tx, id, userIds, ctx.now)
  return { userTagId: id, userIds }
}
