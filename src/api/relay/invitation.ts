/**
 * The relay's `/v1/accept_invitation`: an invitee, who has no credential yet, accepts with the
 * passkey whose registration challenge is the invitation's code.
 */
import { z } from 'zod'
import { AuthenticatorParams } from '../common.js'

/** `/v1/accept_invitation` request. */
export const AcceptInvitationRequest = z.object({
  organizationId: z.string().min(1, { error: 'required' }),
  invitationId: z.string().min(1, { error: 'required' }),
  userId: z.string().min(1, { error: 'required' }),
  authenticator: AuthenticatorParams,
})

/** `/v1/accept_invitation` response. */
export const AcceptInvitationResponse = z.object({ organizationId: z.string(), invitationId: z.string(), userId: z.string() })
