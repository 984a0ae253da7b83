/** list_app_proofs (hosted OpenAPI v1GetAppProofsRequest / v1GetAppProofsResponse). */
import { z } from 'zod'
import { AppProof, OrganizationScoped } from '../common.js'
import { defineQuery } from '../operation.js'

/** The app proofs of one activity (none unless it was submitted with `generateAppProofs`). */
export const listAppProofs = defineQuery({
  name: 'list_app_proofs',
  path: '/public/v1/query/list_app_proofs',
  request: OrganizationScoped.extend({ activityId: z.string().min(1, { error: 'required' }) }),
  response: z.object({ appProofs: z.array(AppProof) }),
})
