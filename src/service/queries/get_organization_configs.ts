import type { QueryHandler } from './types.js'
import { getQuorum, listFeatures } from '../store/organizations.js'

/** get_organization_configs: features and root quorum. */
export const handler: QueryHandler = async ({ sql, organizationId }) => ({
  configs: {
    features: await listFeatures(sql, organizationId),
    quorum: await getQuorum(sql, organizationId),
  },
})
