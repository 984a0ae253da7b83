/** list_velocity_controls (hosted OpenAPI v1ListVelocityControlsRequest / v1ListVelocityControlsResponse). */
import { z } from 'zod'
import { PageInfo, PaginationOptions } from '../common.js'
import { defineQuery } from '../operation.js'
import { VelocityControl } from './get_velocity_control.js'

/** The organization's velocity controls, oldest first, paginated (cursors are velocityControlIds). */
export const listVelocityControls = defineQuery({
  name: 'list_velocity_controls',
  path: '/public/v1/query/list_velocity_controls',
  request: z.object({
    organizationId: z.string().min(1, { error: 'required' }),
    paginationOptions: PaginationOptions.optional(),
  }),
  response: z.object({ velocityControls: z.array(VelocityControl), pageInfo: PageInfo }),
})
