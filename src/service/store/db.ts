/**
 * The service's database, one of:
 * - `DATABASE_URL` set: that PostgreSQL server (`pg`), shared by any number of instances;
 * - default: a PostgreSQL server the service runs itself from `node_modules`, in `<dataDir>/postgres`
 *   (`embeddedPostgres.ts`), through the same `pg` driver;
 * - `SIGIL_DATABASE=pglite`: PGlite (PostgreSQL compiled to WebAssembly) in `<dataDir>/pgdata`, for
 *   platforms without the binaries; heavier (≈ 0.8 GB idle), one connection.
 * All speak the same SQL, so the rest of the service sees one small interface (`sql.ts`).
 */
import { databasesIn } from './dataDir.js'
import type { Database, DatabaseEvents } from './sql.js'

export type DatabaseEngine = 'postgres' | 'pglite'

export type OpenDatabaseOptions = {
  databaseUrl?: string | undefined
  dataDir: string
  /** The embedded engine when there is no `databaseUrl` (default: `postgres`). */
  engine?: DatabaseEngine
  events?: DatabaseEvents
  log?: (message: string, fields?: Record<string, string | number | boolean>) => void
}

/** Opens the configured database. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const { openPostgres } = await import('./postgres.js')
    return openPostgres(options.databaseUrl, options.events)
  }
  if ((options.engine ?? 'postgres') === 'postgres') {
    const { openEmbeddedPostgres } = await import('./embedded.js')
    return openEmbeddedPostgres(options.dataDir, { events: options.events, log: options.log })
  }
  // A data dir whose database is the embedded PostgreSQL (made by it, or moved into it from PGlite):
  // PGlite would start an empty database beside it, a second root organization. Refuse instead.
  const held = databasesIn(options.dataDir)
  if (held.postgres && !held.pglite) {
    throw new Error(
      `${options.dataDir} holds the embedded PostgreSQL's database (postgres/), not PGlite's: start without SIGIL_DATABASE=pglite, ` +
        'or restore a backup into an empty data dir with SIGIL_DATABASE=pglite',
    )
  }
  // SIGIL_PGLITE_THREAD=worker runs the engine on a thread of its own (pgliteInWorker.ts): it frees
  // the HTTP thread where cores are to spare; on 2 cores it costs more than it frees (bench/README.md).
  if (process.env.SIGIL_PGLITE_THREAD === 'worker') {
    const { openPgliteInWorker } = await import('./pgliteInWorker.js')
    return openPgliteInWorker(options.dataDir, { events: options.events ?? {} })
  }
  const { openPglite } = await import('./pglite.js')
  return openPglite(options.dataDir, { events: options.events ?? {} })
}
