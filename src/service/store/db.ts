/**
 * The service's database: embedded PostgreSQL (PGlite) in the data dir by default,
 * a real PostgreSQL (`pg`) when `DATABASE_URL` is set. Both speak the same SQL, so
 * the rest of the service sees one small interface (`sql.ts`).
 */
import type { ConnectionEvents, Database } from './sql.js'

export type OpenDatabaseOptions = { databaseUrl?: string | undefined; dataDir: string; events?: ConnectionEvents }

/** Opens the configured database. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const { openPostgres } = await import('./postgres.js')
    return openPostgres(options.databaseUrl, options.events)
  }
  // SIGIL_PGLITE_THREAD=worker runs the engine on a thread of its own (pgliteInWorker.ts): it frees
  // the HTTP thread where cores are to spare; on 2 cores it costs more than it frees (bench/README.md).
  if (process.env.SIGIL_PGLITE_THREAD === 'worker') {
    const { openPgliteInWorker } = await import('./pgliteInWorker.js')
    return openPgliteInWorker(options.dataDir)
  }
  const { openPglite } = await import('./pglite.js')
  return openPglite(options.dataDir)
}
