/** remove_ip_allowlist (hosted OpenAPI v1RemoveIpAllowlistIntent / v1RemoveIpAllowlistResult). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'

/**
 * Removes an IP allow-list: ACTIVITY_TYPE_REMOVE_IP_ALLOWLIST. Without `publicKey` the organization's
 * list (nothing is enforced after it); with it, that API key's list (the key falls back to the
 * organization's list).
 */
export const removeIpAllowlist = defineSubmit({
  name: 'remove_ip_allowlist',
  path: '/public/v1/submit/remove_ip_allowlist',
  type: 'ACTIVITY_TYPE_REMOVE_IP_ALLOWLIST',
  intentKey: 'removeIpAllowlistIntent',
  resultKey: 'removeIpAllowlistResult',
  parameters: z.object({
    publicKey: z.string().min(1, { error: 'must not be empty (leave it out for the organization list)' }).max(256).optional(),
  }),
  result: z.object({}),
})
