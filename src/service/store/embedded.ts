/**
 * The default database (no DATABASE_URL): the embedded PostgreSQL of `embeddedPostgres.ts` through
 * the same `pg` driver as a networked server. Closing the database stops the server.
 *
 * A data dir of an earlier release holds a PGlite database (`pgdata/`) and no `postgres/`: on its
 * first start here every row is copied into the new server (`copy.ts`, one transaction, counts
 * checked), then `pgdata/` is renamed `pgdata.migrated` and kept until the operator deletes it.
 * The master key and the sealed keys are bytes in rows and files the copy leaves as they are.
 * If the copy fails, the new cluster is removed and the PGlite data stays in place, untouched but
 * for its own schema migrations, so the next start (or `SIGIL_DATABASE=pglite`) finds it again.
 */
import { renameSync, rmSync } from 'node:fs'
import { clusterDir, databasesIn, migratedPgliteDir, passwordPath, pgliteDir } from './dataDir.js'
import { startEmbeddedPostgres, type EmbeddedCluster } from './embeddedPostgres.js'
import type { Database, DatabaseEvents } from './sql.js'

type Log = (message: string, fields?: Record<string, string | number | boolean>) => void

/** True when the data dir holds a PGlite database that no embedded PostgreSQL has taken over yet. */
export function needsPgliteMigration(dataDir: string): boolean {
  const held = databasesIn(dataDir)
  return held.pglite && !held.postgres
}

/** Copies the PGlite database of `dataDir` into a new embedded PostgreSQL there. */
export async function migratePgliteDataDir(dataDir: string, log?: Log): Promise<{ rows: number; tables: number; ms: number }> {
  const started = Date.now()
  const [{ openPglite }, { copyDatabase }, { openPostgres }] = await Promise.all([
    import('./pglite.js'),
    import('./copy.js'),
    import('./postgres.js'),
  ])
  const cluster = await startEmbeddedPostgres(dataDir)
  let target: Database | undefined
  let source: Database | undefined
  try {
    target = await openPostgres(cluster.url)
    source = await openPglite(dataDir)
    const report = await copyDatabase(source, target)
    await source.close()
    source = undefined
    await target.close()
    target = undefined
    await cluster.stop()
    renameSync(pgliteDir(dataDir), migratedPgliteDir(dataDir))
    const ms = Date.now() - started
    log?.('PGlite data dir migrated to the embedded PostgreSQL', {
      rows: report.rows,
      tables: report.tables,
      ms,
      kept: migratedPgliteDir(dataDir),
    })
    return { rows: report.rows, tables: report.tables, ms }
  } catch (e) {
    await source?.close().catch(() => {})
    await target?.close().catch(() => {})
    await cluster.stop()
    rmSync(clusterDir(dataDir), { recursive: true, force: true })
    rmSync(passwordPath(dataDir), { force: true })
    throw new Error(
      `moving the PGlite database in ${pgliteDir(dataDir)} to the embedded PostgreSQL failed, nothing was changed: ${(e as Error).message}. ` +
        'Start with SIGIL_DATABASE=pglite to keep using it meanwhile.',
      { cause: e },
    )
  }
}

/** Restart delays after the server exits on its own: doubling up to 30 s. */
const RESTART_FIRST_MS = 250
const RESTART_MAX_MS = 30_000

/**
 * Starts (creating, or migrating into, on first start) the data dir's PostgreSQL and connects to it.
 * If the server exits on its own (killed, crashed), it is started again on the same port, after
 * 0.25 s and then doubling delays up to 30 s; meanwhile requests answer 503 and the pool reconnects
 * once it is back, as with any PostgreSQL that restarts.
 */
export async function openEmbeddedPostgres(
  dataDir: string,
  options: { events?: DatabaseEvents | undefined; log?: Log | undefined } = {},
): Promise<Database> {
  // The driver loads while the server starts (its failure is reported where it is awaited).
  const driver = import('./postgres.js')
  driver.catch(() => {})
  if (needsPgliteMigration(dataDir)) await migratePgliteDataDir(dataDir, options.log)
  let cluster: EmbeddedCluster = await startEmbeddedPostgres(dataDir)
  if (cluster.orphanStopped) options.log?.('stopped the embedded PostgreSQL an earlier run left behind', { pid: cluster.orphanStopped })
  let closed = false
  let wake: (() => void) | undefined
  const supervise = (c: EmbeddedCluster) => {
    void c.exited.then(async (code) => {
      if (closed || c.stopping) return
      options.log?.('embedded PostgreSQL exited on its own; restarting it', { code: code ?? 'killed', pid: c.pid })
      for (let delay = RESTART_FIRST_MS; !closed; delay = Math.min(delay * 2, RESTART_MAX_MS)) {
        await new Promise<void>((r) => {
          wake = r
          setTimeout(r, delay).unref()
        })
        if (closed) return
        try {
          cluster = await startEmbeddedPostgres(dataDir, { port: c.port })
          if (closed) {
            await cluster.stop()
            return
          }
          options.log?.('embedded PostgreSQL restarted', { pid: cluster.pid })
          supervise(cluster)
          return
        } catch (e) {
          options.log?.('embedded PostgreSQL did not restart yet', { error: (e as Error).message.slice(0, 300) })
        }
      }
    })
  }
  supervise(cluster)
  let db: Database
  try {
    db = await (await driver).openPostgres(cluster.url, options.events)
  } catch (e) {
    closed = true
    await cluster.stop()
    throw e
  }
  return {
    ...db,
    async close() {
      closed = true
      wake?.()
      try {
        await db.close()
      } finally {
        await cluster.stop()
      }
    },
  }
}
