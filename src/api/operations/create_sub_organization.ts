/** create_sub_organization (service-interface.md "Submit operations" 3; wire-formats B4). */
import { z } from 'zod'
import {
  ApiKeyParamsNoCurve,
  ApiKeysParam,
  AuthenticatorParams,
  AuthenticatorsParam,
  ClientSignature,
  OauthProvidersParam,
  WalletAccountsParam,
} from '../common.js'
import { MnemonicLength, StringArray, Threshold, boundedArray } from '../fields.js'
import { MAX_API_KEYS_PER_USER, MAX_OAUTH_PROVIDERS_PER_USER, MAX_PRIVATE_KEYS, MAX_USERS } from '../limits.js'
import { defineSubmit } from '../operation.js'
import { PrivateKeyAddress, PrivateKeyParams } from './create_private_keys.js'

/** One root user of the new sub-organization; arrays are sent empty when unused. */
export const RootUserParams = z.object({
  userName: z.string(),
  userEmail: z.string().optional(),
  userPhoneNumber: z.string().optional(),
  apiKeys: ApiKeysParam,
  authenticators: AuthenticatorsParam,
  oauthProviders: OauthProvidersParam,
})
export type RootUserParams = z.infer<typeof RootUserParams>

/** Wallet created with the sub-organization: `mnemonicLength` one of 12..24. */
export const WalletParams = z.object({
  walletName: z.string(),
  accounts: WalletAccountsParam,
  mnemonicLength: MnemonicLength.optional(),
})
export type WalletParams = z.infer<typeof WalletParams>

const PATH = '/public/v1/submit/create_sub_organization'

const WalletResult = z.object({ walletId: z.string(), addresses: StringArray })
/** Result V4 to V8: the sub-organization, its wallet when one was asked for, its root users. */
const ResultWithWallet = z.object({
  subOrganizationId: z.string(),
  wallet: WalletResult.optional(),
  rootUserIds: StringArray.optional(),
})

/** Creates a sub-organization: ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8; `rootQuorumThreshold` ≥ 1. */
export const createSubOrganization = defineSubmit({
  name: 'create_sub_organization',
  path: PATH,
  type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
  intentKey: 'createSubOrganizationIntentV8',
  resultKey: 'createSubOrganizationResultV8',
  parameters: z.object({
    subOrganizationName: z.string().min(1, { error: 'required' }),
    rootUsers: boundedArray(RootUserParams, MAX_USERS),
    rootQuorumThreshold: Threshold,
    wallet: WalletParams.optional(),
    disableEmailRecovery: z.boolean().optional(),
    disableEmailAuth: z.boolean().optional(),
    disableSmsAuth: z.boolean().optional(),
    disableOtpEmailAuth: z.boolean().optional(),
    verificationToken: z.string().optional(),
    clientSignature: ClientSignature.optional(),
  }),
  result: ResultWithWallet,
})

/** OAuth provider of the older root users (hosted v1OauthProviderParams): by token only. */
const OauthProviderByToken = z.object({ providerName: z.string(), oidcToken: z.string() })
const OauthProvidersByToken = boundedArray(OauthProviderByToken, MAX_OAUTH_PROVIDERS_PER_USER)
const ApiKeysNoCurve = boundedArray(ApiKeyParamsNoCurve, MAX_API_KEYS_PER_USER)

/** Root user V1 (hosted v1RootUserParams): API keys without `curveType` (P-256), no OAuth providers, no phone. */
export const RootUserParamsV1 = z.object({
  userName: z.string(),
  userEmail: z.string().optional(),
  apiKeys: ApiKeysNoCurve,
  authenticators: AuthenticatorsParam,
})
/** Root user V2 (hosted v1RootUserParamsV2): V1 with OAuth providers by token. */
export const RootUserParamsV2 = RootUserParamsV1.extend({ oauthProviders: OauthProvidersByToken })
/** Root user V3 (hosted v1RootUserParamsV3): API keys with `curveType`. */
export const RootUserParamsV3 = RootUserParamsV2.extend({ apiKeys: ApiKeysParam })
/** Root user V4 (hosted v1RootUserParamsV4): V3 with a phone number. */
export const RootUserParamsV4 = RootUserParamsV3.extend({ userPhoneNumber: z.string().optional() })

