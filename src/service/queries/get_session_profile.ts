import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { getSessionProfile } from '../../api/operations/get_session_profile.js'
import { getSessionProfile as readSessionProfile, type SessionProfileRow } from '../store/sessionProfiles.js'
import { toTimestamp } from '../store/time.js'
import type { QueryHandler } from './types.js'

/** A stored profile as the hosted v1SessionProfile. */
export function sessionProfileToWire(r: SessionProfileRow) {
  return {
    sessionProfileId: r.id,
    sessionProfileName: r.name,
    scope: r.scope,
    ...(r.expiration_seconds !== null ? { expirationSeconds: String(r.expiration_seconds) } : {}),
    ...(r.notes !== null ? { notes: r.notes } : {}),
    createdAt: toTimestamp(Number(r.created_at)),
    updatedAt: toTimestamp(Number(r.updated_at)),
  }
}

/**
 * get_session_profile: one of the organization's session profiles.
 *
 * @throws NOT_FOUND when the organization has no profile with sessionProfileId
 */
export const handler: QueryHandler<z.output<typeof getSessionProfile.request>> = async ({ sql, organizationId }, request) => {
  const row = await readSessionProfile(sql, organizationId, request.sessionProfileId)
  if (!row) throw fieldError('NOT_FOUND', 'sessionProfileId', 'the organization has no session profile with this id')
  return { sessionProfile: sessionProfileToWire(row) }
}
