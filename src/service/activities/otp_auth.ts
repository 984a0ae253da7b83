import type { z } from 'zod'
import type { otpAuth } from '../../api/operations/otp_auth.js'
import { SigilError } from '../../api/errors.js'
import { consumeOtp } from '../otp/consume.js'
import { findUserByContact } from '../auth/contact.js'
import { expirySeconds, issueCredentialBundle } from '../auth/sessionKeys.js'
import type { ActivityHandler } from './types.js'

/**
 * otp_auth (service-interface §7): spends the OTP, finds the user by its contact in the request
 * organization or a sub-organization, and returns a fresh OTP_AUTH key as a credential bundle.
 *
 * @throws NOT_FOUND when parameters.otpId names no OTP of the organization or an ancestor, or of the submitter's organization or a sub-organization of it, or no user has the OTP's contact in the organization or its sub-organizations
 * @throws OTP_EXPIRED when the OTP has already been used, has expired or has had its 5 attempts (counted before each check, atomically)
 * @throws OTP_INVALID when parameters.otpCode is not the OTP's code
 * @throws INVALID_ARGUMENT when parameters.expirationSeconds is not a positive number of seconds, parameters.targetPublicKey is not a hex P-256 public key, or parameters.otpId was not started with init_otp_auth
 */
export const handler: ActivityHandler<z.infer<typeof otpAuth.parameters>> = async (ctx, p) => {
  const otp = await consumeOtp(ctx, p.otpId, p.otpCode)
  const user = await findUserByContact(ctx.tx, ctx.organizationId, otp.otp_type, otp.contact)
  if (!user) {
    throw new SigilError('NOT_FOUND', 'no user with this contact in the organization or its sub-organizations')
  }
  const { apiKeyId, credentialBundle } = await issueCredentialBundle(ctx, {
    orgId: user.organization_id,
    userId: user.id,
    targetPublicKey: p.targetPublicKey,
    credentialType: 'CREDENTIAL_TYPE_OTP_AUTH_KEY_P256',
    apiKeyName: p.apiKeyName || `OTP Auth - ${ctx.now}`,
    expirationSeconds: expirySeconds(p.expirationSeconds, 'parameters.expirationSeconds'),
    invalidateExisting: p.invalidateExisting,
  })
  return { userId: user.id, apiKeyId, credentialBundle }
}
