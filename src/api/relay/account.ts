/**
 * The relay's `/v1/account` (wire-formats B6 "Auth proxy"): the account a proven contact, an
 * OIDC ID token or a public key opens. Email and phone lookups need a verification token (no
 * account enumeration).
 */
import { z } from 'zod'

/** `/v1/account` request. */
export const AccountRequest = z.object({
  filterType: z.enum(['EMAIL', 'PHONE_NUMBER', 'OIDC_TOKEN', 'OIDC_CLAIMS', 'PUBLIC_KEY']),
  filterValue: z.string(),
  verificationToken: z.string().optional(),
  oidcToken: z.string().optional(),
})

/** `/v1/account` response: no `organizationId` when no account matches. */
export const AccountResponse = z.object({ organizationId: z.string().optional() })
