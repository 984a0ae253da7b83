/** create_invitations (hosted OpenAPI v1CreateInvitationsIntent / v1CreateInvitationsResult). */
import { z } from 'zod'
import { Timestamp } from '../common.js'
import { StringArray, boundedArray } from '../fields.js'
import { MAX_USER_TAGS, MAX_USERS } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** Who may use the invited user's account: the hosted v1AccessType. */
export const AccessType = z.enum(['ACCESS_TYPE_WEB', 'ACCESS_TYPE_API', 'ACCESS_TYPE_ALL'], {
  error: 'must be ACCESS_TYPE_WEB, ACCESS_TYPE_API or ACCESS_TYPE_ALL',
})

/** One invitation to send (hosted v1InvitationParams). */
export const InvitationParams = z.object({
  receiverUserName: z.string().min(1, { error: 'required' }).max(256, { error: 'at most 256 characters' }),
  receiverUserEmail: z.string().min(1, { error: 'required' }).max(320, { error: 'at most 320 characters' }),
  receiverUserTags: boundedArray(z.string(), MAX_USER_TAGS),
  accessType: AccessType,
  senderUserId: z.string(),
})

/** An invitation as get_organization lists it (hosted v1Invitation). */
export const Invitation = z.object({
  invitationId: z.string(),
  receiverUserName: z.string(),
  receiverEmail: z.string(),
  receiverUserTags: StringArray,
  accessType: AccessType,
  status: z.enum(['INVITATION_STATUS_CREATED', 'INVITATION_STATUS_ACCEPTED', 'INVITATION_STATUS_REVOKED']),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  senderUserId: z.string(),
})

/** Invites people by email to join the organization: ACTIVITY_TYPE_CREATE_INVITATIONS. */
export const createInvitations = defineSubmit({
  name: 'create_invitations',
  path: '/public/v1/submit/create_invitations',
  type: 'ACTIVITY_TYPE_CREATE_INVITATIONS',
  intentKey: 'createInvitationsIntent',
  resultKey: 'createInvitationsResult',
  parameters: z.object({ invitations: boundedArray(InvitationParams, MAX_USERS) }),
  result: z.object({ invitationIds: StringArray }),
})
