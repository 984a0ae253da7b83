/** set_organization_feature (service-interface.md Results "setOrganizationFeatureResult"). */
import { z } from 'zod'
import { Feature } from '../common.js'
import { FeatureName } from '../enums.js'
import { defineSubmit } from '../operation.js'

/** Sets one organization feature: ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE; returns all features. */
export const setOrganizationFeature = defineSubmit({
  name: 'set_organization_feature',
  path: '/public/v1/submit/set_organization_feature',
  type: 'ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE',
  intentKey: 'setOrganizationFeatureIntent',
  resultKey: 'setOrganizationFeatureResult',
  parameters: z.object({ name: FeatureName, value: z.string().optional() }),
  result: z.object({ features: z.array(Feature) }),
})
