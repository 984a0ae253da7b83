/** list_policies (hosted OpenAPI PublicApiService_GetPolicies, the official client's getPolicies). */
import { z } from 'zod'
import { OrganizationScoped, Policy } from '../common.js'
import { defineQuery } from '../operation.js'

/** Lists the organization's policies, oldest first (not paged, as hosted; at most MAX_POLICIES). */
export const listPolicies = defineQuery({
  name: 'list_policies',
  path: '/public/v1/query/list_policies',
  request: OrganizationScoped,
  response: z.object({ policies: z.array(Policy) }),
})
