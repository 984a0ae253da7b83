import type { QueryHandler } from './types.js'
import { credentialToWire, listCredentials } from '../store/onramp.js'

/** list_fiat_on_ramp_credentials: `{organizationId}` → `{fiatOnRampCredentials}`, never a secret. */
export const handler: QueryHandler = async ({ sql, organizationId }) => {
  return { fiatOnRampCredentials: (await listCredentials(sql, organizationId)).map(credentialToWire) }
}
