/** list_activities (service-interface.md "Query operations"). */
import { z } from 'zod'
import { Activity, OrganizationScoped, PaginationOptions } from '../common.js'
import { ActivityStatus, ActivityType } from '../enums.js'
import { boundedArray } from '../fields.js'
import { MAX_STATUS_FILTER, MAX_TYPE_FILTER } from '../limits.js'
import { defineQuery } from '../operation.js'

/** Lists activities, optionally filtered by status and type, paginated. */
export const listActivities = defineQuery({
  name: 'list_activities',
  path: '/public/v1/query/list_activities',
  request: OrganizationScoped.extend({
    filterByStatus: boundedArray(ActivityStatus, MAX_STATUS_FILTER).optional(),
    paginationOptions: PaginationOptions.optional(),
    filterByType: boundedArray(ActivityType, MAX_TYPE_FILTER).optional(),
  }),
  response: z.object({ activities: z.array(Activity) }),
})
