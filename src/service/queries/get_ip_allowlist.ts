import type { z } from 'zod'
import type { getIpAllowlist } from '../../api/operations/get_ip_allowlist.js'
import { getIpAllowlist as readIpAllowlist } from '../store/ipAllowlists.js'
import type { QueryHandler } from './types.js'

/**
 * get_ip_allowlist: the organization's IP allow-list, or with `publicKey` that API key's. An
 * organization without one answers an empty, disabled list (`onEvaluationError` `DENY`, the default);
 * a key without one an empty list (the organization's list applies to it).
 */
export const handler: QueryHandler<z.output<typeof getIpAllowlist.request>> = async ({ sql, organizationId }, request) => {
  const publicKey = request.publicKey?.toLowerCase()
  const row = await readIpAllowlist(sql, organizationId, publicKey)
  const rules = (row?.rules ?? []).map((r) => ({ cidr: r.cidr, ...(r.label ? { label: r.label } : {}), createdAt: String(r.createdAt) }))
  if (publicKey) return { allowlist: { organizationId, rules, publicKey } }
  return {
    allowlist: { organizationId, rules, enabled: row?.enabled ?? false, onEvaluationError: row?.on_evaluation_error ?? 'DENY' },
  }
}
