/**
 * Every enum of the wire interface, as `as const` tuples plus zod enums and inferred types.
 *
 * Sources: shared/spec/service-interface.md (activity types, credential types, address
 * formats, on-ramp enums) and shared/spec/wire-formats.md B1, B3, B4, B5, B7.
 */
import { z } from 'zod'

const ACTIVITY_TYPE_SUFFIXES = [
  'CREATE_API_KEYS',
  'CREATE_API_KEYS_V2',
  'CREATE_USERS',
  'CREATE_USERS_V2',
  'CREATE_USERS_V3',
  'CREATE_USERS_V4',
  'CREATE_PRIVATE_KEYS',
  'CREATE_PRIVATE_KEYS_V2',
  'SIGN_RAW_PAYLOAD',
  'SIGN_RAW_PAYLOAD_V2',
  'SIGN_RAW_PAYLOADS',
  'CREATE_INVITATIONS',
  'ACCEPT_INVITATION',
  'ACCEPT_INVITATION_V2',
  'CREATE_POLICY',
  'CREATE_POLICY_V2',
  'CREATE_POLICY_V3',
  'CREATE_POLICIES',
  'UPDATE_POLICY',
  'UPDATE_POLICY_V2',
  'DISABLE_PRIVATE_KEY',
  'DELETE_USERS',
  'DELETE_API_KEYS',
  'DELETE_INVITATION',
  'DELETE_ORGANIZATION',
  'DELETE_POLICY',
  'DELETE_POLICIES',
  'CREATE_USER_TAG',
  'DELETE_USER_TAGS',
  'UPDATE_USER_TAG',
  'CREATE_PRIVATE_KEY_TAG',
  'DELETE_PRIVATE_KEY_TAGS',
  'UPDATE_PRIVATE_KEY_TAG',
  'CREATE_ORGANIZATION',
  'CREATE_ORGANIZATION_V2',
  'SIGN_TRANSACTION',
  'SIGN_TRANSACTION_V2',
  'APPROVE_ACTIVITY',
  'REJECT_ACTIVITY',
  'DELETE_AUTHENTICATORS',
  'CREATE_AUTHENTICATORS',
  'CREATE_AUTHENTICATORS_V2',
  'SET_PAYMENT_METHOD',
  'SET_PAYMENT_METHOD_V2',
  'ACTIVATE_BILLING_TIER',
  'DELETE_PAYMENT_METHOD',
  'CREATE_API_ONLY_USERS',
  'UPDATE_ROOT_QUORUM',
  'UPDATE_ALLOWED_ORIGINS',
  'UPDATE_USER',
  'CREATE_SUB_ORGANIZATION',
  'CREATE_SUB_ORGANIZATION_V2',
  'CREATE_SUB_ORGANIZATION_V3',
  'CREATE_SUB_ORGANIZATION_V4',
  'CREATE_SUB_ORGANIZATION_V5',
  'CREATE_SUB_ORGANIZATION_V6',
  'CREATE_SUB_ORGANIZATION_V7',
  'CREATE_SUB_ORGANIZATION_V8',
  'CREATE_WALLET',
  'CREATE_WALLET_ACCOUNTS',
  'DELETE_WALLETS',
  'DELETE_WALLET_ACCOUNTS',
  'UPDATE_WALLET',
  'INIT_USER_EMAIL_RECOVERY',
  'INIT_USER_EMAIL_RECOVERY_V2',
  'RECOVER_USER',
  'SET_ORGANIZATION_FEATURE',
  'REMOVE_ORGANIZATION_FEATURE',
  'EXPORT_PRIVATE_KEY',
  'EXPORT_WALLET',
  'EXPORT_WALLET_ACCOUNT',
  'EMAIL_AUTH',
  'EMAIL_AUTH_V2',
  'EMAIL_AUTH_V3',
  'INIT_IMPORT_WALLET',
  'IMPORT_WALLET',
  'INIT_IMPORT_PRIVATE_KEY',
  'IMPORT_PRIVATE_KEY',
  'CREATE_READ_ONLY_SESSION',
  'CREATE_READ_WRITE_SESSION',
  'CREATE_READ_WRITE_SESSION_V2',
  'CREATE_OAUTH_PROVIDERS',
  'CREATE_OAUTH_PROVIDERS_V2',
  'DELETE_OAUTH_PROVIDERS',
  'OAUTH',
  'OAUTH_LOGIN',
  'DELETE_PRIVATE_KEYS',
  'DELETE_SUB_ORGANIZATION',
  'INIT_OTP_AUTH',
  'INIT_OTP_AUTH_V2',
  'INIT_OTP_AUTH_V3',
  'OTP_AUTH',
  'INIT_OTP',
  'INIT_OTP_V2',
  'INIT_OTP_V3',
  'VERIFY_OTP',
  'VERIFY_OTP_V2',
  'OTP_LOGIN',
  'OTP_LOGIN_V2',
  'STAMP_LOGIN',
  'UPDATE_USER_NAME',
  'UPDATE_USER_EMAIL',
  'UPDATE_USER_PHONE_NUMBER',
  'INIT_FIAT_ON_RAMP',
  'CREATE_FIAT_ON_RAMP_CREDENTIAL',
  'UPDATE_FIAT_ON_RAMP_CREDENTIAL',
  'DELETE_FIAT_ON_RAMP_CREDENTIAL',
  'CREATE_SMART_CONTRACT_INTERFACE',
  'DELETE_SMART_CONTRACT_INTERFACE',
  'ENABLE_AUTH_PROXY',
  'DISABLE_AUTH_PROXY',
  'UPDATE_AUTH_PROXY_CONFIG',
  'CREATE_OAUTH2_CREDENTIAL',
  'UPDATE_OAUTH2_CREDENTIAL',
  'DELETE_OAUTH2_CREDENTIAL',
  'OAUTH2_AUTHENTICATE',
  'ETH_SEND_RAW_TRANSACTION',
  'ETH_SEND_TRANSACTION',
  'SOL_SEND_TRANSACTION',
  // the hosted service's current versions of the two send types
  'ETH_SEND_TRANSACTION_V2',
  'SOL_SEND_TRANSACTION_V2',
  'UPSERT_GAS_USAGE_CONFIG',
  'CREATE_TVC_APP',
  'CREATE_TVC_DEPLOYMENT',
  'CREATE_TVC_MANIFEST_APPROVALS',
  'UPDATE_ORGANIZATION_NAME',
  'CREATE_WEBHOOK_ENDPOINT',
  'UPDATE_WEBHOOK_ENDPOINT',
  'DELETE_WEBHOOK_ENDPOINT',
] as const

