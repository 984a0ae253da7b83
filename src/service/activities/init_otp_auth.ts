import type { InitOtpFields } from '../../api/params.js'
import { initiateOtp } from '../otp/initiate.js'
import type { ActivityHandler } from './types.js'

/** init_otp_auth V3 (service-interface §6): sends a code by email or SMS → `{otpId}`. */
export const handler: ActivityHandler<InitOtpFields> = (ctx, p) => initiateOtp(ctx, p)
