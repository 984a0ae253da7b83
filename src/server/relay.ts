import { readFileSync } from 'node:fs'
import { createRelayApp } from '../relay/app.js'
import { AdminKeyFile, adminKeyPath } from '../service/bootstrap.js'
import type { ServiceApp } from '../service/http/app.js'
import type { Runtime } from '../service/runtime.js'

/** The local address of the socket a request came in on, for talking HTTP back to this same service. */
function selfUrl(c: unknown, host: string): string {
  const env = (c as { env?: { incoming?: { socket?: { localPort?: number } } } }).env
  const port = env?.incoming?.socket?.localPort
  if (!port) throw new Error('relay: cannot tell the service port')
  const h = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}`
}

/**
 * Mounts the relay at `/auth` on the local service, so `npm start` serves sign-up and login without
 * a separate relay. It still talks to the service only
 * over HTTP with the typed client, as the root organization with the admin key of the data dir.
 */
export function mountRelay(app: ServiceApp, rt: Runtime): void {
  const relay = createRelayApp({
    upstream: (c) => selfUrl(c, rt.config.host),
    apiKey: () => AdminKeyFile.parse(JSON.parse(readFileSync(adminKeyPath(rt.config.dataDir), 'utf8'))),
    allowedOrigins: rt.config.allowedOrigins,
    // The service's CORS covers its interface only: the relay answers its own preflights.
    cors: true,
    now: rt.now,
    oauthProviders: () =>
      rt.oidc
        .issuers()
        .filter((t) => !t.anyAudience)
        .map((t) => ({
          name: t.name,
          issuer: t.issuer,
          clientId: t.clientId,
          authorizationEndpoint: t.authorizationEndpoint,
          tokenEndpoint: t.tokenEndpoint,
          flow: t.flow,
        })),
  })
  app.route('/auth', relay)
}
