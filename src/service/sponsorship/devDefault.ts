/**
 * The development default of gas sponsorship: on a service with the dev faucet (`npm start`; off
 * in production), the root organization (the relay's parent, whose sub-organizations are the
 * extension's users) sponsors 100 USD per day in all and 5 USD per day per sub-organization, unless
 * it already has a config (an operator's is never replaced).
 */
import { insertGasUsageConfigIfAbsent } from '../store/gasUsage.js'
import type { Sql } from '../store/sql.js'

export const DEV_GAS_USAGE_CONFIG = {
  orgLimitMicroUsd: 100_000_000n,
  subOrgLimitMicroUsd: 5_000_000n,
  windowMinutes: 1440,
  enabled: true,
} as const

/** Inserts {@link DEV_GAS_USAGE_CONFIG} for `rootOrgId` when it has no config; true when inserted. */
export function ensureDevGasUsageConfig(sql: Sql, rootOrgId: string, now: number): Promise<boolean> {
  return insertGasUsageConfigIfAbsent(sql, rootOrgId, DEV_GAS_USAGE_CONFIG, crypto.randomUUID(), now)
}
