import type { z } from 'zod'
import type { listActivities as listActivitiesOp } from '../../api/operations/list_activities.js'
import type { QueryHandler } from './types.js'
import { activityToWire, listActivities } from '../store/activities.js'

type Request = z.output<typeof listActivitiesOp.request>

/** list_activities: newest first, filters, `before`/`after` by activity id, limit 1–100 (default 10). */
export const handler: QueryHandler<Request> = async ({ sql, organizationId, principal }, req) => {
  const rows = await listActivities(sql, {
    organizationId,
    statuses: req.filterByStatus,
    types: req.filterByType,
    limit: Number(req.paginationOptions?.limit ?? 10),
    before: req.paginationOptions?.before,
    after: req.paginationOptions?.after,
  })
  const activities = []
  for (const a of rows) activities.push(await activityToWire(sql, a, principal.userId, 'query'))
  return { activities }
}
