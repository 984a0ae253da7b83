/** create_sub_organization (service-interface.md "Submit operations" 3; wire-formats B4). */
import { z } from 'zod'
import { ApiKeyParams, AuthenticatorParams, ClientSignature, OauthProviderParams, WalletAccountParams } from '../common.js'
import { MnemonicLength, StringArray, Threshold } from '../fields.js'
import { defineSubmit } from '../operation.js'

/** One root user of the new sub-organization; arrays are sent empty when unused. */
export const RootUserParams = z.object({
  userName: z.string(),
  userEmail: z.string().optional(),
  userPhoneNumber: z.string().optional(),
  apiKeys: z.array(ApiKeyParams),
  authenticators: z.array(AuthenticatorParams),
  oauthProviders: z.array(OauthProviderParams),
})
export type RootUserParams = z.infer<typeof RootUserParams>

/** Wallet created with the sub-organization: `mnemonicLength` one of 12..24. */
export const WalletParams = z.object({
  walletName: z.string(),
  accounts: z.array(WalletAccountParams),
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
    rootUsers: z.array(RootUserParams),
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
