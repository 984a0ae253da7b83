/** Statements that steer a transaction rather than read or write a table: locks and savepoints. */
import type { Sql } from './sql.js'

/**
 * Takes a PostgreSQL advisory lock held until the transaction ends (instances sharing a database
 * then run the section one at a time). PostgreSQL only: PGlite has one connection and no such lock.
 */
export async function advisoryTransactionLock(tx: Sql, key: number): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [key])
}

const SAVEPOINT_NAME = /^[a-z_][a-z0-9_]*$/

function savepointName(name: string): string {
  if (!SAVEPOINT_NAME.test(name)) throw new Error(`not a savepoint name: ${name}`)
  return name
}

/** `SAVEPOINT name` inside the transaction `tx` (`name`: a lower-case SQL identifier). */
export async function setSavepoint(tx: Sql, name: string): Promise<void> {
  await tx.query(`SAVEPOINT ${savepointName(name)}`)
}

/** Undoes everything `tx` did since {@link setSavepoint} with this name; the transaction goes on. */
export async function rollbackToSavepoint(tx: Sql, name: string): Promise<void> {
  await tx.query(`ROLLBACK TO SAVEPOINT ${savepointName(name)}`)
}
