/** set_ip_allowlist (hosted OpenAPI v1SetIpAllowlistIntent / v1SetIpAllowlistResult; docs "IP Allowlist"). */
import { z } from 'zod'
import { boundedArray } from '../fields.js'
import { MAX_IP_ALLOWLIST_LABEL, MAX_IP_ALLOWLIST_RULES } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** What happens when the client address cannot be told: `ALLOW` (fail open) or `DENY` (fail closed). */
export const OnEvaluationError = z.enum(['ALLOW', 'DENY'], { error: 'must be ALLOW or DENY' })

/** One rule as submitted: a CIDR block (checked by the service's parser) and an optional label. */
export const IpAllowlistIntentRule = z.object({
  cidr: z.string({ error: 'required' }).min(1, { error: 'required' }).max(64, { error: 'must be a CIDR block such as 203.0.113.0/24' }),
  label: z
    .string()
    .max(MAX_IP_ALLOWLIST_LABEL, { error: `at most ${MAX_IP_ALLOWLIST_LABEL} characters` })
    .optional(),
})

/**
 * Creates or updates an IP allow-list: ACTIVITY_TYPE_SET_IP_ALLOWLIST. Without `publicKey` the
 * organization's own list (which must be `enabled` for any list to be enforced); with it, the list of
 * that API key of the organization, which replaces the organization's list for that key. Fields left
 * out keep their stored values; `rules` replaces every rule.
 */
export const setIpAllowlist = defineSubmit({
  name: 'set_ip_allowlist',
  path: '/public/v1/submit/set_ip_allowlist',
  type: 'ACTIVITY_TYPE_SET_IP_ALLOWLIST',
  intentKey: 'setIpAllowlistIntent',
  resultKey: 'setIpAllowlistResult',
  parameters: z.object({
    publicKey: z.string().min(1, { error: 'must not be empty (leave it out for the organization list)' }).max(256).optional(),
    enabled: z.boolean().optional(),
    rules: boundedArray(IpAllowlistIntentRule, MAX_IP_ALLOWLIST_RULES).optional(),
    onEvaluationError: OnEvaluationError.optional(),
  }),
  result: z.object({}),
})
