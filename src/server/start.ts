/**
 * The composition root: the key-management service with everything a local install runs beside
 * it. `src/service` knows nothing of these layers; they are wired here, once, for `npm start`,
 * `npm run service` and the tests alike.
 */
import { createDevIdentityProvider, DEV_OIDC_CROSS_ORIGIN, type DevIdentityProvider } from '../devchain/oidcProvider.js'
import type { ServiceConfig } from '../service/config.js'
import type { ServiceApp } from '../service/http/app.js'
import { mountMailbox } from '../service/http/mailboxRoutes.js'
import { mountSandboxOnRamp } from '../service/http/sandboxOnRampRoutes.js'
import type { Runtime } from '../service/runtime.js'
import { type RunningService, type ServiceOptions, startService } from '../service/server.js'
import { faucetDelivery, mountFaucet } from './faucet.js'
import { mountBackup, writeServiceFile } from './backup.js'
import { mountRelay } from './relay.js'

/** The service's runtime with what the composition root wires beside it. */
export type ServerRuntime = Runtime & {
  /** The development identity provider at /dev/oidc, when served (tests and tools issue ID tokens with it). */
  devIdp: DevIdentityProvider | undefined
}

/** The running service, as the composition root started it. */
export type RunningServer = Omit<RunningService, 'rt'> & { rt: ServerRuntime }

/** Routes beyond the wire interface: dev identity provider, sandbox on-ramp, dev mailbox, dev faucet, the relay at `/auth`. */
function mountLocal(app: ServiceApp, rt: Runtime, devIdp: DevIdentityProvider | undefined): void {
  devIdp?.mount(app)
  // The sandbox delivers real dev coins only where the dev faucet runs.
  mountSandboxOnRamp(app, rt, rt.config.devFaucet ? faucetDelivery : undefined)
  if (rt.config.devMailbox) mountMailbox(app, rt)
  if (rt.config.devFaucet) mountFaucet(app, rt)
  if (rt.config.relay) mountRelay(app, rt)
  mountBackup(app, rt)
}

/**
 * Starts the service with the dev identity provider, relay, dev mailbox and sandbox on-ramp mounted as
 * configured. With the embedded database, `<dataDir>/service.json` names this process while it runs
 * (for `npm run backup`).
 */
export async function startServer(
  config: ServiceConfig,
  options: Pick<ServiceOptions, 'now' | 'logger' | 'database'> = {},
): Promise<RunningServer> {
  let serviceRt: Runtime | undefined
  // The provider's issuer is the service's public URL, or where it listens (known once it is bound).
  const devIdp = config.devOidc
    ? await createDevIdentityProvider({
        baseUrl: () => config.publicUrl ?? serviceRt?.baseUrl ?? `http://${config.host}:${config.port}`,
        now: options.now ?? Date.now,
      })
    : undefined
  const started = await startService(config, {
    ...options,
    ...(devIdp ? { trustedIssuers: () => [devIdp.trusted()], devCrossOrigin: DEV_OIDC_CROSS_ORIGIN } : {}),
    mount: (app, rt) => {
      serviceRt = rt
      mountLocal(app, rt, devIdp)
    },
  })
  // One runtime object: the service's, with the composition root's fields beside its own.
  const service: RunningServer = { ...started, rt: Object.assign(started.rt, { devIdp }) }
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
