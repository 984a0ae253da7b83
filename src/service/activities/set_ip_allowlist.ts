import type { z } from 'zod'
import { fieldError, invalidField } from '../../api/errors.js'
import type { setIpAllowlist } from '../../api/operations/set_ip_allowlist.js'
import { parseCidr } from '../net/cidr.js'
import { type IpAllowlistRuleRow, getIpAllowlist, organizationHasApiKey, putIpAllowlist } from '../store/ipAllowlists.js'
import { getOrganization } from '../store/organizations.js'
import type { ActivityHandler } from './types.js'

/** Why a sub-organization cannot have a list (docs "IP Allowlist": parent organizations only). */
export const SUB_ORGANIZATION_ALLOWLIST = 'IP allow-lists belong to a parent organization; a sub-organization cannot have one'

/**
 * set_ip_allowlist: creates or updates the organization's IP allow-list, or one API key's
 * (`publicKey`); enforced on every request (src/service/http/ipAllowlist.ts). Fields left out keep
 * their stored values (a new organization list starts disabled, `onEvaluationError` `DENY`); `rules`
 * replaces the rules, a block kept keeps its `createdAt`. Blocks are stored normalised (`10.0.0.0/8`).
 * A change that would refuse the request making it is refused before it gets here (dispatch).
 *
 * @throws FAILED_PRECONDITION when the organization is a sub-organization
 * @throws NOT_FOUND when parameters.publicKey is not an API key of the organization
 * @throws INVALID_ARGUMENT when parameters.enabled is given for an API key's list, or a rule's cidr is not a CIDR block or repeats one
 */
export const handler: ActivityHandler<z.infer<typeof setIpAllowlist.parameters>> = async (ctx, p) => {
  const org = await getOrganization(ctx.tx, ctx.organizationId)
  if (org?.parent_id) throw fieldError('FAILED_PRECONDITION', 'organizationId', SUB_ORGANIZATION_ALLOWLIST)
  const publicKey = p.publicKey?.toLowerCase() ?? ''
  if (publicKey !== '') {
    if (p.enabled !== undefined) {
      throw invalidField('parameters.enabled', "applies to the organization's list only: leave it out for an API key's list")
    }
    if (!(await organizationHasApiKey(ctx.tx, ctx.organizationId, publicKey))) {
      throw fieldError('NOT_FOUND', 'parameters.publicKey', 'is not an API key of this organization')
    }
  }
  const before = await getIpAllowlist(ctx.tx, ctx.organizationId, publicKey)
  let rules: IpAllowlistRuleRow[] = before?.rules ?? []
  if (p.rules) {
    const kept = new Map(rules.map((r) => [r.cidr, r.createdAt]))
    const seen = new Set<string>()
    rules = p.rules.map((r, i) => {
      const parsed = parseCidr(r.cidr)
      if (!parsed.ok) throw invalidField(`parameters.rules[${i}].cidr`, parsed.reason)
      const cidr = parsed.cidr.text
      if (seen.has(cidr)) throw invalidField(`parameters.rules[${i}].cidr`, `repeats the block ${cidr}`)
      seen.add(cidr)
      return { cidr, ...(r.label ? { label: r.label } : {}), createdAt: Number(kept.get(cidr) ?? ctx.now) }
    })
  }
  await putIpAllowlist(ctx.tx, {
    organizationId: ctx.organizationId,
    publicKey,
    enabled: publicKey === '' ? (p.enabled ?? before?.enabled ?? false) : null,
    onEvaluationError: p.onEvaluationError ?? before?.on_evaluation_error ?? 'DENY',
    rules,
    now: ctx.now,
  })
  return {}
}
