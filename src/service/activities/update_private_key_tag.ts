import type { z } from 'zod'
import type { updatePrivateKeyTag } from '../../api/operations/update_private_key_tag.js'
import { tagPrivateKeys, untagPrivateKeys } from '../store/privateKeys.js'
import { renameTag } from '../store/tags.js'
import { requirePrivateKeys } from './shared/privateKeys.js'
import { assertTagName, requireTag } from './shared/tags.js'
import type { ActivityHandler } from './types.js'

/**
 * update_private_key_tag: renames the tag when `newPrivateKeyTagName` is given, puts it on
 * `addPrivateKeyIds` and takes it off `removePrivateKeyIds`; `{privateKeyTagId}`.
 *
 * @throws NOT_FOUND when parameters.privateKeyTagId names no private-key tag of the organization, or a listed id no private key
 * @throws ALREADY_EXISTS when another private-key tag has the new name
 */
export const handler: ActivityHandler<z.infer<typeof updatePrivateKeyTag.parameters>> = async (ctx, p) => {
  const tag = await requireTag(ctx.tx, ctx.organizationId, 'TAG_TYPE_PRIVATE_KEY', p.privateKeyTagId, 'parameters.privateKeyTagId')
  const add = await requirePrivateKeys(ctx.tx, ctx.organizationId, p.addPrivateKeyIds, 'parameters.addPrivateKeyIds')
  const remove = await requirePrivateKeys(ctx.tx, ctx.organizationId, p.removePrivateKeyIds, 'parameters.removePrivateKeyIds')
  if (p.newPrivateKeyTagName !== undefined) {
    const name = await assertTagName(
      ctx.tx,
      ctx.organizationId,
      'TAG_TYPE_PRIVATE_KEY',
      p.newPrivateKeyTagName,
      'parameters.newPrivateKeyTagName',
      tag.id,
    )
    if (name !== tag.name) await renameTag(ctx.tx, tag.id, name, ctx.now)
  }
  await tagPrivateKeys(ctx.tx, tag.id, add, ctx.now)
  await untagPrivateKeys(ctx.tx, ctx.organizationId, tag.id, remove, ctx.now)
  return { privateKeyTagId: tag.id }
}
