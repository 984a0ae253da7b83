import type { z } from 'zod'
import type { updateUser } from '../../api/operations/update_user.js'
import { updateUserFields } from '../store/users.js'
import { requireUser } from './shared/lookup.js'
import { requireTag } from './shared/tags.js'
import { checkEmail, checkPhone, contactsVouched } from './shared/users.js'
import type { ActivityHandler } from './types.js'

/**
 * update_user: changes the fields given — name, email and phone ("" removes them), and the user's
 * tags (`userTagIds` replaces them; an empty or absent list leaves them, as the hosted field's
 * "empty if not needed" says); `{userId}`. No verification token here: update_user_email and
 * update_user_phone_number take one.
 *
 * @throws NOT_FOUND when parameters.userId names no user of the organization, or an id of parameters.userTagIds no user tag
 * @throws INVALID_ARGUMENT when parameters.userEmail or parameters.userPhoneNumber is malformed
 */
export const handler: ActivityHandler<z.infer<typeof updateUser.parameters>> = async (ctx, p) => {
  const user = await requireUser(ctx.tx, ctx.organizationId, p.userId, 'parameters.userId')
  const fields: Parameters<typeof updateUserFields>[2] = {}
  if (p.userName !== undefined) fields.userName = p.userName
  if (p.userEmail !== undefined) fields.userEmail = p.userEmail === '' ? null : checkEmail(p.userEmail, 'parameters.userEmail')
  if (p.userPhoneNumber !== undefined) {
    fields.userPhoneNumber = p.userPhoneNumber === '' ? null : checkPhone(p.userPhoneNumber, 'parameters.userPhoneNumber')
  }
  if (p.userTagIds !== undefined && p.userTagIds.length > 0) {
    const tags = new Set<string>()
    for (const [i, id] of p.userTagIds.entries()) {
      tags.add((await requireTag(ctx.tx, ctx.organizationId, 'TAG_TYPE_USER', id, `parameters.userTagIds[${i}]`)).id)
    }
    fields.userTags = [...tags]
  }
  // No token here: a contact set by the user's own organization counts for nothing until proven.
  fields.contactsVerified = await contactsVouched(ctx)
  await updateUserFields(ctx.tx, user.id, fields, ctx.now)
  return { userId: user.id }
}
