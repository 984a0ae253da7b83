import { fieldError } from '../../api/errors.js'
import { getOrgApiKey } from '../store/credentials.js'
import { apiKeyToWire } from '../store/users.js'
import type { QueryHandler } from './types.js'

/**
 * get_api_key: `{organizationId, apiKeyId}` → `{apiKey}`.
 *
 * @throws NOT_FOUND when apiKeyId names no API key of the organization (another organization's key reads the same)
 */
export const handler: QueryHandler<{ apiKeyId: string }> = async ({ sql, organizationId }, req) => {
  const key = await getOrgApiKey(sql, organizationId, req.apiKeyId)
  if (!key) throw fieldError('NOT_FOUND', 'apiKeyId', `API key ${req.apiKeyId} not found in the organization`)
  return { apiKey: apiKeyToWire(key) }
}
