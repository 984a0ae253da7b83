/**
 * The most elements each array of a request may hold, so no request makes the service hold or
 * walk an unbounded list. Every array in a request schema is a {@link boundedArray} with one of
 * these, so an oversized array is refused, naming the field and its maximum, before any of its
 * elements is validated.
 *
 * Where each number comes from:
 * - "hosted resource limits": docs.turnkey.com/concepts/resource-limits. Per organization:
 *   100 users, 100 HD wallets, 100 tags (10 in a sub-organization); per user: 10 authenticators,
 *   10 long-lived and 10 expiring API keys, 10 OAuth providers. A request cannot usefully name
 *   more of a resource than an organization or a user may hold.
 * - "hosted OpenAPI": the field's description in the hosted service's OpenAPI document
 *   (`@turnkey/http` public_api.types.d.ts), which gives no `maxItems` but states some bounds in words.
 * - "Sigil": the hosted service documents no bound; the number is ours, chosen well above real use
 *   and low enough that a request's work stays small.
 *
 * Response arrays are not bounded here: the service writes them, and the typed client reads them
 * from a service it chose (whose bodies its HTTP layer bounds).
 */
import { ACTIVITY_STATUSES, ACTIVITY_TYPES } from './enums.js'

/** Hosted resource limits: 100 users per organization. create_users `users`, delete_users `userIds`, create_sub_organization `rootUsers`, update_root_quorum `userIds`. */
export const MAX_USERS = 100

/** Hosted resource limits: 10 authenticators per user. `authenticators` of a user or of create_authenticators; delete_authenticators `authenticatorIds`. */
export const MAX_AUTHENTICATORS_PER_USER = 10

/** Hosted resource limits: 10 long-lived plus 10 expiring API keys per user. `apiKeys` of a user or of create_api_keys; delete_api_keys `apiKeyIds`. */
export const MAX_API_KEYS_PER_USER = 20

/** Hosted resource limits: 10 OAuth providers per user. `oauthProviders` of a user. */
export const MAX_OAUTH_PROVIDERS_PER_USER = 10

/** Hosted resource limits: 100 tags per organization. create_users `userTags`. */
export const MAX_USER_TAGS = 100

/** Hosted resource limits: 100 HD wallets per organization. delete_wallets `walletIds`. */
export const MAX_WALLETS = 100

/**
 * Sigil: accounts derived (or imported) in one request. The hosted service allows unlimited
 * accounts per wallet and states no per-request bound; each account is a key derivation.
 * create_wallet, create_wallet_accounts, import_wallet and a sub-organization's wallet `accounts`.
 */
export const MAX_WALLET_ACCOUNTS = 100

/**
 * Hosted resource limits: 1,000 private keys per organization; Sigil bounds one request to 100
 * (each key is a key generation). create_private_keys `privateKeys`, delete_private_keys
 * `privateKeyIds`, private-key tag `privateKeyIds`.
 */
export const MAX_PRIVATE_KEYS = 100

/** Sigil: the address formats one private key is given (the interface lists 36). */
export const MAX_ADDRESS_FORMATS = 36

/** Sigil: payloads signed by one sign_raw_payloads request (the hosted service states no bound). */
export const MAX_RAW_PAYLOADS = 100

/** Sigil: update_allowed_origins `allowedOrigins` (the hosted service states no bound). */
export const MAX_ALLOWED_ORIGINS = 100

/**
 * Sigil: an attestation's `transports`. WebAuthn names six transports (usb, nfc, ble, smart-card,
 * hybrid, internal) and a browser lists each once; our AuthenticatorTransport enum has five.
 */
export const MAX_AUTHENTICATOR_TRANSPORTS = 10

/** Sigil: list_activities `filterByStatus` names each activity status at most once. */
export const MAX_STATUS_FILTER = ACTIVITY_STATUSES.length

/** Sigil: list_activities `filterByType` names each activity type at most once. */
export const MAX_TYPE_FILTER = ACTIVITY_TYPES.length

/** Hosted OpenAPI v1EthSendTransactionIntentV2 `calls`: "Must contain between 1 and 50 entries". */
export const MAX_ETH_CALLS = 50

/**
 * Hosted OpenAPI v1SolSendTransactionIntentV2 `signWiths`: "Between 1 and 16 signers for
 * legacy/V0, or up to 12 for V1" (the wire bound is the larger; the transaction's own
 * signature slots bound it further).
 */
export const MAX_SOL_SIGNERS = 16

/*
 * Sizes of single values and counts per organization (not arrays of a request), for smart-contract
 * interfaces (create_smart_contract_interface, list_smart_contract_interfaces).
 */

/**
 * Hosted OpenAPI v1CreateSmartContractInterfaceIntent `smartContractInterface`: "ABI/IDL as a JSON
 * string. Limited to 400kb". Read as 400 KiB of UTF-8 (409,600 bytes): the hosted text does not say
 * whether kb is 1,000 or 1,024 bytes, and the larger reading refuses nothing the hosted one accepts.
 */
export const MAX_SMART_CONTRACT_INTERFACE_BYTES = 400 * 1024

