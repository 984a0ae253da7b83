/** get_api_key (hosted OpenAPI v1GetApiKeyRequest / v1GetApiKeyResponse). */
import { z } from 'zod'
import { ApiKey, OrganizationScoped } from '../common.js'
import { defineQuery } from '../operation.js'

/** Reads one API key of the organization. */
export const getApiKey = defineQuery({
  name: 'get_api_key',
  path: '/public/v1/query/get_api_key',
  request: OrganizationScoped.extend({ apiKeyId: z.string().min(1, { error: 'required' }) }),
  response: z.object({ apiKey: ApiKey }),
})
