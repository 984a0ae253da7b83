import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { deleteVelocityControl } from '../../api/operations/delete_velocity_control.js'
import { deleteVelocityControl as removeVelocityControl } from '../store/velocityControls.js'
import type { ActivityHandler } from './types.js'

/**
 * delete_velocity_control: removes the control and what it counted; activities it measured are no
 * longer limited by it (one waiting on its lock finds it gone and goes on).
 *
 * @throws NOT_FOUND when the organization has no control with parameters.velocityControlId
 */
export const handler: ActivityHandler<z.infer<typeof deleteVelocityControl.parameters>> = async (ctx, p) => {
  if (!(await removeVelocityControl(ctx.tx, ctx.organizationId, p.velocityControlId))) {
    throw fieldError('NOT_FOUND', 'parameters.velocityControlId', 'the organization has no velocity control with this id')
  }
  return { velocityControlId: p.velocityControlId }
}
