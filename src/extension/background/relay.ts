/**
 * Client of the auth relay (wire-formats B6 "Auth proxy"; Sigil's relay is mounted at
 * `<service>/auth`). Unstamped JSON POSTs; responses are checked with zod (trust boundary),
 * failures become {@link SigilRequestError} / `SigilError('NETWORK')` like the API client.
 */
import { z } from 'zod'
import { SigilError, SigilRequestError } from '../../api/errors'
import type { ApiKeyParams, AuthenticatorParams, ClientSignature } from '../../api/common'
import type { OtpType } from '../../api/enumLists'

/** OTP channel. */
export type { OtpType }

const OtpInitResult = z.object({ otpId: z.string().min(1) })
const OtpVerifyResult = z.object({ verificationToken: z.string().min(1).max(8192) })
const OtpAuthResult = z.object({
  organizationId: z.string().min(1),
  userId: z.string().min(1),
  apiKeyId: z.string().optional(),
  credentialBundle: z.string().min(1),
})
const SignupResult = z.object({ organizationId: z.string().min(1), userId: z.string().min(1) }).loose()
const AccountResult = z.object({ organizationId: z.string().optional() })
const RecoveryInitResult = z.object({ organizationId: z.string().min(1), userId: z.string().min(1) }).loose()
const WalletKitConfig = z.object({ organizationId: z.string().min(1) }).loose()
const ErrorBody = z.object({ code: z.number(), message: z.string() }).loose()

/** `/v1/signup` body (wire-formats B6 signup). */
export type SignupBody = {
  userEmail?: string
  userPhoneNumber?: string
  userName?: string
  organizationName?: string
  /** From `/v1/otp_verify`: proves `userEmail` / `userPhoneNumber`. */
  verificationToken?: string
  /** Sign-up message signed by the key the verification token is bound to (B3). */
  clientSignature?: ClientSignature
  apiKeys: ApiKeyParams[]
  authenticators: AuthenticatorParams[]
  oauthProviders: never[]
}

/** The relay endpoints the extension uses. */
export type RelayClient = {
  otpInit(body: { otpType: OtpType; contact: string }): Promise<z.output<typeof OtpInitResult>>
  otpAuth(body: { otpId: string; otpCode: string; targetPublicKey: string }): Promise<z.output<typeof OtpAuthResult>>
  /** `publicKey` (compressed P-256 hex) binds the verification token to that key. */
  otpVerify(body: { otpId: string; otpCode: string; publicKey?: string }): Promise<z.output<typeof OtpVerifyResult>>
  signup(body: SignupBody): Promise<z.output<typeof SignupResult>>
  account(body: {
    filterType: 'EMAIL' | 'PHONE_NUMBER'
    filterValue: string
    verificationToken: string
  }): Promise<z.output<typeof AccountResult>>
  recoveryInit(body: { email: string; targetPublicKey: string }): Promise<z.output<typeof RecoveryInitResult>>
  walletKitConfig(): Promise<z.output<typeof WalletKitConfig>>
}

/** Create a {@link RelayClient} for `baseUrl` (e.g. `http://127.0.0.1:8787/auth`). */
export function createRelayClient(opts: { baseUrl: string; fetch?: typeof globalThis.fetch }): RelayClient {
  const base = opts.baseUrl.replace(/\/+$/, '')
  const doFetch = opts.fetch ?? ((input, init) => globalThis.fetch(input, init))

  async function post<S extends z.ZodType>(path: string, body: unknown, schema: S): Promise<z.output<S>> {
    let res: Response
    try {
      res = await doFetch(base + path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(body),
        redirect: 'error',
      })
    } catch (cause) {
      throw new SigilError('NETWORK', `relay ${path}: request failed`, { cause })
    }
    let json: unknown
    try {
      json = await res.json()
    } catch {
      json = undefined
    }
    if (!res.ok) {
      const wire = ErrorBody.safeParse(json)
      throw new SigilRequestError(res.status, {
        code: wire.success ? wire.data.code : 13,
        message: wire.success ? wire.data.message : `${res.status} ${res.statusText}`,
        details: [],
      })
    }
    const parsed = schema.safeParse(json)
    if (!parsed.success) throw new SigilError('BAD_RESPONSE', `relay ${path}: unexpected response`)
    return parsed.data
  }

  return {
    otpInit: (body) => post('/v1/otp_init', body, OtpInitResult),
    otpAuth: (body) => post('/v1/otp_auth', body, OtpAuthResult),
    otpVerify: (body) => post('/v1/otp_verify', body, OtpVerifyResult),
    signup: (body) => post('/v1/signup', body, SignupResult),
    account: (body) => post('/v1/account', body, AccountResult),
    recoveryInit: (body) => post('/v1/recovery_init', body, RecoveryInitResult),
    walletKitConfig: () => post('/v1/wallet_kit_config', {}, WalletKitConfig),
  }
}
