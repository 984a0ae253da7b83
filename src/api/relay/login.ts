/**
 * The relay's login routes (wire-formats B6 "Auth proxy"): `/v1/otp_login` and `/v1/otp_login_v2`
 * with a verification token, `/v1/oauth_login` with an OIDC ID token; both answer a session JWT
 * for the client's own public key.
 */
import { z } from 'zod'
import { ClientSignature } from '../common.js'

/** `/v1/otp_login` and `/v1/otp_login_v2` request; `clientSignature` by the token's key signs the login message. */
export const OtpLoginRequest = z.object({
  verificationToken: z.string(),
  publicKey: z.string(),
  clientSignature: ClientSignature.optional(),
  invalidateExisting: z.boolean().optional(),
  organizationId: z.string().optional(),
})

/** `/v1/oauth_login` request. */
export const OauthLoginRequest = z.object({
  oidcToken: z.string().min(1, { error: 'required' }),
  publicKey: z.string().min(1, { error: 'required' }),
  invalidateExisting: z.boolean().optional(),
  organizationId: z.string().optional(),
})

/** A login's response: the session JWT. */
export const SessionResponse = z.object({ session: z.string().min(1).max(8192) })