type Prefixed<P extends string, T extends readonly string[]> = { readonly [K in keyof T]: `${P}${T[K]}` }
function prefixed<P extends string, const T extends readonly string[]>(prefix: P, suffixes: T): Prefixed<P, T> {
  return suffixes.map((s) => `${prefix}${s}`) as unknown as Prefixed<P, T>
}

/** All activity types (service-interface.md "Activity types"). */
export const ACTIVITY_TYPES = prefixed('ACTIVITY_TYPE_', ACTIVITY_TYPE_SUFFIXES)
export const ActivityType = z.enum(ACTIVITY_TYPES, { error: 'unknown activity type' })
export type ActivityType = z.infer<typeof ActivityType>

/** Activity statuses (service-interface.md "States", wire-formats B5 adds AUTHENTICATORS_NEEDED). */
export const ACTIVITY_STATUSES = [
  'ACTIVITY_STATUS_CREATED',
  'ACTIVITY_STATUS_PENDING',
  'ACTIVITY_STATUS_COMPLETED',
  'ACTIVITY_STATUS_FAILED',
  'ACTIVITY_STATUS_CONSENSUS_NEEDED',
  'ACTIVITY_STATUS_REJECTED',
  'ACTIVITY_STATUS_AUTHENTICATORS_NEEDED',
] as const
export const ActivityStatus = z.enum(ACTIVITY_STATUSES)
export type ActivityStatus = z.infer<typeof ActivityStatus>

