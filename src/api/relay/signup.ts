/**
 * The relay's `/v1/signup` and `/v1/signup_v2` (wire-formats B6 "Auth proxy"): a new account for
 * a proven contact (verification token and client signature), a passkey, a key or an OAuth
 * identity (its ID token).
 */
import { z } from 'zod'
import { ApiKeysParam, AuthenticatorsParam, ClientSignature, OauthProvidersParam } from '../common.js'
import { WalletParams } from '../operations/create_sub_organization.js'

/** `/v1/signup` and `/v1/signup_v2` request. */
export const SignupRequest = z.object({
  userEmail: z.string().optional(),
  userPhoneNumber: z.string().optional(),
  userTag: z.string().optional(),
  userName: z.string().optional(),
  organizationName: z.string().optional(),
  /** From `/v1/otp_verify`: proves `userEmail` / `userPhoneNumber`. */
  verificationToken: z.string().optional(),
  apiKeys: ApiKeysParam.default([]),
  authenticators: AuthenticatorsParam.default([]),
  oauthProviders: OauthProvidersParam.default([]),
  /** The wallet to create (the relay's default when absent); named in the client signature. */
  wallet: WalletParams.optional(),
  /** Sign-up message signed by the key the verification token is bound to (B3). */
  clientSignature: ClientSignature.optional(),
})

/** `/v1/signup` and `/v1/signup_v2` response. */
export const SignupResponse = z.object({ organizationId: z.string().min(1), userId: z.string().min(1) }).loose()
