/** list_suborgs (Turnkey's getSubOrgIds; used by the relay's /v1/account). */
import { z } from 'zod'
import { PaginationOptions } from '../common.js'
import { defineQuery } from '../operation.js'

/** Filters a sub-organization can be found by: every `filterType` the hosted service lists. */
export const SubOrgFilterType = z.enum([
  'NAME',
  'USERNAME',
  'EMAIL',
  'PHONE_NUMBER',
  'CREDENTIAL_ID',
  'PUBLIC_KEY',
  'OIDC_TOKEN',
  'WALLET_ACCOUNT_ADDRESS',
])

/** Sub-organizations of the organization matching a filter → `{organizationIds}`. */
export const listSuborgs = defineQuery({
  name: 'list_suborgs',
  path: '/public/v1/query/list_suborgs',
  request: z.object({
    organizationId: z.string().min(1, { error: 'required' }),
    filterType: SubOrgFilterType.optional(),
    filterValue: z.string().optional(),
    paginationOptions: PaginationOptions.optional(),
  }),
  response: z.object({ organizationIds: z.array(z.string()) }),
})
