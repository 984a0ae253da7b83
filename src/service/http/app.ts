import { Hono } from 'hono'
import { requestOriginAllowed } from '../auth/origins.js'
import { describeError } from '../logger.js'
import type { Runtime } from '../runtime.js'
import { SigilError } from '../../api/errors.js'
import { readBody, limitBody } from './body.js'
import { cors, sameOriginOnly } from './cors.js'
import { identityDocument } from './identity.js'
import { SERVICE_IDENTITY_PATH } from '../../api/serviceIdentity.js'
import { handleQuery, handleSubmit } from './dispatch.js'
import type { Dispatcher } from './dispatch.js'
import { asSigilError, errorResponse } from './errors.js'
import { type ClientAddress, clientAddress } from './clientAddress.js'
import { WEBHOOK_JWKS_PATH } from '../webhooks/signing.js'

export { MAX_BODY_BYTES } from './body.js'
export { CORS_HEADERS } from './cors.js'

/** Per-request variables every route can read. */
export type AppEnv = { Variables: { reqId: string } }
/** The service's Hono app, as routes mounted beside the interface see it. */
export type ServiceApp = Hono<AppEnv>

export type AppExtensions = {
  /** Extra routes (dev mailbox, relay, sandbox on-ramp, dev identity provider) mounted by later modules. */
  mount?: (app: ServiceApp) => void
  /** Routes under /dev/ that mounted modules serve to other origins (the dev identity provider's). */
  devCrossOrigin?: DevCrossOrigin
}

/**
 * Development routes other origins may use; the rest of /dev/ answers only the service's own pages.
 * Each path is matched exactly.
 */
export type DevCrossOrigin = {
  /** Public documents any origin may read (GET). */
  anyOrigin: readonly string[]
  /** Endpoints the wallet extension may post a form or JSON to. */
  extension: readonly string[]
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

  // CORS for the interface only; the development routes answer their own origin and nobody else's.
  const interfaceCors = cors({
    allowed: (origin) => requestOriginAllowed(origin, rt.config.allowedOrigins),
    methods: 'GET, POST, OPTIONS',
    expose: 'X-Request-Id',
  })
  app.use('/public/*', interfaceCors)
  app.use('/healthz', interfaceCors)
  app.use(SERVICE_IDENTITY_PATH, interfaceCors)
  // The wallet extension may call the dev faucet (its "Fund from faucet" button in dev builds);
  // no web page may, and nothing else under /dev/ answers another origin (OTP codes stay unreadable).
  const extensionFaucet = (origin: string, path: string) =>
    path === '/dev/faucet' && /^(chrome|moz)-extension:\/\//.test(origin) && requestOriginAllowed(origin, rt.config.allowedOrigins)
  app.use(
    '/dev/faucet',
    cors({ allowed: (origin) => extensionFaucet(origin, '/dev/faucet'), methods: 'POST, OPTIONS', expose: 'X-Request-Id' }),
  )
  // Development routes served to other origins (the dev identity provider's discovery and keys are
  // public documents; its token endpoint answers the extension, whose "Continue with …" exchanges the
  // code from its background).
  const extension = (origin: string) =>
    /^(chrome|moz)-extension:\/\//.test(origin) && requestOriginAllowed(origin, rt.config.allowedOrigins)
  const devPublic = new Set(ext.devCrossOrigin?.anyOrigin)
  const devExtension = new Set(ext.devCrossOrigin?.extension)
  const extensionDev = (origin: string, path: string) =>
    devPublic.has(path) || ((path === '/dev/faucet' || devExtension.has(path)) && extension(origin))
  for (const path of devPublic) app.use(path, cors({ allowed: () => true, methods: 'GET, OPTIONS' }))
  for (const path of devExtension) app.use(path, cors({ allowed: extension, methods: 'POST, OPTIONS', headers: 'Content-Type' }))
  app.use('/dev/*', sameOriginOnly({ alsoAllow: extensionDev }))

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

  const identity = identityDocument(rt)
  app.get(SERVICE_IDENTITY_PATH, (c) => c.json(identity()))

  // Webhook verification keys (wire-formats B9): no authentication, cacheable.
  app.get(WEBHOOK_JWKS_PATH, (c) => {
    c.header('Cache-Control', 'public, max-age=3600')
    return c.json(rt.webhooks.signer.jwks())
  })

  // Where a request comes from: the socket's peer, or X-Forwarded-For from a trusted proxy (clientAddress.ts).
  const trustedProxies = rt.config.trustedProxies ?? []
  const clientOf = (c: { env: unknown; req: { header(name: string): string | undefined } }): ClientAddress => {
    const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming
    return clientAddress(incoming?.socket?.remoteAddress, c.req.header('X-Forwarded-For'), trustedProxies)
  }

  app.post('/public/v1/submit/:operation', limitBody, async (c) => {
    const raw = await readBody(c)
    const out = await handleSubmit(rt, dispatcher, c.req.path, c.req.raw.headers, raw, clientOf(c))
    return c.json(out)
  })

  app.post('/public/v1/query/:operation', limitBody, async (c) => {
    const raw = await readBody(c)
    const out = await handleQuery(rt, dispatcher, c.req.path, c.req.raw.headers, raw, clientOf(c))
    return c.json(out)
  })

  ext.mount?.(app)

  app.notFound((c) => errorResponse(c, new SigilError('NOT_FOUND', `no such endpoint: ${c.req.method} ${c.req.path}`)))
  app.onError((err, c) => {
    const e = asSigilError(err)
    const at = { reqId: c.get('reqId'), method: c.req.method, path: c.req.path }
    if (e.code === 'INTERNAL') {
      // What an operator needs to find the bug; the response stays the generic INTERNAL body.
      rt.log.error('unhandled error', { ...at, ...describeError(err) })
    } else if (e.code === 'UNAVAILABLE') {
      rt.log.warn('request failed: database unavailable', { ...at, errorCode: e.code, cause: causeName(e), detail: e.message })
    } else {
      rt.log.info('request refused', { ...at, errorCode: e.code })
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

export { errorResponse }
