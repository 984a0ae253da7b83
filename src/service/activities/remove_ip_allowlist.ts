import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { removeIpAllowlist } from '../../api/operations/remove_ip_allowlist.js'
import { deleteIpAllowlist } from '../store/ipAllowlists.js'
import type { ActivityHandler } from './types.js'

/**
 * remove_ip_allowlist: removes the organization's IP allow-list (nothing is enforced afterwards, API
 * keys' lists included) or one API key's (`publicKey`: the key is held to the organization's list again).
 *
 * @throws NOT_FOUND when the organization (or that API key) has no IP allow-list
 */
export const handler: ActivityHandler<z.infer<typeof removeIpAllowlist.parameters>> = async (ctx, p) => {
  const publicKey = p.publicKey?.toLowerCase() ?? ''
  if (!(await deleteIpAllowlist(ctx.tx, ctx.organizationId, publicKey))) {
    throw fieldError(
      'NOT_FOUND',
      publicKey === '' ? 'organizationId' : 'parameters.publicKey',
      publicKey === '' ? 'the organization has no IP allow-list' : 'this API key has no IP allow-list',
    )
  }
  return {}
}
