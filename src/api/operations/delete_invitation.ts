/** delete_invitation (hosted OpenAPI v1DeleteInvitationIntent / v1DeleteInvitationResult). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'

/** Revokes an open invitation: ACTIVITY_TYPE_DELETE_INVITATION. */
export const deleteInvitation = defineSubmit({
  name: 'delete_invitation',
  path: '/public/v1/submit/delete_invitation',
  type: 'ACTIVITY_TYPE_DELETE_INVITATION',
  intentKey: 'deleteInvitationIntent',
  resultKey: 'deleteInvitationResult',
  parameters: z.object({ invitationId: z.string().min(1, { error: 'required' }) }),
  result: z.object({ invitationId: z.string() }),
})
