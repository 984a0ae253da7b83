/** get_gas_usage (hosted OpenAPI v1GetGasUsageRequest / v1GetGasUsageResponse). */
import { z } from 'zod'
import { OrganizationScoped } from '../common.js'
import { defineQuery } from '../operation.js'

/** The gas sponsorship limit that applies to the organization, and its usage in the current rolling window (USD decimal strings). */
export const getGasUsage = defineQuery({
  name: 'get_gas_usage',
  path: '/public/v1/query/get_gas_usage',
  request: OrganizationScoped,
  response: z.object({ windowDurationMinutes: z.number().int(), windowLimitUsd: z.string(), usageUsd: z.string() }),
})
