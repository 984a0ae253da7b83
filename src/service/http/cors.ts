import type { MiddlewareHandler } from 'hono'
import { SigilError } from '../../api/errors.js'

/** Request headers a browser or extension may send (wire-formats B1.5). */
export const CORS_HEADERS = [
  'Content-Type',
  'X-Stamp',
  'X-Stamp-Webauthn',
  'X-Stamp-Attested',
  'X-Session',
  'X-Client-Version',
  'X-Auth-Proxy-Config-ID',
  'X-Captcha-Token',
].join(', ')

export type CorsOptions = {
  /** Whether a request from `origin` may read the response (the service's and the relay's own lists). */
  allowed(origin: string): boolean
  methods: string
  /** Request headers allowed (default: {@link CORS_HEADERS}). */
  headers?: string
  /** Response headers the page may read. */
  expose?: string
}

/**
 * CORS for the service and the relay: a preflight from an allowed origin gets 204 with the allowed
 * methods and headers, from any other origin 403; responses to an allowed origin name it.
 */
export function cors(o: CorsOptions): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header('Origin')
    const allowed = origin !== undefined && o.allowed(origin)
    if (c.req.method === 'OPTIONS') {
      if (!allowed) return c.body(null, 403)
      return c.body(null, 204, {
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Methods': o.methods,
        'Access-Control-Allow-Headers': o.headers ?? CORS_HEADERS,
        'Access-Control-Max-Age': '600',
        Vary: 'Origin',
      })
    }
    await next()
    if (allowed) {
      c.res.headers.set('Access-Control-Allow-Origin', origin)
      if (o.expose) c.res.headers.set('Access-Control-Expose-Headers', o.expose)
      c.res.headers.append('Vary', 'Origin')
    }
  }
}

/**
 * For routes that only the service's own pages may use (the dev mailbox, the dev faucet): a request
 * whose `Origin` is not the service's own is refused with 403 and gets no CORS headers, so no other
 * page, not even one on another localhost port, can read OTP codes or call the faucet.
 */
export function sameOriginOnly(opts: { alsoAllow?: (origin: string, path: string) => boolean } = {}): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header('Origin')
    if (origin !== undefined && origin !== new URL(c.req.url).origin && !opts.alsoAllow?.(origin, c.req.path)) {
      return c.json(
        new SigilError('ORIGIN_NOT_ALLOWED', `this endpoint answers only its own origin, not ${origin.slice(0, 200)}`).toWire(),
        403,
      )
    }
    return next()
  }
}
