/** create_sub_organization (service-interface.md "Submit operations" 3; wire-formats B4). */
import { z } from 'zod'
import { ApiKeysParam, AuthenticatorsParam, ClientSignature, OauthProvidersParam, WalletAccountsParam } from '../common.js'
import { MnemonicLength, StringArray, Threshold, boundedArray } from '../fields.js'
import { MAX_USERS } from '../limits.js'
import { defineSubmit } from '../operation.js'

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

/** Creates a sub-organization: ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8; `rootQuorumThreshold` ≥ 1. */
export const createSubOrganization = defineSubmit({
  name: 'create_sub_organization',
  path: '/public/v1/submit/create_sub_organization',
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
  result: z.object({
    subOrganizationId: z.string(),
    wallet: z.object({ walletId: z.string(), addresses: StringArray }).optional(),
    rootUserIds: StringArray.optional(),
  }),
})
