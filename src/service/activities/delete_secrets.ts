import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { deleteSecrets } from '../../api/operations/delete_secrets.js'
import { deleteSecret } from '../store/orgSecrets.js'
import type { ActivityHandler } from './types.js'

/**
 * delete_secrets: deletes the secrets (their sealed values with them), all or none; every one must
 * belong to the organization.
 *
 * @throws NOT_FOUND when parameters.secretIds[i] names no secret of the organization
 */
export const handler: ActivityHandler<z.infer<typeof deleteSecrets.parameters>> = async (ctx, p) => {
  for (const [i, id] of p.secretIds.entries()) {
    if (!(await deleteSecret(ctx.tx, ctx.organizationId, id))) {
      throw fieldError('NOT_FOUND', `parameters.secretIds[${i}]`, 'the organization has no secret with this id')
    }
  }
  return { secretIds: p.secretIds }
}
