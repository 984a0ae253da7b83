import type { z } from 'zod'
import type { getSessionProfiles } from '../../api/operations/get_session_profiles.js'
import { listSessionProfiles } from '../store/sessionProfiles.js'
import { sessionProfileToWire } from './get_session_profile.js'
import type { QueryHandler } from './types.js'

/** get_session_profiles: every session profile of the organization, oldest first. */
export const handler: QueryHandler<z.output<typeof getSessionProfiles.request>> = async ({ sql, organizationId }) => {
  const rows = await listSessionProfiles(sql, organizationId)
  return { sessionProfiles: rows.map(sessionProfileToWire) }
}
