/**
 * The one list of every enum of the wire interface: plain `as const` tuples and their union
 * types, with no imports, so that src/chains, the popup (which must not load zod) and the zod
 * schemas of src/api/enums.ts all build on the same values. Subsets elsewhere are written
 * `satisfies readonly X[]` or filtered from these lists.
 *
 * Sources: shared/spec/service-interface.md (activity types, credential types, address
 * formats, on-ramp enums) and shared/spec/wire-formats.md B1, B3, B4, B5, B7.
 */

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
  'ETH_UNDELEGATE_7702',
  'UPSERT_GAS_USAGE_CONFIG',
  'CREATE_TVC_APP',
  'CREATE_TVC_DEPLOYMENT',
  'CREATE_TVC_MANIFEST_APPROVALS',
  'UPDATE_ORGANIZATION_NAME',
  'CREATE_SESSION_PROFILE',
  'CREATE_MFA_POLICY',
  'UPDATE_MFA_POLICY',
  'DELETE_MFA_POLICY',
  'CREATE_WEBHOOK_ENDPOINT',
  'UPDATE_WEBHOOK_ENDPOINT',
  'DELETE_WEBHOOK_ENDPOINT',
  'SET_IP_ALLOWLIST',
  'REMOVE_IP_ALLOWLIST',
  'CREATE_VELOCITY_CONTROL',
  'DELETE_VELOCITY_CONTROL',
  'INIT_IMPORT_SECRETS',
  'IMPORT_SECRETS',
  'EXPORT_SECRETS',
  'DELETE_SECRETS',
] as const

// Calls that build a list are marked pure so that bundles (the popup) keep only the lists they use.
type Prefixed<P extends string, T extends readonly string[]> = { readonly [K in keyof T]: `${P}${T[K]}` }
function prefixed<P extends string, const T extends readonly string[]>(prefix: P, suffixes: T): Prefixed<P, T> {
  return suffixes.map((s) => `${prefix}${s}`) as unknown as Prefixed<P, T>
}

/** All activity types (service-interface.md "Activity types"). */
export const ACTIVITY_TYPES = /* @__PURE__ */ prefixed('ACTIVITY_TYPE_', ACTIVITY_TYPE_SUFFIXES)
export type ActivityType = (typeof ACTIVITY_TYPES)[number]

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
export type ActivityStatus = (typeof ACTIVITY_STATUSES)[number]

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
export type CredentialType = (typeof CREDENTIAL_TYPES)[number]

/** Key curves of wallet accounts (service-interface.md "Wallet account parameter"). */
export const CURVES = ['CURVE_SECP256K1', 'CURVE_ED25519', 'CURVE_P256'] as const
export type Curve = (typeof CURVES)[number]

/** Derivation path formats (service-interface.md "Wallet account parameter"). */
export const PATH_FORMATS = ['PATH_FORMAT_BIP32'] as const
export type PathFormat = (typeof PATH_FORMATS)[number]

/** Bitcoin networks of the Bitcoin address formats (address-formats.md). */
export const BITCOIN_NETWORKS = ['MAINNET', 'TESTNET', 'SIGNET', 'REGTEST'] as const
export type BitcoinNetwork = (typeof BITCOIN_NETWORKS)[number]

/** Bitcoin address types; every network has all five (address-formats.md). */
export const BITCOIN_ADDRESS_TYPES = ['P2PKH', 'P2SH', 'P2WPKH', 'P2WSH', 'P2TR'] as const
export type BitcoinAddressType = (typeof BITCOIN_ADDRESS_TYPES)[number]

/** The 20 Bitcoin address formats: every network × every type, network-major. */
export type BitcoinAddressFormat = `ADDRESS_FORMAT_BITCOIN_${BitcoinNetwork}_${BitcoinAddressType}`
export const BITCOIN_ADDRESS_FORMATS: readonly BitcoinAddressFormat[] = /* @__PURE__ */ BITCOIN_NETWORKS.flatMap((n) =>
  BITCOIN_ADDRESS_TYPES.map((t) => `ADDRESS_FORMAT_BITCOIN_${n}_${t}` as const),
)

/** TON wallet-contract versions of the TON address formats (address-formats.md). */
export const TON_WALLET_VERSIONS = ['V3R2', 'V4R2', 'V5R1'] as const
export type TonWalletVersion = (typeof TON_WALLET_VERSIONS)[number]

/**
 * The 36 address formats (service-interface.md "Wallet account parameter"; address-formats.md).
 * Each has its facts (curves, default path, chain label, variant) in src/chains/formats/facts.ts
 * and its address builder in its family file under src/chains/formats, both tables checked against
 * this list by the compiler: a new format is a name here and an entry in each.
 */
