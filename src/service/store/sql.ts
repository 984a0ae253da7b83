/**
 * The small interface every database driver implements (`pglite.ts`, `postgres.ts`) and the rest
 * of the service uses. Drivers depend on this module and on `transactions.ts` (the transaction
 * object they hand out); `db.ts` selects one of them.
 */

/** Something that runs SQL: the database itself, or one transaction. */
export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>
}

/**
 * What a driver hands a transaction's body: its statements, and optionally a way to run the last
 * one (see {@link Transaction.last}) cheaper than as one more statement before the COMMIT.
 */
export interface DriverSql extends Sql {
  last?<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>
}

/**
 * One open transaction, as `Database.transaction` hands it out: its statements, the work that waits
 * for its outcome, and savepoints that undo part of it (with the work registered since).
 */
export interface Transaction extends Sql {
  /**
   * Runs `fn` once this transaction's COMMIT has returned (the commit is durable), after the
   * database is free for other work; never when it rolls back, nor when it is rolled back to a
   * savepoint taken before `fn` was registered. Hooks run in registration order; one that throws
   * (or rejects) is reported through `DatabaseEvents.hookFailed` and fails nothing else. Hooks only
   * start work: whatever must survive a crash is written in the transaction itself and recovered
   * from the database.
   */
  afterCommit(fn: () => unknown): void
  /**
   * Runs `fn` when this transaction rolls back, or is rolled back to a savepoint taken before `fn`
   * was registered: for caches that may hold what it wrote. Errors are reported as above.
   */
  afterRollback(fn: () => unknown): void
  /**
   * Runs `text` as this transaction's last statement: nothing may run in it afterwards, and the body
   * must not fail after it. When the transaction has written nothing yet (only plain reads ran),
   * the PostgreSQL driver runs it on its own connection without BEGIN and COMMIT (a statement is
   * atomic and, committed, as durable as a COMMIT): two round trips fewer for an activity whose
   * handler only read. Otherwise it runs in the transaction like {@link Sql.query}.
   */
  last<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>
  /**
   * Holds back an `INSERT` (no `RETURNING`, no `WITH` of its own) whose rows nothing reads before
   * the transaction's next statement: it is sent with that statement, as a data-modifying `WITH` of
   * it (foreign keys are checked at the statement's end, when every row is in). So a body of inserts
   * ending in {@link last} is one statement: atomic without BEGIN and COMMIT. Before any other
   * statement ({@link Sql.query}, a savepoint) and before the COMMIT, what is held is sent first, as
   * one statement, so later reads see it. Its failure (a constraint) is reported by the statement it
   * went with: an insert whose own error its caller turns into another answer is not deferred.
   */
  defer(text: string, params?: unknown[]): void
  /** `SAVEPOINT name` (`name`: a lower-case SQL identifier). */
  savepoint(name: string): Promise<void>
  /**
   * `ROLLBACK TO SAVEPOINT name`: undoes every statement since {@link savepoint} with this name and
   * drops the after-commit work registered since (running the after-rollback work); the transaction
   * goes on.
   */
  rollbackTo(name: string): Promise<void>
}

export interface Database extends Sql {
  readonly kind: 'pglite' | 'postgres'
  /** Runs `fn` in one transaction: commits when it returns, rolls back when it throws. */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>
  /** Runs a multi-statement script (migrations). */
  exec(script: string): Promise<void>
  /**
   * PGlite only: a consistent copy of its whole data dir (gzipped tar), taken while no transaction
   * runs, after a checkpoint. Other engines are backed up as rows (`dumpFile.ts`).
   */
  snapshot?(): Promise<Uint8Array>
  close(): Promise<void>
}

/**
 * What a driver reports: about its connection (networked drivers, once per outage each; PGlite has
 * none), and work registered on a transaction that failed.
 */
export type DatabaseEvents = {
  /** The database became unreachable; `cause` is a code such as `ECONNREFUSED` or `57P01`, never a secret. */
  lost?(cause: string): void
  /** A new connection was made after `lost`. */
  restored?(): void
  /** An after-commit or after-rollback hook threw; the transaction's outcome stands. Unreported when not given. */
  hookFailed?(error: unknown): void
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
