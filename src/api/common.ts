/**
 * Shared wire records (service-interface.md "Resources and their fields"; wire-formats
 * A1, B4, B7). Request-side objects use zod's default (strip unknown keys); records the
 * service returns are plain objects too, so parsing a response keeps only known fields.
 */
import { z } from 'zod'
import {
  ActivityStatus,
  ActivityType,
  AddressFormat,
  ApiKeyCurve,
  AuthenticatorTransport,
  ClientSignatureScheme,
  CredentialType,
  Curve,
  FeatureName,
  HostedOnRampProvider,
  PathFormat,
  SignatureScheme,
  VoteSelection,
  PolicyEffect,
  PolicyOutcome,
} from './enums.js'
import { DigitString, ExpirationSeconds, PageLimit, StringArray, boundedArray } from './fields.js'
import {
  MAX_API_KEYS_PER_USER,
  MAX_AUTHENTICATORS_PER_USER,
  MAX_AUTHENTICATOR_TRANSPORTS,
  MAX_OAUTH_PROVIDERS_PER_USER,
  MAX_WALLET_ACCOUNTS,
} from './limits.js'

/** `{seconds, nanos}` as strings (service-interface.md "Timestamp object"; wire-formats B7). */
export const Timestamp = z.object({ seconds: z.string(), nanos: z.string() })
export type Timestamp = z.infer<typeof Timestamp>

/** A query-response Timestamp or a submit-response ms string (wire-formats A1). */
export const TimestampOrMs = z.union([Timestamp, z.string()])
export type TimestampOrMs = z.infer<typeof TimestampOrMs>

/** Credential `{publicKey, type}` (service-interface.md "Credential"). */
export const Credential = z.object({ publicKey: z.string(), type: CredentialType, sessionProfileId: z.string().optional() })
export type Credential = z.infer<typeof Credential>

