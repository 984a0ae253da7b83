import { normaliseContact } from '../../api/contact.js'
import type { z } from 'zod'
import type { emailAuthV2 } from '../../api/operations/email_auth.js'
import { fieldError, SigilError } from '../../api/errors.js'
import { enqueueMessage } from '../mail/outbox.js'
import { checkEmailOptions, emailAuthEmail, type EmailOptions } from '../mail/templates.js'
import { findUserByContact } from '../auth/contact.js'
import { listFeatures } from '../store/organizations.js'
import { expirySeconds, issueCredentialBundle } from '../auth/sessionKeys.js'
import { requireParentInitiated } from '../otp/parentInitiated.js'
import type { ActivityHandler } from './types.js'

/** Credential type of the keys email_auth delivers. */
export const EMAIL_AUTH_CREDENTIAL_TYPE = 'CREDENTIAL_TYPE_EMAIL_AUTH_KEY_P256'

/**
 * email_auth V1, V2 and V3 (hosted v1EmailAuthIntent*): a fresh EMAIL_AUTH API
 * key for the user with this email (in the organization or its sub-organizations), its private
 * half encrypted to `targetPublicKey` as a credential bundle and emailed through the outbox (in the
 * body, and as the `%s` of `emailCustomization.magicLinkTemplate`). The bundle is never in the
 * result: `{userId, apiKeyId}`. `invalidateExisting` first deletes the user's earlier email-auth keys.
 * (V3 requires `emailCustomization.appName`, its schema says so; the versions differ in nothing else.)
 *
 * @throws INVALID_ARGUMENT when parameters.email is not an email address, an email customization field is invalid, parameters.expirationSeconds is not a positive number of seconds or parameters.targetPublicKey is not a hex P-256 public key
 * @throws NOT_FOUND when no user has parameters.email in the organization or its sub-organizations
 * @throws PERMISSION_DENIED when a sub-organization's own credential submits it for that sub-organization (its parent starts it)
 * @throws FAILED_PRECONDITION when FEATURE_NAME_EMAIL_AUTH is disabled for the user's organization, or no email delivery is configured and the dev mailbox is off
 */
export const handler: ActivityHandler<z.infer<typeof emailAuthV2.parameters>> = async (ctx, p) => {
  await requireParentInitiated(ctx, 'email auth')
  const email = normaliseContact('OTP_TYPE_EMAIL', p.email, 'parameters.email')
  const options: EmailOptions = { ...p, ...p.emailCustomization, appName: p.emailCustomization?.appName ?? '' }
  // appName is optional before V3 (V3's schema requires it): without one the email names no application.
  checkEmailOptions({ ...options, appName: options.appName || '-' }, 'parameters', 'parameters.emailCustomization', ctx.rt.config)
  const expirationSeconds = expirySeconds(p.expirationSeconds, 'parameters.expirationSeconds')
  const user = await findUserByContact(ctx.tx, ctx.organizationId, 'OTP_TYPE_EMAIL', email)
  if (!user) {
    throw fieldError('NOT_FOUND', 'parameters.email', 'no user with this email in the organization or its sub-organizations')
  }
  const features = await listFeatures(ctx.tx, user.organization_id)
  if (features.some((f) => f.name === 'FEATURE_NAME_EMAIL_AUTH' && f.value === 'disabled')) {
    throw new SigilError('FAILED_PRECONDITION', 'email auth is disabled for this organization (FEATURE_NAME_EMAIL_AUTH)')
  }
  const { apiKeyId, credentialBundle } = await issueCredentialBundle(ctx, {
    orgId: user.organization_id,
    userId: user.id,
    targetPublicKey: p.targetPublicKey,
    credentialType: EMAIL_AUTH_CREDENTIAL_TYPE,
    apiKeyName: p.apiKeyName || `Email Auth - ${ctx.now}`,
    expirationSeconds,
    invalidateExisting: p.invalidateExisting,
  })
  await enqueueMessage(
    ctx.tx,
    ctx.rt,
    { ...emailAuthEmail(options, email, credentialBundle, expirationSeconds, ctx.rt.config.mailFrom), organization_id: ctx.organizationId },
    ctx.now,
  )
  ctx.rt.log.info('email auth initiated', { userId: user.id, organizationId: user.organization_id })
  return { userId: user.id, apiKeyId }
}