export const ADDRESS_FORMATS = [
  'ADDRESS_FORMAT_UNCOMPRESSED',
  'ADDRESS_FORMAT_COMPRESSED',
  'ADDRESS_FORMAT_ETHEREUM',
  'ADDRESS_FORMAT_SOLANA',
  'ADDRESS_FORMAT_COSMOS',
  'ADDRESS_FORMAT_TRON',
  'ADDRESS_FORMAT_SUI',
  'ADDRESS_FORMAT_APTOS',
  'ADDRESS_FORMAT_SEI',
  'ADDRESS_FORMAT_XLM',
  'ADDRESS_FORMAT_XRP',
  ...BITCOIN_ADDRESS_FORMATS,
  'ADDRESS_FORMAT_DOGE_MAINNET',
  'ADDRESS_FORMAT_DOGE_TESTNET',
  .../* @__PURE__ */ prefixed('ADDRESS_FORMAT_TON_', TON_WALLET_VERSIONS),
] as const
export type AddressFormat = (typeof ADDRESS_FORMATS)[number]

/** WebAuthn authenticator transports (wire-formats B1.2). */
export const AUTHENTICATOR_TRANSPORTS = [
  'AUTHENTICATOR_TRANSPORT_INTERNAL',
  'AUTHENTICATOR_TRANSPORT_USB',
  'AUTHENTICATOR_TRANSPORT_NFC',
  'AUTHENTICATOR_TRANSPORT_BLE',
  'AUTHENTICATOR_TRANSPORT_HYBRID',
] as const
export type AuthenticatorTransport = (typeof AUTHENTICATOR_TRANSPORTS)[number]

/**
 * Fiat on-ramp providers, brand neutralised (service-interface.md init_fiat_on_ramp). These are
 * the names the service keeps: stored in its rows (one credential per organization, provider and
 * mode), keyed in its configuration (`SIGIL_ONRAMP_{ALPHA,BETA}_URL`), shown on its sandbox page.
 */
export const ON_RAMP_PROVIDERS = ['FIAT_ON_RAMP_PROVIDER_ALPHA', 'FIAT_ON_RAMP_PROVIDER_BETA'] as const
export type OnRampProvider = (typeof ON_RAMP_PROVIDERS)[number]

/**
 * The hosted service's names of the same two providers (@turnkey/http `v1FiatOnRampProvider`).
 * Responses that name a provider (list_fiat_on_ramp_credentials) use these, the only ones the
 * official client's types accept.
 */
export const HOSTED_ON_RAMP_PROVIDERS = ['FIAT_ON_RAMP_PROVIDER_COINBASE', 'FIAT_ON_RAMP_PROVIDER_MOONPAY'] as const
export type HostedOnRampProvider = (typeof HOSTED_ON_RAMP_PROVIDERS)[number]

/**
 * Which hosted name each provider is: ALPHA is COINBASE, BETA is MOONPAY. The neutralised lists
 * keep the hosted lists' order member for member: the providers (COINBASE, MOONPAY), and the
 * payment methods, where the interface's `BETA_BALANCE` stands where the hosted list has
 * `MOONPAY_BALANCE`. ALPHA is also the provider whose credentials carry a projectId and a
 * private API key, which the hosted docs say Coinbase requires.
 */
export const HOSTED_ON_RAMP_PROVIDER: Readonly<Record<OnRampProvider, HostedOnRampProvider>> = {
  FIAT_ON_RAMP_PROVIDER_ALPHA: 'FIAT_ON_RAMP_PROVIDER_COINBASE',
  FIAT_ON_RAMP_PROVIDER_BETA: 'FIAT_ON_RAMP_PROVIDER_MOONPAY',
}

/** Every provider name a request may give (create/update credential, init_fiat_on_ramp): either spelling. */
export const ON_RAMP_PROVIDER_NAMES = [...ON_RAMP_PROVIDERS, ...HOSTED_ON_RAMP_PROVIDERS] as const
export type OnRampProviderName = (typeof ON_RAMP_PROVIDER_NAMES)[number]

/** The provider a request's name means (a hosted name becomes the interface's). */
export function onRampProviderOf(name: OnRampProviderName): OnRampProvider {
  for (const p of ON_RAMP_PROVIDERS) if (p === name || HOSTED_ON_RAMP_PROVIDER[p] === name) return p
  throw new Error(`unknown on-ramp provider ${name}`)
}