/** API key record (service-interface.md "API key record"). */
export const ApiKey = z.object({
  credential: Credential,
  apiKeyId: z.string(),
  apiKeyName: z.string(),
  expirationSeconds: z.string().optional(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
})
export type ApiKey = z.infer<typeof ApiKey>

/** A user or private-key tag (hosted OpenAPI datav1Tag). */
export const Tag = z.object({
  tagId: z.string(),
  tagName: z.string(),
  tagType: z.enum(['TAG_TYPE_USER', 'TAG_TYPE_PRIVATE_KEY']),
  createdAt: Timestamp,
  updatedAt: Timestamp,
})
export type Tag = z.infer<typeof Tag>

/** A private key (hosted OpenAPI v1PrivateKey); `publicKey` hex, addresses in the order asked for. */
export const PrivateKey = z.object({
  privateKeyId: z.string(),
  publicKey: z.string(),
  privateKeyName: z.string(),
  curve: z.string(),
  addresses: z.array(z.object({ format: z.string(), address: z.string() })),
  privateKeyTags: z.array(z.string()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  exported: z.boolean(),
  imported: z.boolean(),
})
export type PrivateKey = z.infer<typeof PrivateKey>

/** Authenticator record (service-interface.md "Authenticator record"). */
export const Authenticator = z.object({
  transports: z.array(AuthenticatorTransport),
  attestationType: z.string(),
  aaguid: z.string(),
  credentialId: z.string(),
  model: z.string(),
  credential: Credential,
  authenticatorId: z.string(),
  authenticatorName: z.string(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
})
export type Authenticator = z.infer<typeof Authenticator>

/** OAuth provider record (service-interface.md "OAuth provider record"). */
export const OauthProvider = z.object({
  providerId: z.string(),
  providerName: z.string(),
  issuer: z.string(),
  audience: z.string(),
  subject: z.string(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
})
export type OauthProvider = z.infer<typeof OauthProvider>

/** User record (service-interface.md "User"; wire-formats B4 get_user: email/phone optional, mfaPolicies). */
export const User = z.object({
  userId: z.string(),
  userName: z.string(),
  userEmail: z.string().optional(),
  userPhoneNumber: z.string().optional(),
  authenticators: z.array(Authenticator),
  apiKeys: z.array(ApiKey),
  userTags: StringArray,
  oauthProviders: z.array(OauthProvider),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  mfaPolicies: z.array(z.record(z.string(), z.unknown())),
})
export type User = z.infer<typeof User>

/** Attestation, current form (service-interface.md "Attestation (current form)"; wire-formats B1.2). */
export const Attestation = z.object({
  credentialId: z.string(),
  clientDataJson: z.string(),
  attestationObject: z.string(),
  transports: boundedArray(AuthenticatorTransport, MAX_AUTHENTICATOR_TRANSPORTS),
})
export type Attestation = z.infer<typeof Attestation>

/** Attestation, legacy form inside older intents (service-interface.md "Attestation (legacy form)"). */
export const LegacyAttestation = z.object({
  id: z.string(),
  type: z.string(),
  rawId: z.string(),
  authenticatorAttachment: z.string().optional(),
  response: z.object({
    clientDataJson: z.string(),
    attestationObject: z.string(),
    transports: boundedArray(AuthenticatorTransport, MAX_AUTHENTICATOR_TRANSPORTS),
    authenticatorAttachment: z.string().optional(),
  }),
  clientExtensionResults: z.object({
    appid: z.boolean().optional(),
    appidExclude: z.boolean().optional(),
    credProps: z.object({ rk: z.boolean() }).optional(),
  }),
})
export type LegacyAttestation = z.infer<typeof LegacyAttestation>

/** Authenticator parameter, current form (service-interface.md "Authenticator parameter"). */
export const AuthenticatorParams = z.object({
  authenticatorName: z.string(),
  challenge: z.string(),
  attestation: Attestation,
})
export type AuthenticatorParams = z.infer<typeof AuthenticatorParams>

/** A user's `authenticators` in a request: at most {@link MAX_AUTHENTICATORS_PER_USER}. */
export const AuthenticatorsParam = boundedArray(AuthenticatorParams, MAX_AUTHENTICATORS_PER_USER)

/** Authenticator parameter, legacy form (service-interface.md "Attestation (legacy form)"). */
export const LegacyAuthenticatorParams = z.object({
  authenticatorName: z.string(),
  userId: z.string(),
  attestation: LegacyAttestation,
  challenge: z.string(),
})
export type LegacyAuthenticatorParams = z.infer<typeof LegacyAuthenticatorParams>

/** API key parameter `{apiKeyName, publicKey, curveType, expirationSeconds?}` (wire-formats B4). */
export const ApiKeyParams = z.object({
  apiKeyName: z.string(),
  publicKey: z.string(),
  curveType: ApiKeyCurve,
  expirationSeconds: ExpirationSeconds.optional(),
})
export type ApiKeyParams = z.infer<typeof ApiKeyParams>

/** API key parameter of the older intents (hosted apiApiKeyParams): no `curveType`, so P-256. */
export const ApiKeyParamsNoCurve = z.object({
  apiKeyName: z.string(),
  publicKey: z.string(),
  expirationSeconds: ExpirationSeconds.optional(),
})
export type ApiKeyParamsNoCurve = z.infer<typeof ApiKeyParamsNoCurve>

/** An API key of the older intents with its curve made explicit (P-256). */
export function withP256(k: ApiKeyParamsNoCurve): ApiKeyParams {
  return { ...k, curveType: 'API_KEY_CURVE_P256' }
}

/** A user's `apiKeys` in a request: at most {@link MAX_API_KEYS_PER_USER}. */
export const ApiKeysParam = boundedArray(ApiKeyParams, MAX_API_KEYS_PER_USER)

/** OIDC claims `{iss, sub, aud}` (service-interface.md create_sub_organization). */
export const OidcClaims = z.object({ iss: z.string(), sub: z.string(), aud: z.string() })
export type OidcClaims = z.infer<typeof OidcClaims>

/** OAuth provider parameter `{providerName, oidcToken?, oidcClaims?}` (wire-formats B4). */
export const OauthProviderParams = z.object({
  providerName: z.string(),
  oidcToken: z.string().optional(),
  oidcClaims: OidcClaims.optional(),
})
export type OauthProviderParams = z.infer<typeof OauthProviderParams>

/** A user's `oauthProviders` in a request: at most {@link MAX_OAUTH_PROVIDERS_PER_USER}. */
export const OauthProvidersParam = boundedArray(OauthProviderParams, MAX_OAUTH_PROVIDERS_PER_USER)

/** Wallet account parameter (service-interface.md "Wallet account parameter"; B4 adds `name?`). */
export const WalletAccountParams = z.object({
  curve: Curve,
  pathFormat: PathFormat,
  path: z.string(),
  addressFormat: AddressFormat,
  name: z.string().optional(),
})
export type WalletAccountParams = z.infer<typeof WalletAccountParams>

/** The `accounts` of a wallet-creating request: at most {@link MAX_WALLET_ACCOUNTS}. */
export const WalletAccountsParam = boundedArray(WalletAccountParams, MAX_WALLET_ACCOUNTS)

/** A feature `{name, value}` (service-interface.md "Organization configuration"). */
export const Feature = z.object({ name: FeatureName, value: z.string().optional() })
export type Feature = z.infer<typeof Feature>

/** Root quorum `{threshold, userIds}`. */
export const Quorum = z.object({ threshold: z.number(), userIds: StringArray })
export type Quorum = z.infer<typeof Quorum>

/** Organization configuration (service-interface.md "Organization configuration"; B4 get_organization_configs). */
export const OrganizationConfig = z.object({
  features: z.array(Feature).optional(),
  quorum: Quorum.optional(),
})
export type OrganizationConfig = z.infer<typeof OrganizationConfig>

/** Vote (service-interface.md "Vote"). */
export const Vote = z.object({
  id: z.string(),
  userId: z.string(),
  user: User,
  activityId: z.string(),
  selection: VoteSelection,
  message: z.string(),
  publicKey: z.string(),
  signature: z.string(),
  scheme: z.string(),
  createdAt: Timestamp,
})
export type Vote = z.infer<typeof Vote>

/** App proof (service-interface.md "App proof"). */
export const AppProof = z.object({
  scheme: SignatureScheme,
  publicKey: z.string(),
  proofPayload: z.string(),
  signature: z.string(),
})
export type AppProof = z.infer<typeof AppProof>

/** Client signature (service-interface.md "Client signature"; wire-formats B3). */
export const ClientSignature = z.object({
  publicKey: z.string(),
  scheme: ClientSignatureScheme,
  message: z.string(),
  signature: z.string(),
})
export type ClientSignature = z.infer<typeof ClientSignature>

/** One error detail: an object with an `@type`, other keys kept (wire-formats A3). */
export const FailureDetail = z.looseObject({ '@type': z.string() })
export type FailureDetail = z.infer<typeof FailureDetail>

/** Failure / error body `{code, message, details}` (service-interface.md "Errors" 1; wire-formats A3, B5). */
export const Failure = z.object({
  code: z.number(),
  message: z.string(),
  details: z.array(FailureDetail),
})
export type Failure = z.infer<typeof Failure>

/** Webhook endpoint record (service-interface.md "Webhook endpoint"). */
export const WebhookEndpoint = z.object({
  endpointId: z.string(),
  organizationId: z.string(),
  url: z.string(),
  name: z.string(),
  isActive: z.boolean(),
  subscriptions: z.array(z.object({ eventType: z.string(), filtersJson: z.string(), isActive: z.boolean() })),
})
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>

/** `intent` / `result` maps: one entry per key, each an object (service-interface.md "Activity object"). */
export const KeyedObjects = z.record(z.string(), z.record(z.string(), z.unknown()))
export type KeyedObjects = z.infer<typeof KeyedObjects>

/**
 * Activity object (service-interface.md "Activity object"; wire-formats A1, B7).
 * `type` is a plain string so activities of types newer than our list still parse
 * when the client reads a hosted service; requests use the strict {@link ActivityType}.
 */
export const Activity = z.object({
  id: z.string(),
  organizationId: z.string(),
  status: ActivityStatus,
  type: z.string(),
  timestampMs: z.string().optional(),
  intent: KeyedObjects,
  result: KeyedObjects,
  votes: z.array(Vote),
  appProofs: z.array(AppProof).optional(),
  fingerprint: z.string(),
  canApprove: z.boolean(),
  canReject: z.boolean(),
  createdAt: TimestampOrMs,
  updatedAt: TimestampOrMs,
  failure: Failure.optional(),
})
export type Activity = z.infer<typeof Activity>

/**
 * Submit envelope `{type, timestampMs, organizationId, parameters, generateAppProofs?}`
 * (service-interface.md "Common submit envelope"). `parameters` is any JSON object here;
 * the operation's own schema validates it.
 */
export const SubmitEnvelope = z.object({
  type: ActivityType,
  timestampMs: DigitString,
  organizationId: z.string().min(1, { error: 'required' }),
  parameters: z.record(z.string(), z.unknown()),
  generateAppProofs: z.boolean().optional(),
})
export type SubmitEnvelope = z.infer<typeof SubmitEnvelope>

/** Submit response `{activity}` (wire-formats A1, B7). */
export const SubmitResponse = z.object({ activity: Activity })
export type SubmitResponse = z.infer<typeof SubmitResponse>

/**
 * Pagination options of every list query (list_activities, list_wallet_accounts, list_suborgs, the
 * transaction histories):
 * `limit` digits 1..100, default 10; `after`/`before` ids of rows of the same list, exclusive
 * (wire-formats B4, B6, B7). The service pages them all the same way (src/service/store/page.ts).
 */
export const PaginationOptions = z.object({
  limit: PageLimit.optional(),
  before: z.string().optional(),
  after: z.string().optional(),
})
export type PaginationOptions = z.infer<typeof PaginationOptions>

/** Where a page sits in its list (hosted OpenAPI v1PageInfo): the cursors are ids of its first and last rows. */
export const PageInfo = z.object({
  hasNextPage: z.boolean().optional(),
  hasPreviousPage: z.boolean().optional(),
  startCursor: z.string().optional(),
  endCursor: z.string().optional(),
})
export type PageInfo = z.infer<typeof PageInfo>

/** Wallet record (wire-formats B4 list_wallets). */
export const Wallet = z.object({
  walletId: z.string(),
  walletName: z.string(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  exported: z.boolean(),
  imported: z.boolean(),
})
export type Wallet = z.infer<typeof Wallet>

/** Wallet account record (wire-formats B4 list_wallet_accounts). */
export const WalletAccount = z.object({
  walletAccountId: z.string(),
  organizationId: z.string(),
  walletId: z.string(),
  curve: Curve,
  pathFormat: PathFormat,
  path: z.string(),
  addressFormat: AddressFormat,
  address: z.string(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  publicKey: z.string().optional(),
  walletDetails: Wallet.optional(),
  name: z.string().optional(),
  caip2Prefix: z.string().optional(),
})
export type WalletAccount = z.infer<typeof WalletAccount>

/** Fiat on-ramp credential record (list_fiat_on_ramp_credentials); secrets are never returned. */
export const FiatOnRampCredential = z.object({
  fiatOnrampCredentialId: z.string(),
  organizationId: z.string(),
  /** The hosted name (COINBASE or MOONPAY), whichever spelling created the credential. */
  onrampProvider: HostedOnRampProvider,
  projectId: z.string().optional(),
  publishableApiKey: z.string(),
  sandboxMode: z.boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
})
export type FiatOnRampCredential = z.infer<typeof FiatOnRampCredential>

/**
 * Smart-contract interface record (hosted OpenAPI externaldatav1SmartContractInterface): the ABI or
 * IDL as the JSON text it was created with; `type` is the SmartContractInterfaceType name and
 * `notes` is empty when none were given.
 */
export const SmartContractInterface = z.object({
  organizationId: z.string(),
  smartContractInterfaceId: z.string(),
  smartContractAddress: z.string(),
  smartContractInterface: z.string(),
  type: z.string(),
  label: z.string(),
  notes: z.string(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
})
export type SmartContractInterface = z.infer<typeof SmartContractInterface>

/**
 * Policy record (hosted OpenAPI v1Policy): the expressions as they were written (`condition` and
 * `consensus` empty when none was given, `time` absent then).
 */
export const Policy = z.object({
  policyId: z.string(),
  policyName: z.string(),
  effect: PolicyEffect,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  notes: z.string(),
  consensus: z.string(),
  condition: z.string(),
  time: z.string().optional(),
})
export type Policy = z.infer<typeof Policy>

/**
 * The recorded evaluation of one vote of an activity (hosted OpenAPI
 * externalactivityv1PolicyEvaluation): each policy that was run and its outcome.
 */
export const PolicyEvaluationRecord = z.object({
  id: z.string(),
  activityId: z.string(),
  organizationId: z.string(),
  voteId: z.string(),
  policyEvaluations: z.array(z.object({ policyId: z.string(), outcome: PolicyOutcome })),
  createdAt: Timestamp,
})
export type PolicyEvaluationRecord = z.infer<typeof PolicyEvaluationRecord>

/** Every query request carries the organization it reads. */
export const OrganizationScoped = z.object({ organizationId: z.string().min(1, { error: 'required' }) })
