import { existsSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { serve, type ServerType } from '@hono/node-server'
import { createEngine } from './activities/engine.js'
import { ACTIVITY_HANDLERS } from './activities/index.js'
import { bootstrap, type AdminKeyFile } from './bootstrap.js'
import type { ServiceConfig } from './config.js'
import { guardedCreateServer } from './http/admission.js'
import { createApp, type AppExtensions, type DevCrossOrigin, type ServiceApp } from './http/app.js'
import { QUERY_HANDLERS } from './queries/index.js'
import { createSendTracker } from './sends/tracker.js'
import { createOutbox } from './mail/outbox.js'
import type { TrustedIssuer } from './oidc/issuers.js'
import { createOidcVerifier } from './oidc/verify.js'
import { oauth2TrustedIssuer } from './oauth2/idToken.js'
import { loadServiceKeys } from './keys.js'
import { openServiceDatabase } from './database.js'
import { createLogger, type Logger } from './logger.js'
import type { Runtime } from './runtime.js'
import { useBip32Deriver } from '../chains/derive.js'
import { useSecp256k1DigestSigner } from '../chains/sign/secp256k1.js'
import { libsecp256k1Bip32Deriver, libsecp256k1Signer } from './chains/libsecp256k1.js'
import { migrate } from './store/migrate.js'
import { createSecretBox, loadMasterKey } from './store/secrets.js'
import { countServiceKeys } from './store/serviceKeys.js'
import type { Database } from './store/sql.js'
import { createWebhookDispatcher } from './webhooks/dispatcher.js'
import { createWebhookTargets } from './webhooks/events.js'
import { loadWebhookSigner } from './webhooks/signing.js'
import { ensureDevGasUsageConfig } from './sponsorship/devDefault.js'

export type RunningService = {
  url: string
  port: number
  admin: AdminKeyFile
  rt: Runtime
  /** Stops accepting connections, lets in-flight requests finish, then closes the database. */
  close(): Promise<void>
}

/** What the composition root (`src/server/`) adds to the service. */
export type ServiceOptions = {
  now?: () => number
  logger?: Logger
  /** Adds routes beside the interface: the relay, dev mailbox, sandbox, dev faucet and dev identity provider. */
  mount?: (app: ServiceApp, rt: Runtime) => void
  /** Mounted routes under /dev/ that other origins may use (the dev identity provider's). */
  devCrossOrigin?: DevCrossOrigin
  /** Issuers trusted beside the configured ones (the dev identity provider in development), read on each use. */
  trustedIssuers?: () => TrustedIssuer[]
  /** The database, already being opened by `openServiceDatabase` (the service's entry starts it while the rest loads). */
  database?: Promise<Database>
}

/** Starts the service: database, migrations, keys, bootstrap, HTTP, with what the composition root adds. */
export async function startService(config: ServiceConfig, options: ServiceOptions = {}): Promise<RunningService> {
  const log = options.logger ?? createLogger(config.logLevel, { svc: 'sigil' })
  // secp256k1 signatures through libsecp256k1 (same bytes as the shared pure-JS code, faster).
  useSecp256k1DigestSigner(libsecp256k1Signer)
  useBip32Deriver(libsecp256k1Bip32Deriver)
  const db = await (options.database ?? openServiceDatabase(config, log))
  try {
    const applied = await migrate(db)
    if (applied.length) log.info('migrations applied', { versions: applied.join(',') })
    if (!config.masterKeyHex && !existsSync(join(config.dataDir, 'master.key'))) {
      // A database with sealed keys and no master key (e.g. restored from a backup): a new key would not open them.
      if ((await countServiceKeys(db)) > 0) {
        throw new Error(
          `the database holds keys sealed under a master key, but ${join(config.dataDir, 'master.key')} is missing and ` +
            'SIGIL_MASTER_KEY is not set: put the master key of the service this database comes from (kept beside its backups) there',
        )
      }
    }
    const secrets = createSecretBox(loadMasterKey(config.masterKeyHex, config.dataDir))
    const keys = await loadServiceKeys(db, secrets, config.identityKeyHex)
    const now = options.now ?? Date.now
    const admin = await bootstrap(db, config.dataDir, now())
    // Development services sponsor their dev chains' sends by default (sponsorship/devDefault.ts).
    if (config.devFaucet) await ensureDevGasUsageConfig(db, admin.organizationId, now())
    const baseUrl = `http://${config.host}:${config.port}`
    const { trustedIssuers } = options
    const oidc = createOidcVerifier({
      // The service's own OAuth 2.0 issuer (oauth2_authenticate) last: its tokens log in like any provider's.
      issuers: () => [...config.oidcIssuers, ...(trustedIssuers?.() ?? []), oauth2TrustedIssuer(keys, config.publicUrl ?? rt.baseUrl)],
      now,
      timeoutMs: config.oidcFetchTimeoutMs,
    })
    const rt: Runtime = {
      config,
      db,
      secrets,
      keys,
      log,
      now,
      rootOrganizationId: admin.organizationId,
      baseUrl,
      oidc,
      outbox: config.smtpUrl || config.smsWebhookUrl ? createOutbox() : undefined,
      sendTracker: createSendTracker(),
      webhooks: { signer: await loadWebhookSigner(db, secrets), targets: createWebhookTargets(), dispatcher: createWebhookDispatcher() },
    }

    const engine = createEngine(rt, ACTIVITY_HANDLERS)
    const { mount, devCrossOrigin } = options
    const extensions: AppExtensions = {
      ...(mount ? { mount: (a: ServiceApp) => mount(a, rt) } : {}),
      ...(devCrossOrigin ? { devCrossOrigin } : {}),
    }
    const app = createApp(rt, { engine, queries: QUERY_HANDLERS }, extensions)

    const server: ServerType = await new Promise((resolve) => {
      // Limits on what unauthenticated clients may hold: connections per address, buffered bodies, time.
      const createServer = guardedCreateServer(config.http, {
        refused: (reason, count) => log.warn('requests refused', { reason, count }),
      })
      const s = serve({ fetch: app.fetch, hostname: config.host, port: config.port, createServer }, () => resolve(s))
    })
    const port = (server.address() as AddressInfo).port
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`
    rt.baseUrl = url
    // The after-commit workers; each first picks up what an earlier run left in the database.
    rt.outbox?.start(rt)
    rt.sendTracker.start(rt)
    rt.webhooks.dispatcher.start(rt)
    log.info('service listening', { url, database: db.kind, dataDir: config.dataDir })

    let closing: Promise<void> | undefined
    const close = () =>
      (closing ??= (async () => {
        await new Promise<void>((resolve) => {
          // Stop accepting; requests in flight finish. Keep-alive sockets would hold close()
          // open, so idle ones are closed now and again as in-flight requests complete.
          const sweep = setInterval(() => closeIdle(server), 50)
          server.close(() => {
            clearInterval(sweep)
            resolve()
          })
          closeIdle(server)
        })
        rt.outbox?.stop()
        await rt.sendTracker.stop()
        await rt.webhooks.dispatcher.stop()
        await db.close()
        log.info('service stopped')
      })())
    return { url, port, admin, rt, close }
  } catch (e) {
    await db.close().catch(() => {})
    throw e
  }
}

function closeIdle(server: ServerType): void {
  if ('closeIdleConnections' in server) server.closeIdleConnections()
}