/** On-ramp blockchain networks (service-interface.md init_fiat_on_ramp). */
export const ON_RAMP_NETWORKS = /* @__PURE__ */ prefixed('FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_', [
  'BITCOIN',
  'ETHEREUM',
  'SOLANA',
  'BASE',
] as const)
export type OnRampNetwork = (typeof ON_RAMP_NETWORKS)[number]

/** On-ramp crypto currencies (service-interface.md init_fiat_on_ramp). */
export const ON_RAMP_CRYPTO_CURRENCIES = /* @__PURE__ */ prefixed('FIAT_ON_RAMP_CRYPTO_CURRENCY_', ['BTC', 'ETH', 'SOL', 'USDC'] as const)
export type OnRampCryptoCurrency = (typeof ON_RAMP_CRYPTO_CURRENCIES)[number]

/** The on-ramp networks each crypto currency is carried on (service-interface.md init_fiat_on_ramp). */
export const ON_RAMP_CURRENCY_NETWORKS: Record<OnRampCryptoCurrency, readonly OnRampNetwork[]> = {
  FIAT_ON_RAMP_CRYPTO_CURRENCY_BTC: ['FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BITCOIN'],
  FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH: ['FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM', 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BASE'],
  FIAT_ON_RAMP_CRYPTO_CURRENCY_SOL: ['FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_SOLANA'],
  FIAT_ON_RAMP_CRYPTO_CURRENCY_USDC: [
    'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM',
    'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BASE',
    'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_SOLANA',
  ],
}

/** The crypto currencies carried on `network`, in the order of {@link ON_RAMP_CRYPTO_CURRENCIES}. */
export function onRampCurrenciesOn(network: OnRampNetwork): OnRampCryptoCurrency[] {
  return ON_RAMP_CRYPTO_CURRENCIES.filter((c) => ON_RAMP_CURRENCY_NETWORKS[c].includes(network))
}

/** On-ramp fiat currencies (service-interface.md init_fiat_on_ramp). */
export const ON_RAMP_FIAT_CURRENCIES = /* @__PURE__ */ prefixed('FIAT_ON_RAMP_CURRENCY_', [
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
export type OnRampFiatCurrency = (typeof ON_RAMP_FIAT_CURRENCIES)[number]

/** On-ramp payment methods, brand neutralised (service-interface.md init_fiat_on_ramp). */
export const ON_RAMP_PAYMENT_METHODS = /* @__PURE__ */ prefixed('FIAT_ON_RAMP_PAYMENT_METHOD_', [
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
export type OnRampPaymentMethod = (typeof ON_RAMP_PAYMENT_METHODS)[number]

/** OTP delivery channels (service-interface.md init_otp_auth). */
export const OTP_TYPES = ['OTP_TYPE_SMS', 'OTP_TYPE_EMAIL'] as const
export type OtpType = (typeof OTP_TYPES)[number]

/** Raw-payload encodings (wire-formats B4 sign_raw_payload). */
export const PAYLOAD_ENCODINGS = [
  'PAYLOAD_ENCODING_HEXADECIMAL',
  'PAYLOAD_ENCODING_TEXT_UTF8',
  'PAYLOAD_ENCODING_EIP712',
  'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION',
] as const
export type PayloadEncoding = (typeof PAYLOAD_ENCODINGS)[number]

/** Hash functions applied before signing (wire-formats B4 sign_raw_payload). */
export const HASH_FUNCTIONS = [
  'HASH_FUNCTION_NO_OP',
  'HASH_FUNCTION_SHA256',
  'HASH_FUNCTION_KECCAK256',
  'HASH_FUNCTION_NOT_APPLICABLE',
] as const
export type HashFunction = (typeof HASH_FUNCTIONS)[number]

/** Transaction types (wire-formats B4 sign_transaction). */
export const TRANSACTION_TYPES = [
  'TRANSACTION_TYPE_ETHEREUM',
  'TRANSACTION_TYPE_SOLANA',
  'TRANSACTION_TYPE_TRON',
  'TRANSACTION_TYPE_BITCOIN',
  'TRANSACTION_TYPE_TEMPO',
] as const
export type TransactionType = (typeof TRANSACTION_TYPES)[number]

/** Confirmation status of a transaction history item (hosted OpenAPI v1EthTransactionHistoryItem / v1SolTransactionHistoryItem `status`). */
export const TRANSACTION_HISTORY_STATUSES = ['CONFIRMED', 'FINALIZED'] as const
export type TransactionHistoryStatus = (typeof TRANSACTION_HISTORY_STATUSES)[number]

/** Direction of a transaction history transfer relative to the queried address (hosted OpenAPI v1TransactionHistoryTransfer). */
export const TRANSFER_DIRECTIONS = ['IN', 'OUT'] as const
export type TransferDirection = (typeof TRANSFER_DIRECTIONS)[number]

/** API key curves (wire-formats B1.3, B4 create_sub_organization). */
export const API_KEY_CURVES = ['API_KEY_CURVE_P256', 'API_KEY_CURVE_SECP256K1', 'API_KEY_CURVE_ED25519'] as const
export type ApiKeyCurve = (typeof API_KEY_CURVES)[number]

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
export type FeatureName = (typeof FEATURE_NAMES)[number]

/** Vote selections (service-interface.md "Vote"). */
export const VOTE_SELECTIONS = ['VOTE_SELECTION_APPROVED', 'VOTE_SELECTION_REJECTED'] as const
export type VoteSelection = (typeof VOTE_SELECTIONS)[number]

/** Signature schemes: the `X-Stamp` schemes (wire-formats B1.1, B1.3) and app proofs (service-interface.md "App proof"). */
export const SIGNATURE_SCHEMES = [
  'SIGNATURE_SCHEME_TK_API_P256',
  'SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191',
  'SIGNATURE_SCHEME_TK_API_ED25519',
  'SIGNATURE_SCHEME_EPHEMERAL_KEY_P256',
] as const
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number]

/** Schemes of the `X-Stamp-Attested` header (wire-formats B1.4). */
export const STAMP_ATTESTED_SCHEMES = ['STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN', 'STAMP_ATTESTED_SCHEME_P256_OIDC'] as const
export type StampAttestedScheme = (typeof STAMP_ATTESTED_SCHEMES)[number]

/** Client signature scheme (service-interface.md "Client signature"). */
export const CLIENT_SIGNATURE_SCHEMES = ['CLIENT_SIGNATURE_SCHEME_API_P256'] as const
export type ClientSignatureScheme = (typeof CLIENT_SIGNATURE_SCHEMES)[number]

/** Session JWT `session_type` values (wire-formats B3). */
export const SESSION_TYPES = ['SESSION_TYPE_READ_ONLY', 'SESSION_TYPE_READ_WRITE'] as const
export type SessionType = (typeof SESSION_TYPES)[number]

/**
 * Smart-contract interface types (hosted OpenAPI `v1SmartContractInterfaceType`): an Ethereum ABI
 * or a Solana (Anchor) IDL, given as JSON to create_smart_contract_interface.
 */
export const SMART_CONTRACT_INTERFACE_TYPES = ['SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM', 'SMART_CONTRACT_INTERFACE_TYPE_SOLANA'] as const
export type SmartContractInterfaceType = (typeof SMART_CONTRACT_INTERFACE_TYPES)[number]

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
export type MnemonicLanguage = (typeof MNEMONIC_LANGUAGES)[number]

/** Policy effects (hosted OpenAPI `v1Effect`): what a policy does to the activities it applies to. */
export const POLICY_EFFECTS = ['EFFECT_ALLOW', 'EFFECT_DENY'] as const
export type PolicyEffect = (typeof POLICY_EFFECTS)[number]

/** Selector operators of the create_policy V1 / V2 intents (hosted OpenAPI `v1Operator`). */
export const POLICY_OPERATORS = [
  'OPERATOR_EQUAL',
  'OPERATOR_MORE_THAN',
  'OPERATOR_MORE_THAN_OR_EQUAL',
  'OPERATOR_LESS_THAN',
  'OPERATOR_LESS_THAN_OR_EQUAL',
  'OPERATOR_CONTAINS',
  'OPERATOR_NOT_EQUAL',
  'OPERATOR_IN',
  'OPERATOR_NOT_IN',
  'OPERATOR_CONTAINS_ONE',
  'OPERATOR_CONTAINS_ALL',
] as const
export type PolicyOperator = (typeof POLICY_OPERATORS)[number]

/** Policy evaluation outcomes (hosted OpenAPI `v1Outcome`), as get_policy_evaluations reports them. */
export const POLICY_OUTCOMES = [
  'OUTCOME_ALLOW',
  'OUTCOME_DENY_EXPLICIT',
  'OUTCOME_DENY_IMPLICIT',
  'OUTCOME_REQUIRES_CONSENSUS',
  'OUTCOME_REJECTED',
  'OUTCOME_ERROR',
  'OUTCOME_REQUIRES_AUTHENTICATORS',
  'OUTCOME_TIME_INACTIVE',
] as const
export type PolicyOutcome = (typeof POLICY_OUTCOMES)[number]
