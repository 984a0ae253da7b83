/** list_supported_assets (hosted OpenAPI v1ListSupportedAssetsRequest/Response). */
import { z } from 'zod'
import { OrganizationScoped } from '../common.js'
import { defineQuery } from '../operation.js'

/** An asset a network carries. */
export const AssetMetadata = z.object({
  caip19: z.string().optional(),
  symbol: z.string().optional(),
  decimals: z.number().int().optional(),
  logoUrl: z.string().optional(),
  name: z.string().optional(),
  stable: z.boolean().optional(),
})
export type AssetMetadata = z.infer<typeof AssetMetadata>

/** The assets Sigil knows on one network (CAIP-2). */
export const listSupportedAssets = defineQuery({
  name: 'list_supported_assets',
  path: '/public/v1/query/list_supported_assets',
  request: OrganizationScoped.extend({ caip2: z.string().min(1, { error: 'required' }).max(64) }),
  response: z.object({ assets: z.array(AssetMetadata) }),
})