const V2Fields = {
  subOrganizationName: z.string().min(1, { error: 'required' }),
  rootUsers: boundedArray(RootUserParamsV1, MAX_USERS),
  rootQuorumThreshold: Threshold,
}
const V4Fields = {
  ...V2Fields,
  wallet: WalletParams.optional(),
  disableEmailRecovery: z.boolean().optional(),
  disableEmailAuth: z.boolean().optional(),
}

/**
 * ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION (V1), on the same path: a `name` and one passkey
 * (`rootAuthenticator`, the current attestation form) for a single root user, threshold 1.
 */
export const createSubOrganizationV1 = defineSubmit({
  name: 'create_sub_organization_v1',
  path: PATH,
  type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION',
  intentKey: 'createSubOrganizationIntent',
  resultKey: 'createSubOrganizationResult',
  parameters: z.object({ name: z.string().min(1, { error: 'required' }), rootAuthenticator: AuthenticatorParams }),
  result: z.object({ subOrganizationId: z.string(), rootUserIds: StringArray.optional() }),
})

/** ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V2: root users V1, no wallet; result `createSubOrganizationResult`. */
export const createSubOrganizationV2 = defineSubmit({
  name: 'create_sub_organization_v2',
  path: PATH,
  type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V2',
  intentKey: 'createSubOrganizationIntentV2',
  resultKey: 'createSubOrganizationResult',
  parameters: z.object(V2Fields),
  result: z.object({ subOrganizationId: z.string(), rootUserIds: StringArray.optional() }),
})

/** ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V3: V2 with private keys created in the new sub-organization. */
export const createSubOrganizationV3 = defineSubmit({
  name: 'create_sub_organization_v3',
  path: PATH,
  type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V3',
  intentKey: 'createSubOrganizationIntentV3',
  resultKey: 'createSubOrganizationResultV3',
  parameters: z.object({ ...V2Fields, privateKeys: boundedArray(PrivateKeyParams, MAX_PRIVATE_KEYS) }),
  result: z.object({
    subOrganizationId: z.string(),
    privateKeys: z.array(z.object({ privateKeyId: z.string(), addresses: z.array(PrivateKeyAddress) })),
    rootUserIds: StringArray.optional(),
  }),
})

/** ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V4: root users V1, a wallet, the email recovery / auth flags. */
export const createSubOrganizationV4 = defineSubmit({
  name: 'create_sub_organization_v4',
  path: PATH,
  type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V4',
  intentKey: 'createSubOrganizationIntentV4',
  resultKey: 'createSubOrganizationResultV4',
  parameters: z.object(V4Fields),
  result: ResultWithWallet,
})

/** ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V5: V4 with root users V2 (OAuth providers by token). */
export const createSubOrganizationV5 = defineSubmit({
  name: 'create_sub_organization_v5',
  path: PATH,
  type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V5',
  intentKey: 'createSubOrganizationIntentV5',
  resultKey: 'createSubOrganizationResultV5',
  parameters: z.object({ ...V4Fields, rootUsers: boundedArray(RootUserParamsV2, MAX_USERS) }),
  result: ResultWithWallet,
})

/** ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V6: V5 with root users V3 (API keys with `curveType`). */
export const createSubOrganizationV6 = defineSubmit({
  name: 'create_sub_organization_v6',
  path: PATH,
  type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V6',
  intentKey: 'createSubOrganizationIntentV6',
  resultKey: 'createSubOrganizationResultV6',
  parameters: z.object({ ...V4Fields, rootUsers: boundedArray(RootUserParamsV3, MAX_USERS) }),
  result: ResultWithWallet,
})

/** ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7: V8's fields with root users V4 (OAuth providers by token only). */
export const createSubOrganizationV7 = defineSubmit({
  name: 'create_sub_organization_v7',
  path: PATH,
  type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7',
  intentKey: 'createSubOrganizationIntentV7',
  resultKey: 'createSubOrganizationResultV7',
  parameters: z.object({
    ...V4Fields,
    rootUsers: boundedArray(RootUserParamsV4, MAX_USERS),
    disableSmsAuth: z.boolean().optional(),
    disableOtpEmailAuth: z.boolean().optional(),
    verificationToken: z.string().optional(),
    clientSignature: ClientSignature.optional(),
  }),
  result: ResultWithWallet,
})
