import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { removeOrganizationFeature } from '../../api/operations/remove_organization_feature.js'
import { listFeatures, removeFeature } from '../store/organizations.js'
import type { ActivityHandler } from './types.js'

/**
 * remove_organization_feature: 404 when the feature is not set.
 *
 * @throws NOT_FOUND when the feature parameters.name is not set on the organization
 */
export const handler: ActivityHandler<z.infer<typeof removeOrganizationFeature.parameters>> = async (ctx, p) => {
  if (!(await removeFeature(ctx.tx, ctx.organizationId, p.name))) {
    throw fieldError('NOT_FOUND', 'parameters.name', `feature ${p.name} is not set`)
  }
  return { features: await listFeatures(ctx.tx, ctx.organizationId) }
}
