/**
 * Where each embedded database keeps its files in the data dir, and which of them a data dir holds.
 * One place for the layout the engines, the move from PGlite and the backups share.
 */
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync } from 'node:fs'
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

/**
 * Takes every group and other permission off `path` and, for a directory, everything under it
 * (symbolic links are not followed): directories 0700, files 0600. Returns how many entries it changed.
 */
export function restrictTree(path: string): number {
  let changed = 0
  const visit = (p: string) => {
    const st = lstatSync(p, { throwIfNoEntry: false })
    if (!st || st.isSymbolicLink()) return
    if ((st.mode & 0o077) !== 0) {
      try {
        chmodSync(p, st.mode & 0o700)
      } catch (e) {
        throw new Error(
          `${p} is readable or writable by group or others and its mode cannot be changed (${(e as NodeJS.ErrnoException).code}): ` +
            "make it the service user's only (chmod 700 for directories, 600 for files)",
        )
      }
      changed++
    }
    if (st.isDirectory()) for (const name of readdirSync(p)) visit(join(p, name))
  }
  visit(path)
  return changed
}

/**
 * At start, before an embedded database opens, so no other local user
 * reads keys or data: the data dir's databases (`postgres/`,
 * `pgdata/`, `pgdata.migrated/`) are the owner's only, directories 0700 and files 0600, and so are
 * the files directly in the data dir (master key, admin key, password, logs); the data dir itself
 * loses group and other read and write (traverse stays, for the `postgres` system user of a root
 * install). A new data dir is made 0700. Modes found looser are fixed and `warn` says so.
 */
export function secureDataDir(dataDir: string, warn: (message: string, fields: Record<string, string | number>) => void): void {
  if (!existsSync(dataDir)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 })
    return
  }
  let changed = 0
  const top = lstatSync(dataDir)
  if ((top.mode & 0o066) !== 0) {
    chmodSync(dataDir, top.mode & ~0o066 & 0o7777)
    changed++
  }
  const databases = new Set([clusterDir(dataDir), pgliteDir(dataDir), migratedPgliteDir(dataDir)])
  for (const entry of readdirSync(dataDir, { withFileTypes: true })) {
    const path = join(dataDir, entry.name)
    if (databases.has(path) || entry.isFile()) changed += restrictTree(path)
  }
  if (changed > 0)
    warn('data dir permissions were open to group or others: fixed (directories 0700, files 0600)', { dataDir, entries: changed })
}
