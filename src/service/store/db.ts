/**
 * The service's database: embedded PostgreSQL (PGlite) in the data dir by default,
 * a real PostgreSQL (`pg`) when `DATABASE_URL` is set. Both speak the same SQL, so
 * the rest of the service sees one small interface.
 */

/** Something that runs SQL: the database itself, or one transaction. */
export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>
}

export interface Database extends Sql {
  readonly kind: 'pglite' | 'postgres'
  /** Runs `fn` in one transaction: commits when it returns, rolls back when it throws. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>
  /** Runs a multi-statement script (migrations). */
  exec(script: string): Promise<void>
  close(): Promise<void>
}

export type OpenDatabaseOptions = { databaseUrl?: string | undefined; dataDir: string }

/** Opens the configured database. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const { openPostgres } = await import('./postgres.js')
    return openPostgres(options.databaseUrl)
  }
  const { openPglite } = await import('./pglite.js')
  return openPglite(options.dataDir)
}
