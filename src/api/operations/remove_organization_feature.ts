/** remove_organization_feature (service-interface.md Results "removeOrganizationFeatureResult"). */
import { z } from 'zod'
import { Feature } from '../common.js'
import { FeatureName } from '../enums.js'
import { defineSubmit } from '../operation.js'

/** Removes one organization feature: ACTIVITY_TYPE_REMOVE_ORGANIZATION_FEATURE; returns the rest. */
export const removeOrganizationFeature = defineSubmit({
  name: 'remove_organization_feature',
  path: '/public/v1/submit/remove_organization_feature',
  type: 'ACTIVITY_TYPE_REMOVE_ORGANIZATION_FEATURE',
  intentKey: 'removeOrganizationFeatureIntent',
  resultKey: 'removeOrganizationFeatureResult',
  parameters: z.object({ name: FeatureName }),
  result: z.object({ features: z.array(Feature) }),
})
