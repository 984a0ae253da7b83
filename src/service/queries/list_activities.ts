import type { z } from 'zod'
import type { listActivities as listActivitiesQuery } from '../../api/operations/list_activities.js'
import type { QueryHandler } from './types.js'
import { activityToWire, listActivities } from '../store/activities.js'

type Request = z.infer<typeof listActivitiesQuery.request>

/**
 * list_activities: newest first, filters; `paginationOptions` as every list (`store/page.ts`:
 * limit 1–100, default 10; `after`/`before` are activity ids, older / newer ones).
 *
 * @throws INVALID_ARGUMENT when paginationOptions.after or paginationOptions.before names no entry of the list
 */
export const handler: QueryHandler<Request> = async ({ sql, organizationId, principal }, req) => {
  const rows = await listActivities(sql, {
    organizationId,
    statuses: req.filterByStatus,
    types: req.filterByType,
    page: req.paginationOptions,
  })
  const activities = []
  for (const a of rows) activities.push(await activityToWire(sql, a, principal.userId, 'query'))
  return { activities }
}
