/** list_fiat_on_ramp_credentials (Turnkey `v1ListFiatOnRampCredentialsResponse`; secrets omitted). */
import { z } from 'zod'
import { FiatOnRampCredential, OrganizationScoped } from '../common.js'
import { defineQuery } from '../operation.js'

/** Lists the organization's on-ramp credentials. */
export const listFiatOnRampCredentials = defineQuery({
  name: 'list_fiat_on_ramp_credentials',
  path: '/public/v1/query/list_fiat_on_ramp_credentials',
  request: OrganizationScoped,
  response: z.object({ fiatOnRampCredentials: z.array(FiatOnRampCredential) }),
})
