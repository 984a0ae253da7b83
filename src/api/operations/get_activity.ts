/** get_activity (service-interface.md "Query operations"; wire-formats B5 polling). */
import { z } from 'zod'
import { Activity, OrganizationScoped } from '../common.js'
import { defineQuery } from '../operation.js'

/** Reads one activity by id. */
export const getActivity = defineQuery({
  name: 'get_activity',
  path: '/public/v1/query/get_activity',
  request: OrganizationScoped.extend({ activityId: z.string().min(1, { error: 'required' }) }),
  response: z.object({ activity: Activity }),
})
