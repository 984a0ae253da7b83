/**
 * The composition root: the key-management service with everything a local install runs beside
 * it. `src/service` knows nothing of these layers; they are wired here, once, for `npm start`,
 * `npm run service` and the tests alike.
 */
import type { ServiceConfig } from '../service/config.js'
import type { ServiceApp } from '../service/http/app.js'
import type { Logger } from '../service/logger.js'
import { mountMailbox } from '../service/mail/routes.js'
import { mountSandboxOnRamp } from '../service/onramp/sandboxRoutes.js'
import type { Runtime } from '../service/runtime.js'
import { type RunningService, startService } from '../service/server.js'
import { mountFaucet } from './faucet.js'
import { mountBackup, writeServiceFile } from './backup.js'
import { mountRelay } from './relay.js'

export type { RunningService } from '../service/server.js'

/** Routes beyond the wire interface: sandbox on-ramp, dev mailbox, dev faucet, the relay at `/auth`. */
function mountLocal(app: ServiceApp, rt: Runtime): void {
  mountSandboxOnRamp(app, rt)
  if (rt.config.devMailbox) mountMailbox(app, rt)
  if (rt.config.devFaucet) mountFaucet(app, rt)
  if (rt.config.relay) mountRelay(app, rt)
  mountBackup(app, rt)
}

/**
 * Starts the service with the relay, dev mailbox and sandbox on-ramp mounted as configured. With the
 * embedded database, `<dataDir>/service.json` names this process while it runs (for `npm run backup`).
 */
export async function startServer(config: ServiceConfig, options: { now?: () => number; logger?: Logger } = {}): Promise<RunningService> {
  const service = await startService(config, { ...options, mount: mountLocal })
  if (config.databaseUrl) return service
  const forget = writeServiceFile(config.dataDir, service.url)
  return {
    ...service,
    async close() {
      await service.close()
      forget()
    },
  }
}
