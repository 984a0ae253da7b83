import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { getGasUsage } from '../../api/operations/get_gas_usage.js'
import { SPONSORSHIP_NOT_ENABLED, gasUsageOf } from '../sponsorship/limits.js'
import { formatUsd } from '../sponsorship/usd.js'
import type { QueryHandler } from './types.js'

/**
 * get_gas_usage: the gas sponsorship limit that governs the organization's sponsored sends and its
 * usage in the current rolling window (fees settled in it plus estimates of sends in flight). For a
 * sub-organization: its parent's `subOrgWindowLimitUsd` and its own sends; for an organization
 * without a parent: its `orgWindowLimitUsd` and everything billed to it (sponsorship/limits.ts).
 *
 * @throws FAILED_PRECONDITION when no gas usage config governs the organization
 */
export const handler: QueryHandler<z.output<typeof getGasUsage.request>> = async ({ sql, rt, organizationId }) => {
  const usage = await gasUsageOf(sql, organizationId, rt.now())
  if (!usage) throw fieldError('FAILED_PRECONDITION', 'organizationId', SPONSORSHIP_NOT_ENABLED)
  return {
    windowDurationMinutes: usage.config.window_minutes,
    windowLimitUsd: formatUsd(usage.windowLimitMicroUsd),
    usageUsd: formatUsd(usage.usageMicroUsd),
  }
}
