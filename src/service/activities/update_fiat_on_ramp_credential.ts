import type { z } from 'zod'
import { onRampProviderOf } from '../../api/enumLists.js'
import { fieldError } from '../../api/errors.js'
import type { updateFiatOnRampCredential } from '../../api/operations/update_fiat_on_ramp_credential.js'
import { refuseCredentialClash, withCredentialFields } from '../onramp/credentials.js'
import { getCredential, updateCredential } from '../store/onramp.js'
import type { ActivityHandler } from './types.js'

/**
 * update_fiat_on_ramp_credential (service-interface.md submit 12; `fiatOnrampCredentialId`):
 * replaces provider, keys and secrets of one credential; its sandboxMode is kept.
 *
 * @throws NOT_FOUND when parameters.fiatOnrampCredentialId names no on-ramp credential of the organization
 * @throws ALREADY_EXISTS when another credential of the organization has parameters.onrampProvider with the same sandboxMode
 * @throws BUNDLE_INVALID when parameters.encryptedSecretApiKey or parameters.encryptedPrivateApiKey is not encrypted to the service's on-ramp key
 */
export const handler: ActivityHandler<z.infer<typeof updateFiatOnRampCredential.parameters>> = async (ctx, p) => {
  const row = await getCredential(ctx.tx, ctx.organizationId, p.fiatOnrampCredentialId)
  if (!row) throw fieldError('NOT_FOUND', 'parameters.fiatOnrampCredentialId', 'no such on-ramp credential in the organization')
  await refuseCredentialClash(ctx.tx, ctx.organizationId, onRampProviderOf(p.onrampProvider), row.sandbox_mode, row.id)
  await withCredentialFields(ctx.rt.keys.onramp.privateKey, p, (fields) =>
    updateCredential(ctx.tx, ctx.rt.secrets, { ...fields, id: row.id, now: ctx.now }),
  )
  return { fiatOnRampCredentialId: row.id }
}
