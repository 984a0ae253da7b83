/** delete_sub_organization (service-interface.md Results "deleteSubOrganizationResult"; hosted OpenAPI v1DeleteSubOrganizationIntent). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'

/** Deletes the sub-organization the request names: ACTIVITY_TYPE_DELETE_SUB_ORGANIZATION. */
export const deleteSubOrganization = defineSubmit({
  name: 'delete_sub_organization',
  path: '/public/v1/submit/delete_sub_organization',
  type: 'ACTIVITY_TYPE_DELETE_SUB_ORGANIZATION',
  intentKey: 'deleteSubOrganizationIntent',
  resultKey: 'deleteSubOrganizationResult',
  parameters: z.object({ deleteWithoutExport: z.boolean().optional() }),
  result: z.object({ subOrganizationUuid: z.string() }),
})
