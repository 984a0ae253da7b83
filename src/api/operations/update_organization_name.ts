/** update_organization_name (service-interface.md Results "updateOrganizationNameResult"; hosted OpenAPI v1UpdateOrganizationNameIntent). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'

/** Renames the organization: ACTIVITY_TYPE_UPDATE_ORGANIZATION_NAME (root quorum only). */
export const updateOrganizationName = defineSubmit({
  name: 'update_organization_name',
  path: '/public/v1/submit/update_organization_name',
  type: 'ACTIVITY_TYPE_UPDATE_ORGANIZATION_NAME',
  intentKey: 'updateOrganizationNameIntent',
  resultKey: 'updateOrganizationNameResult',
  parameters: z.object({
    organizationName: z.string().min(1, { error: 'required' }).max(256, { error: 'at most 256 characters' }),
  }),
  result: z.object({ organizationId: z.string(), organizationName: z.string() }),
})
