import type { z } from 'zod'
import { invalidField } from '../../api/errors.js'
import type { deletePrivateKeyTags } from '../../api/operations/delete_private_key_tags.js'
import { untagPrivateKeys } from '../store/privateKeys.js'
import { deleteTag } from '../store/tags.js'
import { requireTag } from './shared/tags.js'
import type { ActivityHandler } from './types.js'

/**
 * delete_private_key_tags: deletes the tags and takes them off every key; `{privateKeyTagIds,
 * privateKeyIds}` with the keys that carried one of them.
 *
 * @throws INVALID_ARGUMENT when parameters.privateKeyTagIds is empty
 * @throws NOT_FOUND when an id of parameters.privateKeyTagIds names no private-key tag of the organization
 */
export const handler: ActivityHandler<z.infer<typeof deletePrivateKeyTags.parameters>> = async (ctx, p) => {
  if (p.privateKeyTagIds.length === 0) throw invalidField('parameters.privateKeyTagIds', 'at least one private key tag id is required')
  const ids = new Set<string>()
  for (const [i, id] of p.privateKeyTagIds.entries()) {
    ids.add((await requireTag(ctx.tx, ctx.organizationId, 'TAG_TYPE_PRIVATE_KEY', id, `parameters.privateKeyTagIds[${i}]`)).id)
  }
  const keys = new Set<string>()
  for (const id of ids) {
    for (const k of await untagPrivateKeys(ctx.tx, ctx.organizationId, id, 'all', ctx.now)) keys.add(k)
    await deleteTag(ctx.tx, id)
  }
  return { privateKeyTagIds: [...ids], privateKeyIds: [...keys] }
}
