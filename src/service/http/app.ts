import { Hono, type Context, type MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { SigilError } from '../../api/errors.js'
import type { Runtime } from '../runtime.js'
import { originAllowed } from '../auth/origins.js'
import { asSigilError, statusOf } from './errors.js'
import { handleQuery, handleSubmit } from './dispatch.js'
import type { Dispatcher } from './dispatch.js'

export const MAX_BODY_BYTES = 1024 * 1024

/** Request headers a browser or extension may send (wire-formats B1.5). */
export const CORS_HEADERS = [
  'Content-Type',
  'X-Stamp',
  'X-Stamp-Webauthn',
  'X-Stamp-Attested',
  'X-Client-Version',
  'X-Auth-Proxy-Config-ID',
  'X-Captcha-Token',
].join(', ')

/** Per-request variables every route can read. */
export type AppEnv = { Variables: { reqId: string } }
/** The service's Hono app, as routes mounted beside the interface see it. */
export type ServiceApp = Hono<AppEnv>

export type AppExtensions = {
  /** Extra routes (dev mailbox, relay, sandbox on-ramp) mounted by later modules. */
  mount?: (app: ServiceApp) => void
}

/** The service's HTTP surface: submit and query endpoints, health, CORS, limits, errors. */
export function createApp(rt: Runtime, dispatcher: Dispatcher, ext: AppExtensions = {}) {
  const app = new Hono<AppEnv>()

  app.use('*', async (c, next) => {
    const reqId = crypto.randomUUID()
    c.set('reqId', reqId)
    const started = performance.now()
    await next()
    c.res.headers.set('X-Request-Id', reqId)
    rt.log.info('request', {
      reqId,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 100) / 100,
    })
  })

  app.use('*', async (c, next) => {
    const origin = c.req.header('Origin')
    const allowed = origin !== undefined && originAllowed(origin, rt.config.allowedOrigins)
    if (c.req.method === 'OPTIONS') {
      if (!allowed) return c.body(null, 403)
      return c.body(null, 204, {
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
        'Access-Control-Allow-Headers': CORS_HEADERS,
        'Access-Control-Max-Age': '600',
        Vary: 'Origin',
      })
    }
    await next()
    if (allowed) {
      c.res.headers.set('Access-Control-Allow-Origin', origin)
      c.res.headers.set('Access-Control-Expose-Headers', 'X-Request-Id')
      c.res.headers.append('Vary', 'Origin')
    }
  })

  const tooLarge = (c: Context) => {
    // The rest of the body is not read: the connection cannot be reused.
    c.header('Connection', 'close')
    return errorResponse(c, new SigilError('BODY_TOO_LARGE', `request body is larger than ${MAX_BODY_BYTES} bytes`))
  }
  const streamLimit = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: tooLarge })
  // A declared Content-Length is checked as Hono's bodyLimit does, without touching `c.req.raw.body`
  // (which would build a web stream): the node adapter then reads the body straight from the socket.
  // Other bodies (chunked) go through Hono's streaming limit.
  const limit: MiddlewareHandler<AppEnv> = async (c, next) => {
    const length = c.req.header('content-length')
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      return Number.parseInt(length || '0', 10) > MAX_BODY_BYTES ? tooLarge(c) : next()
    }
    return streamLimit(c, next)
  }

  app.get('/healthz', (c) =>
    c.json({
      status: 'ok',
      database: rt.db.kind,
      rootOrganizationId: rt.rootOrganizationId,
      signerPublicKey: rt.keys.signer.publicKeyHex,
      onRampEncryptionPublicKey: rt.keys.onramp.publicKeyHex,
      otpEncryptionPublicKey: rt.keys.otpTarget.publicKeyHex,
      sessionPublicKey: rt.keys.session.publicKeyHex,
      verifierPublicKey: rt.keys.verifier.publicKeyHex,
      appProofPublicKey: rt.keys.appProof.publicKeyHex,
    }),
  )

  app.post('/public/v1/submit/:operation', limit, async (c) => {
    const raw = new Uint8Array(await c.req.arrayBuffer())
    const out = await handleSubmit(rt, dispatcher, c.req.path, c.req.raw.headers, raw)
    return c.json(out)
  })

  app.post('/public/v1/query/:operation', limit, async (c) => {
    const raw = new Uint8Array(await c.req.arrayBuffer())
    const out = await handleQuery(rt, dispatcher, c.req.path, c.req.raw.headers, raw)
    return c.json(out)
  })

  ext.mount?.(app)

  app.notFound((c) => errorResponse(c, new SigilError('NOT_FOUND', `no such endpoint: ${c.req.method} ${c.req.path}`)))
  app.onError((err, c) => {
    const e = asSigilError(err)
    if (e.code === 'INTERNAL') {
      rt.log.error('unhandled error', { reqId: c.get('reqId'), errorName: (err as Error).name })
    } else if (e.code === 'UNAVAILABLE') {
      rt.log.warn('request failed: database unavailable', { reqId: c.get('reqId'), errorCode: e.code, cause: causeName(e) })
    } else if (e.code === 'DATABASE_UNAVAILABLE') {
      rt.log.error('database unavailable', { reqId: c.get('reqId'), message: e.message })
    } else {
      rt.log.info('request refused', { reqId: c.get('reqId'), errorCode: e.code })
    }
    return errorResponse(c, e)
  })
  return app
}

/** The code of an error's cause (`ECONNREFUSED`, `57P01`), for logs: never its message. */
function causeName(e: SigilError): string | undefined {
  const code = (e.cause as { code?: unknown } | undefined)?.code
  return typeof code === 'string' && /^[A-Z0-9_]{1,20}$/.test(code) ? code : undefined
}

export function errorResponse(c: Context, e: SigilError) {
  return c.json(e.toWire(), statusOf(e) as 400)
}
