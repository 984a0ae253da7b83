import { requireNetwork, supportedAssets } from '../chains/assets.js'
import type { QueryHandler } from './types.js'

/**
 * list_supported_assets: `{organizationId, caip2}` → `{assets}` of a configured network (400 naming
 * `caip2` otherwise): its native asset, then the ERC-20 tokens `SIGIL_TOKENS` configures for it.
 *
 * @throws INVALID_ARGUMENT when caip2 is not a configured network
 */
export const handler: QueryHandler<{ caip2: string }> = async ({ rt }, req) => ({
  assets: supportedAssets(requireNetwork(rt.config.networks, req.caip2, 'caip2')),
})
