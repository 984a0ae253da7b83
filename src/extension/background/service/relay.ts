/**
 * Client of the auth relay (wire-formats B6 "Auth proxy"; Sigil's relay is mounted at
 * `<service>/auth`). Unstamped JSON POSTs; responses are checked with zod (trust boundary),
 * failures become {@link SigilRequestError} / `SigilError('NETWORK')` like the API client.
 */
import type { WalletParams } from '../../../api/operations/create_sub_organization'
import { z } from 'zod'
import { SigilError, SigilRequestError } from '../../../api/errors'
import type { ApiKeyParams, AuthenticatorParams, ClientSignature } from '../../../api/common'
import type { OtpType } from '../../../api/enumLists'
import { AccountResponse } from '../../../api/relay/account'
import { SessionResponse } from '../../../api/relay/login'
import { OtpInitV2Response, OtpVerifyResponse } from '../../../api/relay/otp'
import { RecoveryInitResponse } from '../../../api/relay/recovery'
import { SignupResponse } from '../../../api/relay/signup'
import { type RelayOauthProvider, WalletKitConfigResponse } from '../../../api/relay/walletKit'

/** OTP channel. */
export type { OtpType, RelayOauthProvider }

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
  /** OAuth sign-up: the provider's ID token proves the identity (verified by the service). */
  oauthProviders: Array<{ providerName: string; oidcToken: string }>
  /** The wallet to create (the relay's default when absent); named in the client signature. */
  wallet?: WalletParams
}

/** The relay endpoints the extension uses. */
export type RelayClient = {
  /** Sends a code; the target bundle is the service's signed OTP encryption key. */
  otpInitV2(body: { otpType: OtpType; contact: string }): Promise<z.output<typeof OtpInitV2Response>>
  /** The code, HPKE-encrypted to the target bundle with the public key it binds the token to. */
  otpVerifyV2(body: { otpId: string; encryptedOtpBundle: string }): Promise<z.output<typeof OtpVerifyResponse>>
  /** A session JWT for `publicKey`; `clientSignature` by the token's key signs the login message. */
  otpLogin(body: {
    verificationToken: string
    publicKey: string
    clientSignature: ClientSignature
    organizationId: string
  }): Promise<z.output<typeof SessionResponse>>
  signup(body: SignupBody): Promise<z.output<typeof SignupResponse>>
  account(
    body:
      | { filterType: 'EMAIL' | 'PHONE_NUMBER'; filterValue: string; verificationToken: string }
      | { filterType: 'OIDC_TOKEN'; filterValue: string },
  ): Promise<z.output<typeof AccountResponse>>
  /** A session JWT for `publicKey`; the ID token's nonce is sha256 of it. */
  oauthLogin(body: { oidcToken: string; publicKey: string; organizationId: string }): Promise<z.output<typeof SessionResponse>>
  recoveryInit(body: { email: string; targetPublicKey: string }): Promise<z.output<typeof RecoveryInitResponse>>
  walletKitConfig(): Promise<z.output<typeof WalletKitConfigResponse>>
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
    otpInitV2: (body) => post('/v1/otp_init_v2', body, OtpInitV2Response),
    otpVerifyV2: (body) => post('/v1/otp_verify_v2', body, OtpVerifyResponse),
    otpLogin: (body) => post('/v1/otp_login_v2', body, SessionResponse),
    signup: (body) => post('/v1/signup_v2', body, SignupResponse),
    account: (body) => post('/v1/account', body, AccountResponse),
    oauthLogin: (body) => post('/v1/oauth_login', body, SessionResponse),
    recoveryInit: (body) => post('/v1/recovery_init', body, RecoveryInitResponse),
    walletKitConfig: () => post('/v1/wallet_kit_config', {}, WalletKitConfigResponse),
  }
}
