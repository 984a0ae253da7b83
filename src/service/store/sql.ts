/**
 * The small interface every database driver implements (`pglite.ts`, `postgres.ts`) and the rest
 * of the service uses. Drivers depend on this module only; `db.ts` selects one of them.
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
  /**
   * PGlite only: a consistent copy of its whole data dir (gzipped tar), taken while no transaction
   * runs, after a checkpoint. Other engines are backed up as rows (`dumpFile.ts`).
   */
  snapshot?(): Promise<Uint8Array>
  close(): Promise<void>
}

/** What a networked driver reports about its connection (once per outage each); PGlite has none. */
export type ConnectionEvents = {
  /** The database became unreachable; `cause` is a code such as `ECONNREFUSED` or `57P01`, never a secret. */
  lost?(cause: string): void
  /** A new connection was made after `lost`. */
  restored?(): void
}

/** Why the database cannot serve requests for now. */
export type UnavailableReason = 'disk_full' | 'read_only' | 'io_error'

/**
 * The database cannot read or write its storage (disk full, read-only or failing file system).
 * Nothing of the failed statement or transaction was applied; retrying later may succeed.
 */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError'
  constructor(
    readonly reason: UnavailableReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}
