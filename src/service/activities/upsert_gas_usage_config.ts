import type { z } from 'zod'
import { invalidField } from '../../api/errors.js'
import type { upsertGasUsageConfig } from '../../api/operations/upsert_gas_usage_config.js'
import { upsertGasUsageConfig as storeConfig } from '../store/gasUsage.js'
import { parseUsd } from '../sponsorship/usd.js'
import type { ActivityHandler } from './types.js'

/**
 * upsert_gas_usage_config: sets the organization's gas sponsorship limits, as the billing
 * organization of its own sponsored sends (`orgWindowLimitUsd`: everything billed to it in the
 * window, its sub-organizations' sends included) and of each of its sub-organizations
 * (`subOrgWindowLimitUsd`), over a rolling window of `windowDurationMinutes`; `enabled` (default
 * true) false refuses sponsorship. A sub-organization's own config sets the limits of its
 * sub-organizations only: its own sends are governed by its parent's (sponsorship/limits.ts).
 * `{gasUsageConfigId}`, the same id across updates.
 *
 * @throws INVALID_ARGUMENT when parameters.orgWindowLimitUsd or parameters.subOrgWindowLimitUsd is not a non-negative USD amount, or parameters.windowDurationMinutes is not 1..43200
 */
export const handler: ActivityHandler<z.infer<typeof upsertGasUsageConfig.parameters>> = async (ctx, p) => {
  const orgLimit = parseUsd(p.orgWindowLimitUsd)
  if (orgLimit === undefined) throw invalidField('parameters.orgWindowLimitUsd', 'must be a non-negative decimal USD amount')
  const subOrgLimit = parseUsd(p.subOrgWindowLimitUsd)
  if (subOrgLimit === undefined) throw invalidField('parameters.subOrgWindowLimitUsd', 'must be a non-negative decimal USD amount')
  const windowMinutes = Number(p.windowDurationMinutes)
  if (!Number.isInteger(windowMinutes) || windowMinutes < 1 || windowMinutes > 43_200) {
    throw invalidField('parameters.windowDurationMinutes', 'must be whole minutes from 1 to 43200 (30 days)')
  }
  const gasUsageConfigId = await storeConfig(
    ctx.tx,
    ctx.organizationId,
    { orgLimitMicroUsd: orgLimit, subOrgLimitMicroUsd: subOrgLimit, windowMinutes, enabled: p.enabled ?? true },
    crypto.randomUUID(),
    ctx.now,
  )
  return { gasUsageConfigId }
}
