import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { serve } from '@hono/node-server'
import { AdminKeyFile } from '../service/bootstrap.js'
import { resolveConfig } from '../service/config.js'
import { guardedCreateServer } from '../service/http/admission.js'
import { createRelayApp } from './app.js'
import { allowedOriginsList } from '../service/config.js'
import { relayAllowedOrigins } from './options.js'

/**
 * `npm run relay -- --upstream <url> --api-key <admin-api-key.json> [--port 8788] [--host 127.0.0.1]
 * [--allowed-origins a,b] [--app-name Sigil] [--verifier-public-key <hex>]`: the auth relay on its own.
 */
const { values } = parseArgs({
  options: {
    upstream: { type: 'string' },
    'api-key': { type: 'string' },
    port: { type: 'string', default: process.env.SIGIL_RELAY_PORT ?? '8788' },
    host: { type: 'string', default: process.env.SIGIL_RELAY_HOST ?? '127.0.0.1' },
    'allowed-origins': { type: 'string', default: process.env.SIGIL_RELAY_ALLOWED_ORIGINS ?? '' },
    'app-name': { type: 'string', default: 'Sigil' },
    'verifier-public-key': { type: 'string' },
  },
})
if (!values.upstream || !values['api-key']) {
  console.error('usage: npm run relay -- --upstream <url> --api-key <admin-api-key.json> [--port 8788]')
  process.exit(2)
}
const apiKey = AdminKeyFile.parse(JSON.parse(readFileSync(values['api-key'], 'utf8')))
let extra: string[]
try {
  extra = allowedOriginsList(values['allowed-origins'], '--allowed-origins (SIGIL_RELAY_ALLOWED_ORIGINS)')
} catch (err) {
  console.error((err as Error).message)
  process.exit(2)
}
const app = createRelayApp({
  upstream: values.upstream,
  apiKey,
  allowedOrigins: relayAllowedOrigins(extra, process.env.NODE_ENV === 'production'),
  appName: values['app-name'],
  cors: true,
  ...(values['verifier-public-key'] ? { verifierPublicKeyHex: values['verifier-public-key'] } : {}),
})
// The service's limits on connections per address, buffered bodies and request time (SIGIL_REQUEST_TIMEOUT_MS…).
const createServer = guardedCreateServer(resolveConfig(process.env).http, {
  refused: (reason, count) => console.error(`relay: refused ${count} request(s) or connection(s): ${reason}`),
})
const server = serve({ fetch: app.fetch, hostname: values.host, port: Number(values.port), createServer }, (info) => {
  console.error(`Sigil relay on http://${values.host}:${info.port} → ${values.upstream} (organization ${apiKey.organizationId})`)
})
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close(() => process.exit(0)))
