import { requirePrivateKey } from '../activities/shared/privateKeys.js'
import { privateKeyToWire } from '../store/privateKeys.js'
import type { QueryHandler } from './types.js'

/**
 * get_private_key: `{organizationId, privateKeyId}` → `{privateKey}` (never its secret).
 *
 * @throws NOT_FOUND when privateKeyId names no private key of the organization
 */
export const handler: QueryHandler<{ privateKeyId: string }> = async ({ sql, organizationId }, req) => ({
  privateKey: privateKeyToWire(await requirePrivateKey(sql, organizationId, req.privateKeyId, 'privateKeyId')),
})
