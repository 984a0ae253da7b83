/** list_activities (service-interface.md "Query operations"). */
import { z } from 'zod'
import { Activity, OrganizationScoped, PaginationOptions } from '../common.js'
import { ActivityStatus, ActivityType } from '../enums.js'
import { defineQuery } from '../operation.js'

/** Lists activities, optionally filtered by status and type, paginated. */
export const listActivities = defineQuery({
  name: 'list_activities',
  path: '/public/v1/query/list_activities',
  request: OrganizationScoped.extend({
    filterByStatus: z.array(ActivityStatus).optional(),
    paginationOptions: PaginationOptions.optional(),
    filterByType: z.array(ActivityType).optional(),
  }),
  response: z.object({ activities: z.array(Activity) }),
})
