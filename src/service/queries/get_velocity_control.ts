import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { getVelocityControl, VelocityControl } from '../../api/operations/get_velocity_control.js'
import { getVelocityControl as readVelocityControl, type VelocityControlRow } from '../store/velocityControls.js'
import { toTimestamp } from '../store/time.js'
import type { QueryHandler } from './types.js'

/** A stored control as the hosted v1VelocityControl. */
export function velocityControlToWire(r: VelocityControlRow): z.input<typeof VelocityControl> {
  return {
    velocityControlId: r.id,
    organizationId: r.organization_id,
    name: r.name,
    dataSource: r.data_source as z.input<typeof VelocityControl>['dataSource'],
    aggregation: r.aggregation as z.input<typeof VelocityControl>['aggregation'],
    createdAt: toTimestamp(Number(r.created_at)),
    updatedAt: toTimestamp(Number(r.updated_at)),
    identifier: r.identifier,
  }
}

/**
 * get_velocity_control: one of the organization's velocity controls.
 *
 * @throws NOT_FOUND when the organization has no control with velocityControlId
 */
export const handler: QueryHandler<z.output<typeof getVelocityControl.request>> = async ({ sql, organizationId }, request) => {
  const row = await readVelocityControl(sql, organizationId, request.velocityControlId)
  if (!row) throw fieldError('NOT_FOUND', 'velocityControlId', 'the organization has no velocity control with this id')
  return { velocityControl: velocityControlToWire(row) }
}
