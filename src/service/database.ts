/**
 * The service's database as the service opens it: the data dir made the owner's only (embedded
 * engines), then the configured database (`store/db.ts`), with its availability and failed
 * after-commit work logged. A module of its own, importing little, so the service's entry
 * (`src/server/main.ts`) can start the database while the rest of the service loads.
 */
import type { ServiceConfig } from './config.js'
import { describeError, type Logger } from './logger.js'
import { secureDataDir } from './store/dataDir.js'
import { openDatabase } from './store/db.js'
import type { Database } from './store/sql.js'

export function openServiceDatabase(config: Pick<ServiceConfig, 'databaseUrl' | 'dataDir' | 'database'>, log: Logger): Promise<Database> {
  // The embedded databases' files are the owner's only, so no other local user reads keys or data;
  // looser modes are fixed, and said.
  if (!config.databaseUrl) secureDataDir(config.dataDir, (message, fields) => log.warn(message, fields))
  return openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    engine: config.database,
    log: (message, fields) => log.info(message, fields),
    events: {
      lost: (cause) => log.warn('database unavailable', { cause }),
      restored: () => log.info('database available again'),
      // Work started after a commit (mail, sends, webhooks) failed to start: the commit stands, the
      // work is recovered from its rows; logged like any unexpected error (key-like runs blanked).
      hookFailed: (e) => log.error('after-commit work failed', describeError(e)),
    },
  })
}
