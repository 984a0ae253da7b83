import { resolveConfig } from '../service/config.js'
import { openServiceDatabase } from '../service/database.js'
import { createLogger } from '../service/logger.js'

/**
 * `npm run service`: the local key-management service on 127.0.0.1:8787 (wire-formats A6).
 * The database (the embedded PostgreSQL by default) starts first; the rest of the service, a chunk
 * of its own in the compiled output (scripts/buildService.mjs), loads meanwhile.
 */
const config = resolveConfig()
const logger = createLogger(config.logLevel, { svc: 'sigil' })
const database = openServiceDatabase(config, logger)
// Awaited (and its failure reported) by startService; until then a failure is not unhandled.
database.catch(() => {})
const [{ startServer }, { adminKeyPath }] = await Promise.all([import('./start.js'), import('../service/bootstrap.js')])
const service = await startServer(config, { logger, database })
console.error(
  `Sigil service ready at ${service.url} (database: ${service.rt.db.kind}, data: ${config.dataDir})\n` +
    `  root organization: ${service.admin.organizationId}\n` +
    `  admin API key:     ${adminKeyPath(config.dataDir)}`,
)
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void service.close().then(() => process.exit(0))
  })
}
