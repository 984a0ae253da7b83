import { normaliseContact } from '../../api/contact.js'
import type { z } from 'zod'
import type { initUserEmailRecovery, initUserEmailRecoveryV1 } from '../../api/operations/init_user_email_recovery.js'
import { fieldError, SigilError } from '../../api/errors.js'
import { enqueueMessage } from '../mail/outbox.js'
import { checkEmailOptions, recoveryEmail, type EmailOptions } from '../mail/templates.js'
import { findUserByContact } from '../auth/contact.js'
import { listFeatures } from '../store/organizations.js'
import { expirySeconds, issueCredentialBundle } from '../auth/sessionKeys.js'
import { appNameOf } from './shared/olderVersions.js'
import { requireParentInitiated } from '../otp/parentInitiated.js'
import type { ActivityHandler } from './types.js'

/**
 * init_user_email_recovery V2 (service-interface §9): a fresh RECOVER_USER key (replacing any
 * earlier one) for the user with this email, its credential bundle emailed to them (in the
 * body, and in the magic link when a template is given). Result `{userId}`.
 *
 * @throws INVALID_ARGUMENT when parameters.email is not an email address, an email customization field is invalid, parameters.expirationSeconds is not a positive number of seconds or parameters.targetPublicKey is not a hex P-256 public key
 * @throws NOT_FOUND when no user has parameters.email in the organization or its sub-organizations
 * @throws PERMISSION_DENIED when a sub-organization's own credential submits it for that sub-organization (its parent starts it)
 * @throws FAILED_PRECONDITION when email recovery is disabled for the user's organization, or no email delivery is configured and the dev mailbox is off
 */
export const handler: ActivityHandler<z.infer<typeof initUserEmailRecovery.parameters>> = async (ctx, p) => {
  await requireParentInitiated(ctx, 'email recovery')
  const email = normaliseContact('OTP_TYPE_EMAIL', p.email, 'parameters.email')
  const options: EmailOptions = { ...p, ...p.emailCustomization, appName: p.emailCustomization?.appName ?? '' }
  checkEmailOptions(options, 'parameters.emailCustomization', 'parameters.emailCustomization', ctx.rt.config)
  const user = await findUserByContact(ctx.tx, ctx.organizationId, 'OTP_TYPE_EMAIL', email)
  if (!user) {
    throw fieldError('NOT_FOUND', 'parameters.email', 'no user with this email in the organization or its sub-organizations')
  }
  const features = await listFeatures(ctx.tx, user.organization_id)
  if (features.some((f) => f.name === 'FEATURE_NAME_EMAIL_RECOVERY' && f.value === 'disabled')) {
    throw new SigilError('FAILED_PRECONDITION', 'email recovery is disabled for this organization')
  }
  const expirationSeconds = expirySeconds(p.expirationSeconds, 'parameters.expirationSeconds')
  const { credentialBundle } = await issueCredentialBundle(ctx, {
    orgId: user.organization_id,
    userId: user.id,
    targetPublicKey: p.targetPublicKey,
    credentialType: 'CREDENTIAL_TYPE_RECOVER_USER_KEY_P256',
    apiKeyName: `Recovery - ${ctx.now}`,
    expirationSeconds,
    invalidateExisting: true,
  })
  await enqueueMessage(
    ctx.tx,
    ctx.rt,
    { ...recoveryEmail(options, email, credentialBundle, expirationSeconds, ctx.rt.config.mailFrom), organization_id: ctx.organizationId },
    ctx.now,
  )
  ctx.rt.log.info('recovery initiated', { userId: user.id, organizationId: user.organization_id })
  return { userId: user.id }
}

/** init_user_email_recovery V1: as V2, the app name optional (Sigil's when none is given). */
export const handlerV1: ActivityHandler<z.infer<typeof initUserEmailRecoveryV1.parameters>> = (ctx, p) =>
  handler(ctx, { ...p, emailCustomization: { ...p.emailCustomization, appName: appNameOf(p.emailCustomization) } })