/** Credential types (service-interface.md "Credential"). */
export const CREDENTIAL_TYPES = [
  'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR',
  'CREDENTIAL_TYPE_API_KEY_P256',
  'CREDENTIAL_TYPE_RECOVER_USER_KEY_P256',
  'CREDENTIAL_TYPE_API_KEY_SECP256K1',
  'CREDENTIAL_TYPE_EMAIL_AUTH_KEY_P256',
  'CREDENTIAL_TYPE_API_KEY_ED25519',
  'CREDENTIAL_TYPE_OTP_AUTH_KEY_P256',
  'CREDENTIAL_TYPE_READ_WRITE_SESSION_KEY_P256',
  'CREDENTIAL_TYPE_OAUTH_KEY_P256',
  'CREDENTIAL_TYPE_LOGIN',
] as const
export const CredentialType = z.enum(CREDENTIAL_TYPES)
export type CredentialType = z.infer<typeof CredentialType>

/** Key curves of wallet accounts (service-interface.md "Wallet account parameter"). */
export const CURVES = ['CURVE_SECP256K1', 'CURVE_ED25519', 'CURVE_P256'] as const
export const Curve = z.enum(CURVES)
export type Curve = z.infer<typeof Curve>

/** Derivation path formats (service-interface.md "Wallet account parameter"). */
export const PATH_FORMATS = ['PATH_FORMAT_BIP32'] as const
export const PathFormat = z.enum(PATH_FORMATS)
export type PathFormat = z.infer<typeof PathFormat>

const BITCOIN_SUFFIXES = ['P2PKH', 'P2SH', 'P2WPKH', 'P2WSH', 'P2TR'] as const
const ADDRESS_FORMAT_SUFFIXES = [
  'UNCOMPRESSED',
  'COMPRESSED',
  'ETHEREUM',
  'SOLANA',
  'COSMOS',
  'TRON',
  'SUI',
  'APTOS',
  'SEI',
  'XLM',
  'XRP',
  ...prefixed('BITCOIN_MAINNET_', BITCOIN_SUFFIXES),
  ...prefixed('BITCOIN_TESTNET_', BITCOIN_SUFFIXES),
  ...prefixed('BITCOIN_SIGNET_', BITCOIN_SUFFIXES),
  ...prefixed('BITCOIN_REGTEST_', BITCOIN_SUFFIXES),
  'DOGE_MAINNET',
  'DOGE_TESTNET',
  'TON_V3R2',
  'TON_V4R2',
  'TON_V5R1',
] as const

/** The 36 address formats (service-interface.md "Wallet account parameter"; address-formats.md). */
export const ADDRESS_FORMATS = prefixed('ADDRESS_FORMAT_', ADDRESS_FORMAT_SUFFIXES)
export const AddressFormat = z.enum(ADDRESS_FORMATS)
export type AddressFormat = z.infer<typeof AddressFormat>

/** WebAuthn authenticator transports (wire-formats B1.2). */
export const AUTHENTICATOR_TRANSPORTS = [
  'AUTHENTICATOR_TRANSPORT_INTERNAL',
  'AUTHENTICATOR_TRANSPORT_USB',
  'AUTHENTICATOR_TRANSPORT_NFC',
  'AUTHENTICATOR_TRANSPORT_BLE',
  'AUTHENTICATOR_TRANSPORT_HYBRID',
] as const
export const AuthenticatorTransport = z.enum(AUTHENTICATOR_TRANSPORTS)
export type AuthenticatorTransport = z.infer<typeof AuthenticatorTransport>

/** Fiat on-ramp providers, brand neutralised (service-interface.md init_fiat_on_ramp). */
export const ON_RAMP_PROVIDERS = ['FIAT_ON_RAMP_PROVIDER_ALPHA', 'FIAT_ON_RAMP_PROVIDER_BETA'] as const
export const OnRampProvider = z.enum(ON_RAMP_PROVIDERS)
export type OnRampProvider = z.infer<typeof OnRampProvider>

/** On-ramp blockchain networks (service-interface.md init_fiat_on_ramp). */
export const ON_RAMP_NETWORKS = prefixed('FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_', ['BITCOIN', 'ETHEREUM', 'SOLANA', 'BASE'] as const)
export const OnRampNetwork = z.enum(ON_RAMP_NETWORKS)
export type OnRampNetwork = z.infer<typeof OnRampNetwork>

