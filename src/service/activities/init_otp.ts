import type { InitOtpFields } from '../../api/params.js'
import { createTargetBundle } from '../../crypto/signedBundle.js'
import { initiateOtp } from '../otp/initiate.js'
import type { ActivityHandler } from './types.js'

/**
 * init_otp V3 (wire-formats B4): like init_otp_auth, plus the signed `otpEncryptionTargetBundle`
 * announcing the service's OTP HPKE key, signed by the verifier ("TLS fetcher") key (B2).
 */
export const handler: ActivityHandler<InitOtpFields> = async (ctx, p) => {
  const { otpId } = await initiateOtp(ctx, p)
  const otpEncryptionTargetBundle = createTargetBundle({
    targetPublicKey: ctx.rt.keys.otpTarget.publicKey,
    signerPrivateKey: ctx.rt.keys.verifier.privateKey,
  })
  return { otpId, otpEncryptionTargetBundle }
}
