/** get_ip_allowlist (hosted OpenAPI v1GetIpAllowlistRequest / v1GetIpAllowlistResponse). */
import { z } from 'zod'
import { defineQuery } from '../operation.js'

/** One stored rule: the block, its label, when it was added (milliseconds as a string). */
export const IpAllowlistRule = z.object({ cidr: z.string(), label: z.string().optional(), createdAt: z.string().optional() })

/** The organization's IP allow-list, or (with `publicKey`) the list of that API key. */
export const getIpAllowlist = defineQuery({
  name: 'get_ip_allowlist',
  path: '/public/v1/query/get_ip_allowlist',
  request: z.object({
    organizationId: z.string().min(1, { error: 'required' }),
    publicKey: z.string().min(1, { error: 'must not be empty (leave it out for the organization list)' }).max(256).optional(),
  }),
  response: z.object({
    allowlist: z.object({
      organizationId: z.string(),
      rules: z.array(IpAllowlistRule),
      publicKey: z.string().optional(),
      enabled: z.boolean().optional(),
      onEvaluationError: z.string().optional(),
    }),
  }),
})
