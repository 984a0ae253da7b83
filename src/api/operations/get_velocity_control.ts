/** get_velocity_control (hosted OpenAPI v1GetVelocityControlRequest / v1GetVelocityControlResponse). */
import { z } from 'zod'
import { Timestamp } from '../common.js'
import { defineQuery } from '../operation.js'
import { VelocityControlAggregation, VelocityControlDataSource } from './create_velocity_control.js'

/** A stored velocity control (hosted v1VelocityControl). */
export const VelocityControl = z.object({
  velocityControlId: z.string(),
  organizationId: z.string(),
  name: z.string(),
  dataSource: VelocityControlDataSource,
  aggregation: VelocityControlAggregation,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  identifier: z.string(),
})

/** One velocity control of the organization. */
export const getVelocityControl = defineQuery({
  name: 'get_velocity_control',
  path: '/public/v1/query/get_velocity_control',
  request: z.object({
    organizationId: z.string().min(1, { error: 'required' }),
    velocityControlId: z.string({ error: 'required' }).min(1, { error: 'required' }).max(128, { error: 'at most 128 characters' }),
  }),
  response: z.object({ velocityControl: VelocityControl }),
})
