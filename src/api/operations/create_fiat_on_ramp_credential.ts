/** create_fiat_on_ramp_credential (service-interface.md "Submit operations" 11). */
import { z } from 'zod'
import { OnRampProviderName } from '../enums.js'
import { defineSubmit } from '../operation.js'

/** Stores on-ramp provider credentials (secrets arrive encrypted): ACTIVITY_TYPE_CREATE_FIAT_ON_RAMP_CREDENTIAL. */
export const createFiatOnRampCredential = defineSubmit({
  name: 'create_fiat_on_ramp_credential',
  path: '/public/v1/submit/create_fiat_on_ramp_credential',
  type: 'ACTIVITY_TYPE_CREATE_FIAT_ON_RAMP_CREDENTIAL',
  intentKey: 'createFiatOnRampCredentialIntent',
  resultKey: 'createFiatOnRampCredentialResult',
  parameters: z.object({
    /** Either spelling (ALPHA = COINBASE, BETA = MOONPAY); the intent echoes it as sent. */
    onrampProvider: OnRampProviderName,
    projectId: z.string().optional(),
    publishableApiKey: z.string(),
    encryptedSecretApiKey: z.string(),
    encryptedPrivateApiKey: z.string().optional(),
    sandboxMode: z.boolean().optional(),
  }),
  result: z.object({ fiatOnRampCredentialId: z.string() }),
})
