import type { z } from 'zod'
import { onRampProviderOf } from '../../api/enumLists.js'
import type { createFiatOnRampCredential } from '../../api/operations/create_fiat_on_ramp_credential.js'
import { refuseCredentialClash, withCredentialFields } from '../onramp/credentials.js'
import { insertCredential } from '../store/onramp.js'
import type { ActivityHandler } from './types.js'

/**
 * create_fiat_on_ramp_credential (service-interface.md submit 11): one credential per
 * (organization, provider, sandboxMode); secrets are decrypted in memory and sealed at rest.
 *
 * @throws ALREADY_EXISTS when the organization already has a credential for parameters.onrampProvider with the same sandboxMode
 * @throws BUNDLE_INVALID when parameters.encryptedSecretApiKey or parameters.encryptedPrivateApiKey is not encrypted to the service's on-ramp key
 */
export const handler: ActivityHandler<z.infer<typeof createFiatOnRampCredential.parameters>> = async (ctx, p) => {
  const sandboxMode = p.sandboxMode ?? false
  await refuseCredentialClash(ctx.tx, ctx.organizationId, onRampProviderOf(p.onrampProvider), sandboxMode)
  const id = crypto.randomUUID()
  await withCredentialFields(ctx.rt.keys.onramp.privateKey, p, (fields) =>
    insertCredential(ctx.tx, ctx.rt.secrets, { ...fields, id, orgId: ctx.organizationId, sandboxMode, now: ctx.now }),
  )
  return { fiatOnRampCredentialId: id }
}
