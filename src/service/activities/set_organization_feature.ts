import type { z } from 'zod'
import type { setOrganizationFeature } from '../../api/operations/set_organization_feature.js'
import { setFeatureAndList } from '../store/organizations.js'
import type { ActivityHandler } from './types.js'

/** set_organization_feature: returns every feature after the change. */
export const handler: ActivityHandler<z.infer<typeof setOrganizationFeature.parameters>> = async (ctx, p) => {
  return { features: await setFeatureAndList(ctx.tx, ctx.organizationId, p.name, p.value ?? '') }
}
