import type { z } from 'zod'
import type { recoverUser } from '../../api/operations/recover_user.js'
import { SigilError, invalidField } from '../../api/errors.js'
import { deleteApiKeysOfType, getApiKeyById } from '../store/users.js'
import { registerAuthenticator } from './shared/credentials.js'
import { requireUser } from './shared/lookup.js'
import type { ActivityHandler } from './types.js'

const RECOVERY = 'CREDENTIAL_TYPE_RECOVER_USER_KEY_P256'

/**
 * recover_user (service-interface §2): registers a new passkey for the user, then deletes the
 * user's recovery keys, so the recovery credential stops working once used.
 *
 * @throws FAILED_PRECONDITION when the activity runs after consensus instead of at submission (there is no stamping credential)
 * @throws NOT_FOUND when parameters.userId names no user of the organization
 * @throws INVALID_ARGUMENT when a recovery credential names another user than its own in parameters.userId, or parameters.authenticator's attestation is invalid or names an origin that is not allowed
 * @throws ALREADY_EXISTS when parameters.authenticator's credential id is already registered, in any organization
 */
export const handler: ActivityHandler<z.infer<typeof recoverUser.parameters>> = async (ctx, p) => {
  const principal = ctx.principal
  if (!principal) throw new SigilError('FAILED_PRECONDITION', 'recover_user runs only at submission')
  const user = await requireUser(ctx.tx, ctx.organizationId, p.userId, 'parameters.userId')
  if (principal.credentialKind === 'API_KEY') {
    const key = await getApiKeyById(ctx.tx, principal.credentialId)
    if (key?.credential_type === RECOVERY && key.user_id !== user.id) {
      throw invalidField('parameters.userId', 'a recovery credential can recover only its own user')
    }
  }
  const authenticatorId = await registerAuthenticator(ctx, user.organization_id, user.id, p.authenticator, 'parameters.authenticator')
  await deleteApiKeysOfType(ctx.tx, user.id, RECOVERY)
  return { authenticatorId: [authenticatorId] }
}