/** On-ramp crypto currencies (service-interface.md init_fiat_on_ramp). */
export const ON_RAMP_CRYPTO_CURRENCIES = prefixed('FIAT_ON_RAMP_CRYPTO_CURRENCY_', ['BTC', 'ETH', 'SOL', 'USDC'] as const)
export const OnRampCryptoCurrency = z.enum(ON_RAMP_CRYPTO_CURRENCIES)
export type OnRampCryptoCurrency = z.infer<typeof OnRampCryptoCurrency>

/** On-ramp fiat currencies (service-interface.md init_fiat_on_ramp). */
export const ON_RAMP_FIAT_CURRENCIES = prefixed('FIAT_ON_RAMP_CURRENCY_', [
  'AUD',
  'BGN',
  'BRL',
  'CAD',
  'CHF',
  'COP',
  'CZK',
  'DKK',
  'DOP',
  'EGP',
  'EUR',
  'GBP',
  'HKD',
  'IDR',
  'ILS',
  'JOD',
  'KES',
  'KWD',
  'LKR',
  'MXN',
  'NGN',
  'NOK',
  'NZD',
  'OMR',
  'PEN',
  'PLN',
  'RON',
  'SEK',
  'THB',
  'TRY',
  'TWD',
  'USD',
  'VND',
  'ZAR',
] as const)
export const OnRampFiatCurrency = z.enum(ON_RAMP_FIAT_CURRENCIES)
export type OnRampFiatCurrency = z.infer<typeof OnRampFiatCurrency>

/** On-ramp payment methods, brand neutralised (service-interface.md init_fiat_on_ramp). */
export const ON_RAMP_PAYMENT_METHODS = prefixed('FIAT_ON_RAMP_PAYMENT_METHOD_', [
  'CREDIT_DEBIT_CARD',
  'WALLET_ONE_PAY',
  'GBP_BANK_TRANSFER',
  'GBP_OPEN_BANKING_PAYMENT',
  'WALLET_TWO_PAY',
  'SEPA_BANK_TRANSFER',
  'PIX_INSTANT_PAYMENT',
  'ONLINE_PAY_ONE',
  'ONLINE_PAY_TWO',
  'BETA_BALANCE',
  'CRYPTO_ACCOUNT',
  'FIAT_WALLET',
  'ACH_BANK_ACCOUNT',
] as const)
export const OnRampPaymentMethod = z.enum(ON_RAMP_PAYMENT_METHODS)
export type OnRampPaymentMethod = z.infer<typeof OnRampPaymentMethod>

/** OTP delivery channels (service-interface.md init_otp_auth). */
export const OTP_TYPES = ['OTP_TYPE_SMS', 'OTP_TYPE_EMAIL'] as const
export const OtpType = z.enum(OTP_TYPES)
export type OtpType = z.infer<typeof OtpType>

/** Raw-payload encodings (wire-formats B4 sign_raw_payload). */
export const PAYLOAD_ENCODINGS = [
  'PAYLOAD_ENCODING_HEXADECIMAL',
  'PAYLOAD_ENCODING_TEXT_UTF8',
  'PAYLOAD_ENCODING_EIP712',
  'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION',
] as const
export const PayloadEncoding = z.enum(PAYLOAD_ENCODINGS)
export type PayloadEncoding = z.infer<typeof PayloadEncoding>

/** Hash functions applied before signing (wire-formats B4 sign_raw_payload). */
export const HASH_FUNCTIONS = [
  'HASH_FUNCTION_NO_OP',
  'HASH_FUNCTION_SHA256',
  'HASH_FUNCTION_KECCAK256',
  'HASH_FUNCTION_NOT_APPLICABLE',
] as const
export const HashFunction = z.enum(HASH_FUNCTIONS)
export type HashFunction = z.infer<typeof HashFunction>

/** Transaction types (wire-formats B4 sign_transaction). */
export const TRANSACTION_TYPES = [
  'TRANSACTION_TYPE_ETHEREUM',
  'TRANSACTION_TYPE_SOLANA',
  'TRANSACTION_TYPE_TRON',
  'TRANSACTION_TYPE_BITCOIN',
  'TRANSACTION_TYPE_TEMPO',
] as const
export const TransactionType = z.enum(TRANSACTION_TYPES)
export type TransactionType = z.infer<typeof TransactionType>

