/** get_organization_configs (service-interface.md "Query operations"). */
import { z } from 'zod'
import { OrganizationConfig, OrganizationScoped } from '../common.js'
import { defineQuery } from '../operation.js'

/** Reads the organization's features and root quorum. */
export const getOrganizationConfigs = defineQuery({
  name: 'get_organization_configs',
  path: '/public/v1/query/get_organization_configs',
  request: OrganizationScoped,
  response: z.object({ configs: OrganizationConfig }),
})
