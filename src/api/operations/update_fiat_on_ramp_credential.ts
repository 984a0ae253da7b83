/** update_fiat_on_ramp_credential (service-interface.md "Submit operations" 12; note `fiatOnrampCredentialId`). */
import { z } from 'zod'
import { OnRampProviderName } from '../enums.js'
import { defineSubmit } from '../operation.js'

/** Replaces on-ramp credentials: ACTIVITY_TYPE_UPDATE_FIAT_ON_RAMP_CREDENTIAL. */
export const updateFiatOnRampCredential = defineSubmit({
  name: 'update_fiat_on_ramp_credential',
  path: '/public/v1/submit/update_fiat_on_ramp_credential',
  type: 'ACTIVITY_TYPE_UPDATE_FIAT_ON_RAMP_CREDENTIAL',
  intentKey: 'updateFiatOnRampCredentialIntent',
  resultKey: 'updateFiatOnRampCredentialResult',
  parameters: z.object({
    fiatOnrampCredentialId: z.string(),
    /** Either spelling (ALPHA = COINBASE, BETA = MOONPAY); the intent echoes it as sent. */
    onrampProvider: OnRampProviderName,
    projectId: z.string().optional(),
    publishableApiKey: z.string(),
    encryptedSecretApiKey: z.string(),
    encryptedPrivateApiKey: z.string().optional(),
  }),
  result: z.object({ fiatOnRampCredentialId: z.string() }),
})
