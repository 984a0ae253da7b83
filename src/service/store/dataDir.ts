/**
 * Where each embedded database keeps its files in the data dir, and which of them a data dir holds.
 * One place for the layout the engines, the move from PGlite and the backups share.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'

/** The embedded PostgreSQL's cluster (the default engine). */
export const clusterDir = (dataDir: string) => join(dataDir, 'postgres')
/** Its generated password, mode 0600. */
export const passwordPath = (dataDir: string) => join(dataDir, 'postgres.password')
/** Its server log of the current run (`.1`: the run before). */
export const logPath = (dataDir: string) => join(dataDir, 'postgres.log')
/** PGlite's data dir (`SIGIL_DATABASE=pglite`, and the default of earlier releases). */
export const pgliteDir = (dataDir: string) => join(dataDir, 'pgdata')
/** A PGlite data dir after its rows moved into the embedded PostgreSQL, kept until deleted. */
export const migratedPgliteDir = (dataDir: string) => join(dataDir, 'pgdata.migrated')

/** Which initialized databases the data dir holds. */
export function databasesIn(dataDir: string): { postgres: boolean; pglite: boolean } {
  return {
    postgres: existsSync(join(clusterDir(dataDir), 'PG_VERSION')),
    pglite: existsSync(join(pgliteDir(dataDir), 'PG_VERSION')),
  }
}
