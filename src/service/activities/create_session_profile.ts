import type { z } from 'zod'
import { fieldError, invalidField } from '../../api/errors.js'
import type { createSessionProfile } from '../../api/operations/create_session_profile.js'
import { parsePolicy } from '../policy/index.js'
import { insertSessionProfile, sessionProfileNameTaken } from '../store/sessionProfiles.js'
import type { ActivityHandler } from './types.js'

/**
 * create_session_profile: stores an immutable session profile. Its `scope` must parse as policy
 * language (the one parser policies use); a login naming the profile (otp_login, oauth_login,
 * stamp_login `sessionProfileId`, in this organization or any of its sub-organizations) issues a
 * session whose every activity must satisfy it (src/service/auth/sessionScope.ts).
 *
 * @throws INVALID_ARGUMENT when parameters.scope is not policy language
 * @throws ALREADY_EXISTS when the organization has a profile named parameters.sessionProfileName
 */
export const handler: ActivityHandler<z.infer<typeof createSessionProfile.parameters>> = async (ctx, p) => {
  const parsed = parsePolicy({ condition: p.scope })
  if (!parsed.ok) throw invalidField('parameters.scope', `is not policy language: ${parsed.error.description}`)
  if (await sessionProfileNameTaken(ctx.tx, ctx.organizationId, p.sessionProfileName)) {
    throw fieldError('ALREADY_EXISTS', 'parameters.sessionProfileName', 'the organization already has a session profile with this name')
  }
  const sessionProfileId = crypto.randomUUID()
  await insertSessionProfile(ctx.tx, {
    id: sessionProfileId,
    organizationId: ctx.organizationId,
    name: p.sessionProfileName,
    scope: p.scope,
    expirationSeconds: p.expirationSeconds === undefined ? null : Number(p.expirationSeconds),
    notes: p.notes ?? null,
    now: ctx.now,
  })
  return { sessionProfileId }
}
