import type { z } from 'zod'
import type { createPrivateKeyTag } from '../../api/operations/create_private_key_tag.js'
import { tagPrivateKeys } from '../store/privateKeys.js'
import { insertTag } from '../store/tags.js'
import { requirePrivateKeys } from './shared/privateKeys.js'
import { assertTagName, assertTagRoom } from './shared/tags.js'
import type { ActivityHandler } from './types.js'

/**
 * create_private_key_tag: a new private-key tag, put on `privateKeyIds`; `{privateKeyTagId, privateKeyIds}`.
 *
 * @throws INVALID_ARGUMENT when parameters.privateKeyTagName is blank
 * @throws ALREADY_EXISTS when the organization has a private-key tag of that name
 * @throws NOT_FOUND when an id of parameters.privateKeyIds names no private key of the organization
 * @throws FAILED_PRECONDITION when the organization already holds 100 tags
 */
export const handler: ActivityHandler<z.infer<typeof createPrivateKeyTag.parameters>> = async (ctx, p) => {
  const name = await assertTagName(ctx.tx, ctx.organizationId, 'TAG_TYPE_PRIVATE_KEY', p.privateKeyTagName, 'parameters.privateKeyTagName')
  const keyIds = await requirePrivateKeys(ctx.tx, ctx.organizationId, p.privateKeyIds, 'parameters.privateKeyIds')
  await assertTagRoom(ctx.tx, ctx.organizationId)
  const id = crypto.randomUUID()
  await insertTag(ctx.tx, { id, orgId: ctx.organizationId, name, type: 'TAG_TYPE_PRIVATE_KEY', now: ctx.now })
  await tagPrivateKeys(ctx.tx, id, keyIds, ctx.now)
  return { privateKeyTagId: id, privateKeyIds: keyIds }
}
