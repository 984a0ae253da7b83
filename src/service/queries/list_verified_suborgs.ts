import type { z } from 'zod'
import { invalidField } from '../../api/errors.js'
import type { listVerifiedSuborgs } from '../../api/operations/list_verified_suborgs.js'
import type { QueryHandler } from './types.js'
import { listSubOrganizationIds } from '../store/organizations.js'

type Request = z.infer<typeof listVerifiedSuborgs.request>

/**
 * list_verified_suborgs: the sub-organizations (any depth) of the organization with a user whose
 * email (`filterType` EMAIL) or phone number (PHONE_NUMBER) is verified — proven with a
 * verification token, or set by the operator's own sign-up (migration 020) — and is
 * `filterValue` (email in any case, phone as E.164); without a filter, those with any verified
 * contact. Found from the users' contact indexes up the tree (`store/organizations.ts`), oldest
 * first, paginated as every list.
 *
 * @throws INVALID_ARGUMENT when only one of filterType and filterValue is given
 * @throws INVALID_ARGUMENT when paginationOptions.after or paginationOptions.before names no entry of the list
 */
export const handler: QueryHandler<Request> = async ({ sql, organizationId }, req) => {
  if (req.filterType !== undefined && (req.filterValue === undefined || req.filterValue === ''))
    throw invalidField('filterValue', `required with filterType ${req.filterType}`)
  if (req.filterType === undefined && req.filterValue !== undefined && req.filterValue !== '')
    throw invalidField('filterType', 'required with filterValue (EMAIL or PHONE_NUMBER)')
  const filter =
    req.filterType && req.filterValue ? { type: req.filterType, value: req.filterValue } : { type: 'VERIFIED_CONTACT' as const, value: '' }
  return { organizationIds: await listSubOrganizationIds(sql, organizationId, filter, req.paginationOptions) }
}
