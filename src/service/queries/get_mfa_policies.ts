import type { z } from 'zod'
import type { getMfaPolicies } from '../../api/operations/get_mfa_policies.js'
import { listMfaPolicies } from '../store/mfaPolicies.js'
import { mfaPolicyToWire } from './get_mfa_policy.js'
import type { QueryHandler } from './types.js'

/** get_mfa_policies: a user's MFA policies in evaluation order (none for an unknown user). */
export const handler: QueryHandler<z.output<typeof getMfaPolicies.request>> = async ({ sql, organizationId }, request) => {
  const rows = await listMfaPolicies(sql, organizationId, request.userId)
  return { mfaPolicies: rows.map(mfaPolicyToWire) }
}
