import { resolveConfig } from '../service/config.js'
import { adminKeyPath } from '../service/bootstrap.js'
import { startServer } from './start.js'

/** `npm run service`: the local key-management service on 127.0.0.1:8787 (wire-formats A6). */
const config = resolveConfig()
const service = await startServer(config)
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
