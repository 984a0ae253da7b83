import type { z } from 'zod'
import type { listSuborgs } from '../../api/operations/list_suborgs.js'
import type { QueryHandler } from './types.js'

type Request = z.output<typeof listSuborgs.request>

/** The user/credential column each filter compares (values compared case-insensitively for emails). */
const FILTERS: Record<string, string> = {
  NAME: 'lower(o.name) = lower($2)',
  USERNAME: 'EXISTS (SELECT 1 FROM users u WHERE u.organization_id = o.id AND u.user_name = $2)',
  EMAIL: 'EXISTS (SELECT 1 FROM users u WHERE u.organization_id = o.id AND lower(u.user_email) = lower($2))',
  PHONE_NUMBER: 'EXISTS (SELECT 1 FROM users u WHERE u.organization_id = o.id AND u.user_phone_number = $2)',
  CREDENTIAL_ID: 'EXISTS (SELECT 1 FROM authenticators a WHERE a.organization_id = o.id AND a.credential_id = $2)',
  PUBLIC_KEY: 'EXISTS (SELECT 1 FROM api_keys k WHERE k.organization_id = o.id AND k.public_key = lower($2))',
}

/** list_suborgs: sub-organizations (any depth) of the organization, optionally filtered, oldest first. */
export const handler: QueryHandler<Request> = async ({ sql, organizationId }, req) => {
  const filter = req.filterType && req.filterValue !== undefined ? FILTERS[req.filterType] : undefined
  const limit = Math.min(Math.max(Number(req.paginationOptions?.limit ?? 100) || 100, 1), 1000)
  const rows = await sql.query<{ id: string }>(
    `WITH RECURSIVE down(id) AS (
       SELECT id FROM organizations WHERE parent_id = $1
       UNION ALL
       SELECT o.id FROM organizations o JOIN down ON o.parent_id = down.id
     )
     SELECT o.id FROM organizations o JOIN down ON o.id = down.id
      WHERE ${filter ?? 'true'}
      ORDER BY o.created_at, o.id LIMIT ${limit}`,
    filter ? [organizationId, req.filterValue] : [organizationId],
  )
  return { organizationIds: rows.map((r) => r.id) }
}
