/** delete_velocity_control (hosted OpenAPI v1DeleteVelocityControlIntent / v1DeleteVelocityControlResult). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'

/** Deletes a velocity control and what it counted: ACTIVITY_TYPE_DELETE_VELOCITY_CONTROL. */
export const deleteVelocityControl = defineSubmit({
  name: 'delete_velocity_control',
  path: '/public/v1/submit/delete_velocity_control',
  type: 'ACTIVITY_TYPE_DELETE_VELOCITY_CONTROL',
  intentKey: 'deleteVelocityControlIntent',
  resultKey: 'deleteVelocityControlResult',
  parameters: z.object({
    velocityControlId: z.string({ error: 'required' }).min(1, { error: 'required' }).max(128, { error: 'at most 128 characters' }),
  }),
  result: z.object({ velocityControlId: z.string() }),
})
