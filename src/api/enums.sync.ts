/**
 * Hand-written unions kept in two-way compile-time sync with the schema-derived enums
 * (style.md habit 13). If either side changes alone, `tsc` fails on the `_Assert*` lines.
 */
import type { ActivityStatus, AddressFormat, CredentialType, Curve } from './enums.js'

/** True when A and B are mutually assignable (exact equality of the two types). */
export type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
/** Compiles only for `true`. */
export type Assert<T extends true> = T

/** Activity statuses as written in service-interface.md "States" plus wire-formats B5. */
export type ActivityStatusName =
  | 'ACTIVITY_STATUS_CREATED'
  | 'ACTIVITY_STATUS_PENDING'
  | 'ACTIVITY_STATUS_COMPLETED'
  | 'ACTIVITY_STATUS_FAILED'
  | 'ACTIVITY_STATUS_CONSENSUS_NEEDED'
  | 'ACTIVITY_STATUS_REJECTED'
  | 'ACTIVITY_STATUS_AUTHENTICATORS_NEEDED'

/** Credential types as written in service-interface.md "Credential". */
export type CredentialTypeName =
  | 'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR'
  | 'CREDENTIAL_TYPE_API_KEY_P256'
  | 'CREDENTIAL_TYPE_RECOVER_USER_KEY_P256'
  | 'CREDENTIAL_TYPE_API_KEY_SECP256K1'
  | 'CREDENTIAL_TYPE_EMAIL_AUTH_KEY_P256'
  | 'CREDENTIAL_TYPE_API_KEY_ED25519'
  | 'CREDENTIAL_TYPE_OTP_AUTH_KEY_P256'
  | 'CREDENTIAL_TYPE_READ_WRITE_SESSION_KEY_P256'
  | 'CREDENTIAL_TYPE_OAUTH_KEY_P256'
  | 'CREDENTIAL_TYPE_LOGIN'

/** Curves as written in service-interface.md "Wallet account parameter". */
export type CurveName = 'CURVE_SECP256K1' | 'CURVE_ED25519' | 'CURVE_P256'

type BitcoinNet = 'MAINNET' | 'TESTNET' | 'SIGNET' | 'REGTEST'
type BitcoinKind = 'P2PKH' | 'P2SH' | 'P2WPKH' | 'P2WSH' | 'P2TR'

/** The 36 address formats as written in service-interface.md "Wallet account parameter". */
export type AddressFormatName =
  | 'ADDRESS_FORMAT_UNCOMPRESSED'
  | 'ADDRESS_FORMAT_COMPRESSED'
  | 'ADDRESS_FORMAT_ETHEREUM'
  | 'ADDRESS_FORMAT_SOLANA'
  | 'ADDRESS_FORMAT_COSMOS'
  | 'ADDRESS_FORMAT_TRON'
  | 'ADDRESS_FORMAT_SUI'
  | 'ADDRESS_FORMAT_APTOS'
  | 'ADDRESS_FORMAT_SEI'
  | 'ADDRESS_FORMAT_XLM'
  | 'ADDRESS_FORMAT_XRP'
  | `ADDRESS_FORMAT_BITCOIN_${BitcoinNet}_${BitcoinKind}`
  | 'ADDRESS_FORMAT_DOGE_MAINNET'
  | 'ADDRESS_FORMAT_DOGE_TESTNET'
  | 'ADDRESS_FORMAT_TON_V3R2'
  | 'ADDRESS_FORMAT_TON_V4R2'
  | 'ADDRESS_FORMAT_TON_V5R1'

export type _AssertActivityStatusInSync = Assert<Equals<ActivityStatusName, ActivityStatus>>
export type _AssertCredentialTypeInSync = Assert<Equals<CredentialTypeName, CredentialType>>
export type _AssertCurveInSync = Assert<Equals<CurveName, Curve>>
export type _AssertAddressFormatInSync = Assert<Equals<AddressFormatName, AddressFormat>>
