/** list_verified_suborgs (Turnkey's getVerifiedSubOrgIds): sub-organizations found by a verified contact. */
import { z } from 'zod'
import { PaginationOptions } from '../common.js'
import { defineQuery } from '../operation.js'

/** The contacts a verified sub-organization can be found by. */
export const VerifiedSubOrgFilterType = z.enum(['EMAIL', 'PHONE_NUMBER'])

/**
 * Sub-organizations (any depth) with a user whose email or phone number is verified, optionally
 * only those where it is `filterValue` → `{organizationIds}`.
 */
export const listVerifiedSuborgs = defineQuery({
  name: 'list_verified_suborgs',
  path: '/public/v1/query/list_verified_suborgs',
  request: z.object({
    organizationId: z.string().min(1, { error: 'required' }),
    filterType: VerifiedSubOrgFilterType.optional(),
    filterValue: z.string().max(320, { error: 'at most 320 characters' }).optional(),
    paginationOptions: PaginationOptions.optional(),
  }),
  response: z.object({ organizationIds: z.array(z.string()) }),
})
