export { DEFAULT_WALLET, DEFAULT_WALLET_ACCOUNTS } from '../api/defaultWallet.js'

/**
 * Default relay limits: per client address, and per contact for sign-ups, OTP logins and recovery
 * (OTPs themselves are rate-limited by the service).
 */
export const DEFAULT_LIMITS = {
  perAddress: { max: 120, windowMs: 60_000 },
  perContact: { max: 10, windowMs: 15 * 60_000 },
}