/** API key curves (wire-formats B1.3, B4 create_sub_organization). */
export const API_KEY_CURVES = ['API_KEY_CURVE_P256', 'API_KEY_CURVE_SECP256K1', 'API_KEY_CURVE_ED25519'] as const
export const ApiKeyCurve = z.enum(API_KEY_CURVES)
export type ApiKeyCurve = z.infer<typeof ApiKeyCurve>

/** Organization feature names (service-interface.md "Organization configuration"). */
export const FEATURE_NAMES = [
  'FEATURE_NAME_ROOT_USER_EMAIL_RECOVERY',
  'FEATURE_NAME_WEBAUTHN_ORIGINS',
  'FEATURE_NAME_EMAIL_AUTH',
  'FEATURE_NAME_EMAIL_RECOVERY',
  'FEATURE_NAME_WEBHOOK',
  'FEATURE_NAME_SMS_AUTH',
  'FEATURE_NAME_OTP_EMAIL_AUTH',
  'FEATURE_NAME_AUTH_PROXY',
] as const
export const FeatureName = z.enum(FEATURE_NAMES)
export type FeatureName = z.infer<typeof FeatureName>

/** Vote selections (service-interface.md "Vote"). */
export const VOTE_SELECTIONS = ['VOTE_SELECTION_APPROVED', 'VOTE_SELECTION_REJECTED'] as const
export const VoteSelection = z.enum(VOTE_SELECTIONS)
export type VoteSelection = z.infer<typeof VoteSelection>

/** Signature schemes: the `X-Stamp` schemes (wire-formats B1.1, B1.3) and app proofs (service-interface.md "App proof"). */
export const SIGNATURE_SCHEMES = [
  'SIGNATURE_SCHEME_TK_API_P256',
  'SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191',
  'SIGNATURE_SCHEME_TK_API_ED25519',
  'SIGNATURE_SCHEME_EPHEMERAL_KEY_P256',
] as const
export const SignatureScheme = z.enum(SIGNATURE_SCHEMES)
export type SignatureScheme = z.infer<typeof SignatureScheme>

/** Schemes of the `X-Stamp-Attested` header (wire-formats B1.4). */
export const STAMP_ATTESTED_SCHEMES = ['STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN', 'STAMP_ATTESTED_SCHEME_P256_OIDC'] as const
export const StampAttestedScheme = z.enum(STAMP_ATTESTED_SCHEMES)
export type StampAttestedScheme = z.infer<typeof StampAttestedScheme>

/** Client signature scheme (service-interface.md "Client signature"). */
export const CLIENT_SIGNATURE_SCHEMES = ['CLIENT_SIGNATURE_SCHEME_API_P256'] as const
export const ClientSignatureScheme = z.enum(CLIENT_SIGNATURE_SCHEMES)
export type ClientSignatureScheme = z.infer<typeof ClientSignatureScheme>

/** Session JWT `session_type` values (wire-formats B3). */
export const SESSION_TYPES = ['SESSION_TYPE_READ_ONLY', 'SESSION_TYPE_READ_WRITE'] as const
export const SessionType = z.enum(SESSION_TYPES)
export type SessionType = z.infer<typeof SessionType>

/** Mnemonic languages accepted by export_wallet (Turnkey `v1MnemonicLanguage`). */
export const MNEMONIC_LANGUAGES = [
  'MNEMONIC_LANGUAGE_ENGLISH',
  'MNEMONIC_LANGUAGE_SIMPLIFIED_CHINESE',
  'MNEMONIC_LANGUAGE_TRADITIONAL_CHINESE',
  'MNEMONIC_LANGUAGE_CZECH',
  'MNEMONIC_LANGUAGE_FRENCH',
  'MNEMONIC_LANGUAGE_ITALIAN',
  'MNEMONIC_LANGUAGE_JAPANESE',
  'MNEMONIC_LANGUAGE_KOREAN',
  'MNEMONIC_LANGUAGE_SPANISH',
] as const
export const MnemonicLanguage = z.enum(MNEMONIC_LANGUAGES)
export type MnemonicLanguage = z.infer<typeof MnemonicLanguage>