/**
 * Sigil: how deeply an ABI or IDL may nest (arrays and objects, counted from the top). Solidity
 * tuples of tuples and Anchor type trees stay far below; parsing stops here before any recursion.
 */
export const MAX_SMART_CONTRACT_INTERFACE_DEPTH = 64

/** Sigil: the `label` of a smart-contract interface, in characters (the hosted service states no bound). */
export const MAX_SMART_CONTRACT_INTERFACE_LABEL = 256

/** Sigil: the `notes` of a smart-contract interface, in characters (the hosted service states no bound). */
export const MAX_SMART_CONTRACT_INTERFACE_NOTES = 4096

/**
 * Sigil: smart-contract interfaces one organization may hold. The hosted resource limits name none;
 * list_smart_contract_interfaces is not paged (the hosted request has no pagination) and answers
 * every interface in full, so this bounds that answer (at most 100 × 400 KiB). 100 is the hosted
 * limit of the comparable resource, policies per organization.
 */
export const MAX_SMART_CONTRACT_INTERFACES = 100

/** Hosted resource limits: 100 policies per organization. create_policies `policies`, delete_policies `policyIds`. */
export const MAX_POLICIES = 100

/** Sigil: a policy's `policyName` (the hosted service states no bound). */
export const MAX_POLICY_NAME = 256

/** Sigil: a policy's `notes` (the hosted service states no bound). */
export const MAX_POLICY_NOTES = 4096

/** Sigil: selectors of a create_policy V1 / V2 intent (the hosted service states no bound). */
export const MAX_POLICY_SELECTORS = 64

/** Sigil: a selector's `subject`, `target` and each of its `targets` (the hosted service states no bound). */
export const MAX_POLICY_SELECTOR_TEXT = 1024

/** Sigil: CIDR rules of one IP allow-list, set_ip_allowlist `rules` (the hosted service states no bound). */
export const MAX_IP_ALLOWLIST_RULES = 100

/** Sigil: the `label` of an IP allow-list rule, in characters (the hosted service states no bound). */
export const MAX_IP_ALLOWLIST_LABEL = 256

/** Longest session profile name (create_session_profile). */
export const MAX_SESSION_PROFILE_NAME = 256

/** Longest session profile scope, policy language (create_session_profile). */
export const MAX_SESSION_PROFILE_SCOPE = 4096

/** Longest session profile notes (create_session_profile). */
export const MAX_SESSION_PROFILE_NOTES = 4096

/** Longest MFA policy name (create_mfa_policy). */
export const MAX_MFA_POLICY_NAME = 256

/** Longest MFA policy condition, policy language (create_mfa_policy). */
export const MAX_MFA_POLICY_CONDITION = 4096

/** Longest MFA policy notes (create_mfa_policy). */
export const MAX_MFA_POLICY_NOTES = 4096

/** Most steps in an MFA policy's requiredAuthenticationMethods (Sigil bound; the hosted service states none). */
export const MAX_MFA_POLICY_STEPS = 8

/** Sigil: longest velocity control name (create_velocity_control; the hosted service states no bound). */
export const MAX_VELOCITY_CONTROL_NAME = 256

/** Sigil: assets one velocity control measures (`dataSource.chainAssetTransfer.definition`). */
export const MAX_VELOCITY_CONTROL_ASSETS = 32

/** Sigil: activity types one velocity control's filter names. */
export const MAX_VELOCITY_CONTROL_ACTIVITY_FILTERS = 16

/** Sigil: the longest rolling window of a velocity control, in seconds (10 years). */
export const MAX_VELOCITY_CONTROL_WINDOW_SECONDS = 315_360_000

/** Sigil: an OAuth 2.0 credential's `clientId`, in characters (X's and Discord's are well under 100; the hosted service states no bound). */
export const MAX_OAUTH2_CLIENT_ID = 256

/** Sigil: an OAuth 2.0 credential's `encryptedClientSecret`, in characters (a 256-byte secret's envelope is under 700 hex). */
export const MAX_OAUTH2_ENCRYPTED_SECRET = 4096

/** Secrets one init_import_secrets, import_secrets, export_secrets or delete_secrets names (the hosted docs state 1..32 for delete_secrets). */
export const MAX_SECRETS_PER_REQUEST = 32

/** Sigil: longest secret name (import_secrets; names are unique in the organization). */
export const MAX_SECRET_NAME = 256

/** Sigil: the largest secret, in bytes of plaintext (an API key, a card, an MPC key share bundle). */
export const MAX_SECRET_BYTES = 65_536

/** Sigil: an import_secrets `secretPayload`, in characters (the hex envelope of a {@link MAX_SECRET_BYTES} secret, with room). */
export const MAX_SECRET_PAYLOAD = 2 * MAX_SECRET_BYTES + 1024

/** Sigil: static properties bound to one secret, and the lengths of their keys and values. */
export const MAX_SECRET_STATIC_PROPERTIES = 16
export const MAX_SECRET_PROPERTY_KEY = 64
export const MAX_SECRET_PROPERTY_VALUE = 256

/** Sigil: ingress keys init_import_secrets keeps pending per organization (the oldest beyond go). */
export const MAX_PENDING_SECRET_IMPORT_KEYS = 256
