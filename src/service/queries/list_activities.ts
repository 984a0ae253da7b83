import type { QueryHandler } from '../http/dispatch.js'
import { activityToWire, listActivities } from '../store/activities.js'

type Request = {
  filterByStatus?: string[]
  filterByType?: string[]
  paginationOptions?: { limit?: string; before?: string; after?: string }
}

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
