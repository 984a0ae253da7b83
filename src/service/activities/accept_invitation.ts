import type { z } from 'zod'
import type { AuthenticatorParams } from '../../api/common.js'
import { SigilError, fieldError, invalidField } from '../../api/errors.js'
import type { acceptInvitation, acceptInvitationV1 } from '../../api/operations/accept_invitation.js'
import { lockInvitation, setInvitationStatus } from '../store/invitations.js'
import { getTag } from '../store/tags.js'
import { findOrgUserByEmail, insertUser } from '../store/users.js'
import { registerAuthenticator } from './shared/credentials.js'
import { invitationCodeMatches } from './shared/invitations.js'
import type { ActivityHandler } from './types.js'

type AcceptParams = { invitationId: string; userId: string; authenticator: AuthenticatorParams }

/**
 * accept_invitation V2: the invitee's user is created (name, email and the tags of the invitation
 * that still exist) under the user id the invitation allocated, with the passkey whose registration
 * challenge is the invitation's code; the invitation is ACCEPTED. `{invitationId, userId}`.
 *
 * @throws NOT_FOUND when parameters.invitationId names no invitation of the organization, or parameters.userId is not the invitation's user
 * @throws FAILED_PRECONDITION when the invitation was already accepted, was revoked or has expired
 * @throws INVALID_ARGUMENT when parameters.authenticator.challenge is not the invitation's code, or the attestation does not verify (see registerAuthenticator)
 * @throws ALREADY_EXISTS when a user of the organization has meanwhile got the invited email, or the passkey is already registered
 */
export const handler: ActivityHandler<z.infer<typeof acceptInvitation.parameters>> = (ctx, p) => accept(ctx, p)

/**
 * accept_invitation V1: the legacy attestation shape (v1PublicKeyCredentialWithAttestation) mapped
 * to the current one; its `authenticator.userId` must be `userId`.
 */
export const handlerV1: ActivityHandler<z.infer<typeof acceptInvitationV1.parameters>> = (ctx, p) => {
  const a = p.authenticator
  if (a.userId !== p.userId) throw invalidField('parameters.authenticator.userId', 'must equal parameters.userId')
  return accept(ctx, {
    invitationId: p.invitationId,
    userId: p.userId,
    authenticator: {
      authenticatorName: a.authenticatorName,
      challenge: a.challenge,
      attestation: {
        credentialId: a.attestation.rawId || a.attestation.id,
        clientDataJson: a.attestation.response.clientDataJson,
        attestationObject: a.attestation.response.attestationObject,
        transports: a.attestation.response.transports,
      },
    },
  })
}

const accept: ActivityHandler<AcceptParams> = async (ctx, p) => {
  const orgId = ctx.organizationId
  const inv = await lockInvitation(ctx.tx, orgId, p.invitationId)
  if (!inv) throw fieldError('NOT_FOUND', 'parameters.invitationId', 'no such invitation in the organization')
  if (inv.status !== 'INVITATION_STATUS_CREATED') {
    const what = inv.status === 'INVITATION_STATUS_ACCEPTED' ? 'was already accepted' : 'was revoked'
    throw new SigilError('FAILED_PRECONDITION', `parameters.invitationId: the invitation ${what}`)
  }
  if (ctx.now >= inv.expires_at) throw new SigilError('FAILED_PRECONDITION', 'parameters.invitationId: the invitation has expired')
  if (p.userId !== inv.user_id) throw fieldError('NOT_FOUND', 'parameters.userId', 'no such user for this invitation')
  if (!invitationCodeMatches(ctx.rt, inv.id, p.authenticator.challenge, inv.code_hash)) {
    throw invalidField('parameters.authenticator.challenge', 'does not match the invitation')
  }
  if (await findOrgUserByEmail(ctx.tx, orgId, inv.receiver_email)) {
    throw fieldError('ALREADY_EXISTS', 'parameters.invitationId', 'a user of the organization already has the invited email')
  }
  // A tag deleted since the invitation was sent is dropped rather than failing the acceptance.
  const tags: string[] = []
  for (const id of inv.receiver_user_tags) if (await getTag(ctx.tx, orgId, 'TAG_TYPE_USER', id)) tags.push(id)
  await insertUser(ctx.tx, {
    id: inv.user_id,
    orgId,
    userName: inv.receiver_user_name,
    userEmail: inv.receiver_email,
    userTags: tags,
    now: ctx.now,
  })
  await registerAuthenticator(ctx, orgId, inv.user_id, p.authenticator, 'parameters.authenticator')
  await setInvitationStatus(ctx.tx, inv.id, 'INVITATION_STATUS_ACCEPTED', ctx.now)
  return { invitationId: inv.id, userId: inv.user_id }
}
