import type { z } from 'zod'
import { fieldError, invalidField } from '../../api/errors.js'
import type { createInvitations } from '../../api/operations/create_invitations.js'
import { enqueueMessage } from '../mail/outbox.js'
import { invitationEmail } from '../mail/templates.js'
import { normaliseContact } from '../../api/contact.js'
import { insertInvitation, openInvitationExists } from '../store/invitations.js'
import { getOrganization } from '../store/organizations.js'
import { findOrgUserByEmail } from '../store/users.js'
import { INVITATION_TTL_HOURS, hashInvitationCode, newInvitationCode } from './shared/invitations.js'
import { requireUser } from './shared/lookup.js'
import { requireTag } from './shared/tags.js'
import type { ActivityHandler } from './types.js'

/**
 * create_invitations: for each invitation a pre-allocated user id and a one-time code (stored as an
 * HMAC), mailed to the receiver through the outbox in the activity's transaction; `{invitationIds}`.
 *
 * @throws INVALID_ARGUMENT when an invitation's receiverUserName is blank or its receiverUserEmail is not an email address
 * @throws NOT_FOUND when an invitation's senderUserId names no user of the organization, or one of its receiverUserTags no user tag of it
 * @throws ALREADY_EXISTS when a user of the organization already has the email, or an open invitation to it exists (or the request names it twice)
 * @throws FAILED_PRECONDITION when no email delivery is configured and the dev mailbox is off
 */
export const handler: ActivityHandler<z.infer<typeof createInvitations.parameters>> = async (ctx, p) => {
  const orgId = ctx.organizationId
  const organizationName = (await getOrganization(ctx.tx, orgId))?.name ?? ''
  const emails = new Set<string>()
  const invitationIds: string[] = []
  for (const [i, inv] of p.invitations.entries()) {
    const f = `parameters.invitations[${i}]`
    if (!inv.receiverUserName.trim()) throw invalidField(`${f}.receiverUserName`, 'required')
    const email = normaliseContact('OTP_TYPE_EMAIL', inv.receiverUserEmail, `${f}.receiverUserEmail`)
    const sender = await requireUser(ctx.tx, orgId, inv.senderUserId, `${f}.senderUserId`)
    const tags = new Set<string>()
    for (const [j, id] of inv.receiverUserTags.entries()) {
      tags.add((await requireTag(ctx.tx, orgId, 'TAG_TYPE_USER', id, `${f}.receiverUserTags[${j}]`)).id)
    }
    if (await findOrgUserByEmail(ctx.tx, orgId, email)) {
      throw fieldError('ALREADY_EXISTS', `${f}.receiverUserEmail`, 'a user of the organization already has this email')
    }
    if (emails.has(email) || (await openInvitationExists(ctx.tx, orgId, email))) {
      throw fieldError('ALREADY_EXISTS', `${f}.receiverUserEmail`, 'an open invitation to this email already exists')
    }
    emails.add(email)

    const invitationId = crypto.randomUUID()
    const userId = crypto.randomUUID()
    const code = newInvitationCode()
    await insertInvitation(ctx.tx, {
      id: invitationId,
      organization_id: orgId,
      receiver_user_name: inv.receiverUserName,
      receiver_email: email,
      receiver_user_tags: [...tags],
      access_type: inv.accessType,
      sender_user_id: sender.id,
      user_id: userId,
      code_hash: hashInvitationCode(ctx.rt, invitationId, code),
      expires_at: ctx.now + INVITATION_TTL_HOURS * 3_600_000,
      created_at: ctx.now,
    })
    const mail = invitationEmail(
      { organizationName, senderName: sender.user_name, invitationId, userId, code, expiresInHours: INVITATION_TTL_HOURS },
      email,
      ctx.rt.config.mailFrom,
    )
    await enqueueMessage(ctx.tx, ctx.rt, { ...mail, organization_id: ctx.organizationId }, ctx.now)
    invitationIds.push(invitationId)
  }
  ctx.rt.log.info('invitations created', { organizationId: orgId, count: invitationIds.length })
  return { invitationIds }
}
