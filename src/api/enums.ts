/**
 * The zod enums of the wire interface, each built from its one list in ./enumLists.ts (which
 * this module re-exports, so `CURVES`, `Curve` etc. can be imported from either). Modules that
 * must not load zod (src/chains, the popup) import ./enumLists.ts instead.
 */
import { z } from 'zod'
import {
  ACTIVITY_STATUSES,
  ACTIVITY_TYPES,
  ADDRESS_FORMATS,
  POLICY_EFFECTS,
  POLICY_OPERATORS,
  POLICY_OUTCOMES,
  API_KEY_CURVES,
  AUTHENTICATOR_TRANSPORTS,
  CLIENT_SIGNATURE_SCHEMES,
  CREDENTIAL_TYPES,
  CURVES,
  FEATURE_NAMES,
  HASH_FUNCTIONS,
  MNEMONIC_LANGUAGES,
  ON_RAMP_CRYPTO_CURRENCIES,
  ON_RAMP_FIAT_CURRENCIES,
  ON_RAMP_NETWORKS,
  ON_RAMP_PAYMENT_METHODS,
  ON_RAMP_PROVIDER_NAMES,
  ON_RAMP_PROVIDERS,
  HOSTED_ON_RAMP_PROVIDERS,
  OTP_TYPES,
  PATH_FORMATS,
  PAYLOAD_ENCODINGS,
  SESSION_TYPES,
  SIGNATURE_SCHEMES,
  SMART_CONTRACT_INTERFACE_TYPES,
  STAMP_ATTESTED_SCHEMES,
  TRANSACTION_HISTORY_STATUSES,
  TRANSACTION_TYPES,
  TRANSFER_DIRECTIONS,
  VOTE_SELECTIONS,
} from './enumLists.js'

export * from './enumLists.js'

export const ActivityType = z.enum(ACTIVITY_TYPES, { error: 'unknown activity type' })
export type ActivityType = z.infer<typeof ActivityType>
export const ActivityStatus = z.enum(ACTIVITY_STATUSES)
export type ActivityStatus = z.infer<typeof ActivityStatus>
export const CredentialType = z.enum(CREDENTIAL_TYPES)
export type CredentialType = z.infer<typeof CredentialType>
export const Curve = z.enum(CURVES)
export type Curve = z.infer<typeof Curve>
export const PathFormat = z.enum(PATH_FORMATS)
export type PathFormat = z.infer<typeof PathFormat>
export const AddressFormat = z.enum(ADDRESS_FORMATS)
export type AddressFormat = z.infer<typeof AddressFormat>
export const AuthenticatorTransport = z.enum(AUTHENTICATOR_TRANSPORTS)
export type AuthenticatorTransport = z.infer<typeof AuthenticatorTransport>
export const OnRampProvider = z.enum(ON_RAMP_PROVIDERS)
export type OnRampProvider = z.infer<typeof OnRampProvider>
/** The hosted names of the providers, as responses give them. */
export const HostedOnRampProvider = z.enum(HOSTED_ON_RAMP_PROVIDERS)
export type HostedOnRampProvider = z.infer<typeof HostedOnRampProvider>
/**
 * A provider as requests name it, either spelling. Parsing keeps the name as sent (the activity
 * intent echoes it); handlers resolve it with `onRampProviderOf`.
 */
export const OnRampProviderName = z.enum(ON_RAMP_PROVIDER_NAMES)
export type OnRampProviderName = z.infer<typeof OnRampProviderName>
export const OnRampNetwork = z.enum(ON_RAMP_NETWORKS)
export type OnRampNetwork = z.infer<typeof OnRampNetwork>
export const OnRampCryptoCurrency = z.enum(ON_RAMP_CRYPTO_CURRENCIES)
export type OnRampCryptoCurrency = z.infer<typeof OnRampCryptoCurrency>
export const OnRampFiatCurrency = z.enum(ON_RAMP_FIAT_CURRENCIES)
export type OnRampFiatCurrency = z.infer<typeof OnRampFiatCurrency>
export const OnRampPaymentMethod = z.enum(ON_RAMP_PAYMENT_METHODS)
export type OnRampPaymentMethod = z.infer<typeof OnRampPaymentMethod>
export const OtpType = z.enum(OTP_TYPES)
export type OtpType = z.infer<typeof OtpType>
export const PayloadEncoding = z.enum(PAYLOAD_ENCODINGS)
export type PayloadEncoding = z.infer<typeof PayloadEncoding>
export const HashFunction = z.enum(HASH_FUNCTIONS)
export type HashFunction = z.infer<typeof HashFunction>
export const TransactionType = z.enum(TRANSACTION_TYPES)
export type TransactionType = z.infer<typeof TransactionType>
export const TransactionHistoryStatus = z.enum(TRANSACTION_HISTORY_STATUSES)
export type TransactionHistoryStatus = z.infer<typeof TransactionHistoryStatus>
export const TransferDirection = z.enum(TRANSFER_DIRECTIONS)
export type TransferDirection = z.infer<typeof TransferDirection>
export const ApiKeyCurve = z.enum(API_KEY_CURVES)
export type ApiKeyCurve = z.infer<typeof ApiKeyCurve>
export const FeatureName = z.enum(FEATURE_NAMES)
export type FeatureName = z.infer<typeof FeatureName>
export const VoteSelection = z.enum(VOTE_SELECTIONS)
export type VoteSelection = z.infer<typeof VoteSelection>
export const SignatureScheme = z.enum(SIGNATURE_SCHEMES)
export type SignatureScheme = z.infer<typeof SignatureScheme>
export const StampAttestedScheme = z.enum(STAMP_ATTESTED_SCHEMES)
export type StampAttestedScheme = z.infer<typeof StampAttestedScheme>
export const ClientSignatureScheme = z.enum(CLIENT_SIGNATURE_SCHEMES)
export type ClientSignatureScheme = z.infer<typeof ClientSignatureScheme>
export const SessionType = z.enum(SESSION_TYPES)
export type SessionType = z.infer<typeof SessionType>
export const MnemonicLanguage = z.enum(MNEMONIC_LANGUAGES)
export type MnemonicLanguage = z.infer<typeof MnemonicLanguage>
export const SmartContractInterfaceType = z.enum(SMART_CONTRACT_INTERFACE_TYPES)
export type SmartContractInterfaceType = z.infer<typeof SmartContractInterfaceType>
export const PolicyEffect = z.enum(POLICY_EFFECTS)
export type PolicyEffect = z.infer<typeof PolicyEffect>
export const PolicyOperator = z.enum(POLICY_OPERATORS)
export type PolicyOperator = z.infer<typeof PolicyOperator>
export const PolicyOutcome = z.enum(POLICY_OUTCOMES)
export type PolicyOutcome = z.infer<typeof PolicyOutcome>
