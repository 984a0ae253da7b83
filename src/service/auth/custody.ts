import { fieldError } from '../../api/errors.js'
import type { Principal } from './principal.js'

/**
 * The custody rule (README "Custody"): an organization is acted in only by its own users'
 * credentials. A credential of an ancestor organization (the parent, and so the relay and whoever
 * runs the service) reads its sub-organizations (every query) and may submit only these activities
 * in them: the auth flows a parent starts for a user who cannot sign yet, each of which needs the
 * user's own proof to do anything (an OTP code or a verification token, an OIDC token, a mailbox,
 * an invitation's code), and the deletion of a sub-organization. It never signs, exports,
 * imports, votes, changes users, policies or settings, or adds a credential inside a sub-organization
 * (create_read_write_session for a key of the parent's choosing would be one).
 */
export const PARENT_INITIATED: ReadonlySet<string> = new Set([
  'init_otp',
  'init_otp_auth',
  'verify_otp',
  'otp_auth',
  'otp_login',
  'email_auth',
  'init_user_email_recovery',
  'oauth',
  'oauth_login',
  'accept_invitation',
  'create_read_only_session',
  'delete_sub_organization',
])

/** The operation a definition is a version of: the last segment of its path (`…/submit/otp_login`). */
export function operationOf(definition: { path: string }): string {
  return definition.path.slice(definition.path.lastIndexOf('/') + 1)
}

/**
 * Refuses a submit by a credential of another (ancestor) organization than the one the activity
 * acts in, unless it is a parent-initiated flow.
 *
 * @throws PERMISSION_DENIED naming `organizationId` when a parent's credential submits anything else in a sub-organization
 */
export function requireCustody(operation: { path: string; type: string }, principal: Principal, organizationId: string): void {
  if (principal.organizationId === organizationId || PARENT_INITIATED.has(operationOf(operation))) return
  throw fieldError(
    'PERMISSION_DENIED',
    'organizationId',
    `${operation.type} must be submitted by a user of organization ${organizationId}: a parent organization's credential can only read a sub-organization and start its auth flows`,
  )
}
