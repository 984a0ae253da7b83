import type { z } from 'zod'
import { fieldError, invalidField } from '../../api/errors.js'
import type { deletePrivateKeys } from '../../api/operations/delete_private_keys.js'
import { deletePrivateKey } from '../store/privateKeys.js'
import { requirePrivateKey } from './shared/privateKeys.js'
import type { ActivityHandler } from './types.js'

/**
 * delete_private_keys: as delete_wallets, a key never exported is kept unless `deleteWithoutExport`
 * is true (it would be lost for good). All or none.
 *
 * @throws INVALID_ARGUMENT when parameters.privateKeyIds is empty
 * @throws NOT_FOUND when an id of parameters.privateKeyIds names no private key of the organization
 * @throws FAILED_PRECONDITION when a key has never been exported and parameters.deleteWithoutExport is not true
 */
export const handler: ActivityHandler<z.infer<typeof deletePrivateKeys.parameters>> = async (ctx, p) => {
  if (p.privateKeyIds.length === 0) throw invalidField('parameters.privateKeyIds', 'at least one private key id is required')
  const ids = new Set<string>()
  for (const [i, id] of p.privateKeyIds.entries()) {
    const key = await requirePrivateKey(ctx.tx, ctx.organizationId, id, `parameters.privateKeyIds[${i}]`)
    if (!key.exported && p.deleteWithoutExport !== true) {
      const description = `private key ${key.id} has not been exported; set deleteWithoutExport to delete it anyway`
      throw fieldError('FAILED_PRECONDITION', 'parameters.deleteWithoutExport', description)
    }
    ids.add(key.id)
  }
  for (const id of ids) await deletePrivateKey(ctx.tx, id)
  return { privateKeyIds: [...ids] }
}
