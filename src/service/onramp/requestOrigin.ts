/**
 * The service's own base URL for links to the sandbox provider page: the
 * configured public URL, else the address this instance is bound to. (Never the request's
 * Host header: a client must not choose where the links we hand out point.)
 */
import type { Runtime } from '../runtime.js'

/** Base URL (no trailing slash) at which people reach this service. */
export function serviceBaseUrl(rt: Runtime): string {
  if (rt.config.publicUrl) return rt.config.publicUrl.replace(/\/+$/, '')
  return rt.baseUrl
}
