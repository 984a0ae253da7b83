/** upsert_gas_usage_config (hosted OpenAPI v1UpsertGasUsageConfigIntent / v1UpsertGasUsageConfigResult). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'

/** A non-negative decimal USD amount: at most 12 integer digits and 6 fraction digits (`"100"`, `"2.5"`). */
export const USD_AMOUNT = /^(0|[1-9][0-9]{0,11})(\.[0-9]{1,6})?$/

/** The longest rolling window the hosted service accepts: 30 days. */
export const MAX_WINDOW_MINUTES = 43_200

const UsdAmount = z
  .string()
  .regex(USD_AMOUNT, { error: 'must be a non-negative decimal USD amount with at most 6 decimals, e.g. "100" or "2.5"' })

/**
 * Sets the organization's gas sponsorship limits: ACTIVITY_TYPE_UPSERT_GAS_USAGE_CONFIG. The
 * organization is the billing organization of its own sponsored sends and of its sub-organizations'
 * (src/service/sponsorship/limits.ts).
 */
export const upsertGasUsageConfig = defineSubmit({
  name: 'upsert_gas_usage_config',
  path: '/public/v1/submit/upsert_gas_usage_config',
  type: 'ACTIVITY_TYPE_UPSERT_GAS_USAGE_CONFIG',
  intentKey: 'upsertGasUsageConfigIntent',
  resultKey: 'upsertGasUsageConfigResult',
  parameters: z.object({
    orgWindowLimitUsd: UsdAmount,
    subOrgWindowLimitUsd: UsdAmount,
    windowDurationMinutes: z
      .string()
      .regex(/^[0-9]{1,6}$/, { error: `must be whole minutes from 1 to ${MAX_WINDOW_MINUTES} (30 days), as a decimal string` })
      .refine((m) => Number(m) >= 1 && Number(m) <= MAX_WINDOW_MINUTES, {
        error: `must be whole minutes from 1 to ${MAX_WINDOW_MINUTES} (30 days)`,
      }),
    enabled: z.boolean().optional(),
  }),
  result: z.object({ gasUsageConfigId: z.string() }),
})
