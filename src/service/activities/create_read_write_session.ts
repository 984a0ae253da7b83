import { normaliseContact } from '../../api/contact.js'
import type { z } from 'zod'
import type { createReadWriteSession, createReadWriteSessionV1 } from '../../api/operations/create_read_write_session.js'
import { SigilError, fieldError, invalidField } from '../../api/errors.js'
import { findUserByContact } from '../auth/contact.js'
import { getOrganization } from '../store/organizations.js'
import { renamed } from '../fieldNames.js'
import { requireUser } from './shared/lookup.js'
import { expirySeconds, issueCredentialBundle } from '../auth/sessionKeys.js'
import type { ActivityHandler } from './types.js'

/**
 * create_read_write_session V2 (service-interface §10): a fresh READ_WRITE_SESSION key for the
 * stamping user (or, from a parent organization, for `userId` of the sub-organization) as a
 * credential bundle. A WebAuthn stamp naming the parent resolves to the sub-organization.
 *
 * @throws FAILED_PRECONDITION when the activity runs after consensus instead of at submission (there is no stamping credential)
 * @throws INVALID_ARGUMENT when parameters.userId names another user of the stamping user's own organization, parameters.expirationSeconds is not a positive number of seconds or parameters.targetPublicKey is not a hex P-256 public key
 * @throws NOT_FOUND when the user (parameters.userId, else the stamping user) is not in the organization
 */
export const handler: ActivityHandler<z.infer<typeof createReadWriteSession.parameters>> = async (ctx, p) => {
  const principal = ctx.principal
  if (!principal) throw new SigilError('FAILED_PRECONDITION', 'create_read_write_session runs only at submission')
  const userId = p.userId || principal.userId
  if (userId !== principal.userId && principal.organizationId === ctx.organizationId) {
    throw invalidField('parameters.userId', 'a session can be created only for the stamping user')
  }
  const user = await requireUser(ctx.tx, ctx.organizationId, userId, 'parameters.userId')
  const org = await getOrganization(ctx.tx, ctx.organizationId)
  const { apiKeyId, credentialBundle } = await issueCredentialBundle(ctx, {
    orgId: ctx.organizationId,
    userId,
    targetPublicKey: p.targetPublicKey,
    credentialType: 'CREDENTIAL_TYPE_READ_WRITE_SESSION_KEY_P256',
    apiKeyName: p.apiKeyName || `Read Write Session - ${ctx.now}`,
    expirationSeconds: expirySeconds(p.expirationSeconds, 'parameters.expirationSeconds'),
    invalidateExisting: p.invalidateExisting,
  })
  return {
    organizationId: ctx.organizationId,
    organizationName: org?.name ?? '',
    userId,
    username: user.user_name,
    apiKeyId,
    credentialBundle,
  }
}

/**
 * create_read_write_session V1: the session is for the user of the organization with
 * parameters.email; otherwise as V2 (errors about the user name parameters.email).
 *
 * @throws NOT_FOUND when no user of the organization has parameters.email
 * @throws INVALID_ARGUMENT when parameters.email is not an email address or names another user of the stamping user's own organization, or as V2
 */
export const handlerV1: ActivityHandler<z.infer<typeof createReadWriteSessionV1.parameters>> = async (ctx, p) => {
  const email = normaliseContact('OTP_TYPE_EMAIL', p.email, 'parameters.email')
  const user = await findUserByContact(ctx.tx, ctx.organizationId, 'OTP_TYPE_EMAIL', email)
  if (!user || user.organization_id !== ctx.organizationId) {
    throw fieldError('NOT_FOUND', 'parameters.email', 'no user with this email in the organization')
  }
  const { email: _, ...rest } = p
  try {
    return await handler(ctx, { ...rest, userId: user.id })
  } catch (e) {
    throw renamed(e, (f) => (f === 'parameters.userId' ? 'parameters.email' : f))
  }
}
