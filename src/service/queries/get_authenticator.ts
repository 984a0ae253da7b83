import { fieldError } from '../../api/errors.js'
import { getOrgAuthenticator } from '../store/credentials.js'
import { authenticatorToWire } from '../store/users.js'
import type { QueryHandler } from './types.js'

/**
 * get_authenticator: `{organizationId, authenticatorId}` → `{authenticator}`.
 *
 * @throws NOT_FOUND when authenticatorId names no passkey of the organization (another organization's reads the same)
 */
export const handler: QueryHandler<{ authenticatorId: string }> = async ({ sql, organizationId }, req) => {
  const a = await getOrgAuthenticator(sql, organizationId, req.authenticatorId)
  if (!a) throw fieldError('NOT_FOUND', 'authenticatorId', `authenticator ${req.authenticatorId} not found in the organization`)
  return { authenticator: authenticatorToWire(a) }
}
