import type { z } from 'zod'
import type { updateAllowedOrigins } from '../../api/operations/update_allowed_origins.js'
import { invalidField } from '../../api/errors.js'
import { setAllowedOrigins } from '../store/organizations.js'
import type { ActivityHandler } from './types.js'

const SCHEMES = new Set(['https:', 'http:', 'chrome-extension:', 'moz-extension:'])

/** An origin as stored: `scheme://host[:port]`, no path (extension origins kept as written). */
function normaliseOrigin(value: string, field: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw invalidField(field, 'is not an origin URL')
  }
  if (!SCHEMES.has(url.protocol)) throw invalidField(field, 'must be an http(s) or extension origin')
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) throw invalidField(field, 'must be an origin without a path')
  return url.origin === 'null' ? `${url.protocol}//${url.host}` : url.origin
}

/**
 * update_allowed_origins: replaces the organization's allowed origins (organizations.allowed_origins),
 * used with the configured ones for WebAuthn origin checks here and in sub-organizations (A4).
 *
 * @throws INVALID_ARGUMENT when an entry of parameters.allowedOrigins is not an http(s) or extension origin URL without a path
 */
export const handler: ActivityHandler<z.infer<typeof updateAllowedOrigins.parameters>> = async (ctx, p) => {
  const origins = [...new Set(p.allowedOrigins.map((o, i) => normaliseOrigin(o, `parameters.allowedOrigins[${i}]`)))]
  await setAllowedOrigins(ctx.tx, ctx.organizationId, origins, ctx.now)
  return {}
}
