import type { z } from 'zod'
import { withP256 } from '../../api/common.js'
import type { createApiKeys, createApiKeysV1 } from '../../api/operations/create_api_keys.js'
import { registerApiKey } from './shared/credentials.js'
import { requireUser } from './shared/lookup.js'
import type { ActivityHandler } from './types.js'

/**
 * create_api_keys V2.
 *
 * @throws NOT_FOUND when parameters.userId names no user of the organization
 * @throws INVALID_ARGUMENT when an API key's publicKey is not a valid key of its curveType, its apiKeyName is empty or its expirationSeconds is too large
 */
export const handler: ActivityHandler<z.infer<typeof createApiKeys.parameters>> = async (ctx, p) => {
  await requireUser(ctx.tx, ctx.organizationId, p.userId, 'parameters.userId')
  const apiKeyIds: string[] = []
  for (const [i, k] of p.apiKeys.entries()) {
    apiKeyIds.push(await registerApiKey(ctx, ctx.organizationId, p.userId, k, `parameters.apiKeys[${i}]`))
  }
  return { apiKeyIds }
}

/** create_api_keys V1: keys without `curveType` are P-256. */
export const handlerV1: ActivityHandler<z.infer<typeof createApiKeysV1.parameters>> = (ctx, p) =>
  handler(ctx, { userId: p.userId, apiKeys: p.apiKeys.map(withP256) })
