import type { z } from 'zod'
import type { listSuborgs } from '../../api/operations/list_suborgs.js'
import type { QueryHandler } from './types.js'
import { listSubOrganizationIds } from '../store/organizations.js'

type Request = z.infer<typeof listSuborgs.request>

/**
 * list_suborgs: sub-organizations (any depth) of the organization, optionally filtered, oldest
 * first; `paginationOptions` as every list (`store/page.ts`: limit 1–100, default 10; `after`/`before`
 * are sub-organization ids).
 *
 * `OIDC_TOKEN`: the value is an ID token, verified as logins verify it (without the nonce); the
 * sub-organizations with a user holding its identity.
 *
 * `WALLET_ACCOUNT_ADDRESS`: the sub-organizations with a wallet account or a private key of that
 * address; a hex (EVM) address matches in any case (checksummed or not), any other format (Solana
 * base58) exactly.
 *
 * @throws TOKEN_INVALID when filterType is OIDC_TOKEN and filterValue is not a valid ID token of a trusted issuer
 * @throws UNAVAILABLE when filterType is OIDC_TOKEN and the issuer's signing keys cannot be fetched
 * @throws INVALID_ARGUMENT when paginationOptions.after or paginationOptions.before names no entry of the list
 */
export const handler: QueryHandler<Request> = async ({ sql, rt, organizationId }, req) => {
  let filter = req.filterType && req.filterValue !== undefined ? { type: req.filterType, value: req.filterValue } : undefined
  if (filter?.type === 'OIDC_TOKEN') {
    // By the identity of a verified ID token (any nonce): its issuer, audience and subject.
    const t = await rt.oidc.verify(filter.value, { field: 'filterValue' })
    filter = { type: 'OIDC_TOKEN', value: JSON.stringify({ iss: t.iss, aud: t.aud, sub: t.sub }) }
  }
  return { organizationIds: await listSubOrganizationIds(sql, organizationId, filter, req.paginationOptions) }
}
