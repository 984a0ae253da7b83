/** delete_fiat_on_ramp_credential (service-interface.md activity list; Turnkey `v1DeleteFiatOnRampCredentialIntent`). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'

/** Deletes on-ramp credentials: ACTIVITY_TYPE_DELETE_FIAT_ON_RAMP_CREDENTIAL. */
export const deleteFiatOnRampCredential = defineSubmit({
  name: 'delete_fiat_on_ramp_credential',
  path: '/public/v1/submit/delete_fiat_on_ramp_credential',
  type: 'ACTIVITY_TYPE_DELETE_FIAT_ON_RAMP_CREDENTIAL',
  intentKey: 'deleteFiatOnRampCredentialIntent',
  resultKey: 'deleteFiatOnRampCredentialResult',
  parameters: z.object({ fiatOnrampCredentialId: z.string() }),
  result: z.object({ fiatOnRampCredentialId: z.string() }),
})
