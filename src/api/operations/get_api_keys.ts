/** get_api_keys (hosted OpenAPI v1GetApiKeysRequest / v1GetApiKeysResponse). */
import { z } from 'zod'
import { ApiKey, OrganizationScoped } from '../common.js'
import { defineQuery } from '../operation.js'

/** Lists the API keys of one user, or of the whole organization without `userId`. */
export const getApiKeys = defineQuery({
  name: 'get_api_keys',
  path: '/public/v1/query/get_api_keys',
  request: OrganizationScoped.extend({ userId: z.string().min(1, { error: 'must not be empty' }).optional() }),
  response: z.object({ apiKeys: z.array(ApiKey) }),
})
