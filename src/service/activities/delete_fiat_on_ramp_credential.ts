import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { deleteFiatOnRampCredential } from '../../api/operations/delete_fiat_on_ramp_credential.js'
import { deleteCredential } from '../store/onramp.js'
import type { ActivityHandler } from './types.js'

/**
 * delete_fiat_on_ramp_credential (service-interface.md activity list): removes one credential and its sealed secrets.
 *
 * @throws NOT_FOUND when parameters.fiatOnrampCredentialId names no on-ramp credential of the organization
 */
export const handler: ActivityHandler<z.infer<typeof deleteFiatOnRampCredential.parameters>> = async (ctx, p) => {
  if (!(await deleteCredential(ctx.tx, ctx.organizationId, p.fiatOnrampCredentialId))) {
    throw fieldError('NOT_FOUND', 'parameters.fiatOnrampCredentialId', 'no such on-ramp credential in the organization')
  }
  return { fiatOnRampCredentialId: p.fiatOnrampCredentialId }
}
