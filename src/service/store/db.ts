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
  const { openPglite } = await import('./pglite.js')
  return openPglite(options.dataDir)
}
