import type { z } from 'zod'
import type { listSuborgs } from '../../api/operations/list_suborgs.js'
import type { QueryHandler } from './types.js'
import { listSubOrganizationIds } from '../store/organizations.js'

type Request = z.infer<typeof listSuborgs.request>

/**
 * list_suborgs: sub-organizations (any depth) of the organization, optionally filtered, oldest
 * first; `paginationOptions` as every list (`store/page.ts`: limit 1–100, default 10; `after`/`before`
 * are sub-organization ids).
 *
 * @throws INVALID_ARGUMENT when paginationOptions.after or paginationOptions.before names no entry of the list
 */
export const handler: QueryHandler<Request> = async ({ sql, organizationId }, req) => {
  const filter = req.filterType && req.filterValue !== undefined ? { type: req.filterType, value: req.filterValue } : undefined
  return { organizationIds: await listSubOrganizationIds(sql, organizationId, filter, req.paginationOptions) }
}
