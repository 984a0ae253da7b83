import type { z } from 'zod'
import { SigilError, fieldError } from '../../api/errors.js'
import type { deleteInvitation } from '../../api/operations/delete_invitation.js'
import { lockInvitation, setInvitationStatus } from '../store/invitations.js'
import type { ActivityHandler } from './types.js'

/**
 * delete_invitation: the invitation is REVOKED (the row stays, listed by get_organization; its code
 * no longer accepts); `{invitationId}`. Revoking a revoked invitation changes nothing.
 *
 * @throws NOT_FOUND when parameters.invitationId names no invitation of the organization
 * @throws FAILED_PRECONDITION when the invitation was already accepted
 */
export const handler: ActivityHandler<z.infer<typeof deleteInvitation.parameters>> = async (ctx, p) => {
  const inv = await lockInvitation(ctx.tx, ctx.organizationId, p.invitationId)
  if (!inv) throw fieldError('NOT_FOUND', 'parameters.invitationId', 'no such invitation in the organization')
  if (inv.status === 'INVITATION_STATUS_ACCEPTED') {
    throw new SigilError('FAILED_PRECONDITION', 'parameters.invitationId: the invitation was already accepted')
  }
  if (inv.status !== 'INVITATION_STATUS_REVOKED') await setInvitationStatus(ctx.tx, inv.id, 'INVITATION_STATUS_REVOKED', ctx.now)
  return { invitationId: inv.id }
}
