import type { z } from 'zod'
import type { listVelocityControls } from '../../api/operations/list_velocity_controls.js'
import { listVelocityControls as readPage } from '../store/velocityControls.js'
import { velocityControlToWire } from './get_velocity_control.js'
import type { QueryHandler } from './types.js'

/**
 * list_velocity_controls: the organization's velocity controls, oldest first, paginated (cursors
 * are velocityControlIds; `pageInfo` names the page's ends).
 *
 * @throws INVALID_ARGUMENT when paginationOptions.after or paginationOptions.before names no control of the organization
 */
export const handler: QueryHandler<z.output<typeof listVelocityControls.request>> = async ({ sql, organizationId }, req) => {
  const rows = await readPage(sql, organizationId, req.paginationOptions)
  const first = rows[0]
  const last = rows[rows.length - 1]
  return {
    velocityControls: rows.map(velocityControlToWire),
    pageInfo: { ...(first ? { startCursor: first.id } : {}), ...(last ? { endCursor: last.id } : {}) },
  }
}
