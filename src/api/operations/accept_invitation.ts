/**
 * accept_invitation (hosted OpenAPI v1AcceptInvitationIntent(V2) / v1AcceptInvitationResult).
 *
 * The hosted public API has no path for these types; `/public/v1/submit/accept_invitation` is
 * Sigil's own path, carrying both versions (the relay's `/v1/accept_invitation` submits V2 here).
 */
import { z } from 'zod'
import { AuthenticatorParams, LegacyAuthenticatorParams } from '../common.js'
import { defineSubmit } from '../operation.js'

const AcceptInvitationResult = z.object({ invitationId: z.string(), userId: z.string() })

/** Accepts an invitation with a new passkey: ACTIVITY_TYPE_ACCEPT_INVITATION_V2. */
export const acceptInvitation = defineSubmit({
  name: 'accept_invitation',
  path: '/public/v1/submit/accept_invitation',
  type: 'ACTIVITY_TYPE_ACCEPT_INVITATION_V2',
  intentKey: 'acceptInvitationIntentV2',
  resultKey: 'acceptInvitationResult',
  parameters: z.object({ invitationId: z.string(), userId: z.string(), authenticator: AuthenticatorParams }),
  result: AcceptInvitationResult,
})

/** ACTIVITY_TYPE_ACCEPT_INVITATION, on the same path: the authenticator in the legacy attestation shape. */
export const acceptInvitationV1 = defineSubmit({
  name: 'accept_invitation_v1',
  path: '/public/v1/submit/accept_invitation',
  type: 'ACTIVITY_TYPE_ACCEPT_INVITATION',
  intentKey: 'acceptInvitationIntent',
  resultKey: 'acceptInvitationResult',
  parameters: z.object({ invitationId: z.string(), userId: z.string(), authenticator: LegacyAuthenticatorParams }),
  result: AcceptInvitationResult,
})
