/**
 * Every row of a database, out and back in: how a PGlite data dir of an earlier release moves into
 * the embedded PostgreSQL, and what a backup of the embedded PostgreSQL holds. Engine to
 * engine: it runs on the `Database` interface only.
 *
 * `dumpDatabase` reads in one REPEATABLE READ, read-only transaction (one snapshot; writers go on)
 * through cursors, 1,000 rows at a time, each row as JSON (`to_json`: bytea as `\x…` hex, timestamps
 * and arrays as their text forms). `loadDump` takes them back with `json_populate_recordset`, which
 * parses each field with its column type's own input function, so values round-trip exactly. The
 * target is written in one transaction with triggers and foreign-key checks off
 * (`session_replication_role = replica`: rows arrive table by table), sequences are set to the
 * source's state and every table's row count is checked before COMMIT: a load lands whole or not at all.
 */
import { listMigrations, migrate } from './migrate.js'
import type { Database, Sql } from './sql.js'

const BATCH = 1000

/** What a dump is made of, in order: the schema version, then per table its rows (in batches), then the sequences. */
export type DumpEvent =
  | { kind: 'schema'; version: number }
  | { kind: 'table'; name: string }
  | { kind: 'rows'; name: string; rows: string[] }
  | { kind: 'end-table'; name: string; count: number }
  | { kind: 'sequences'; sequences: Array<{ name: string; last: string; called: boolean }> }

export type CopyReport = { tables: number; rows: number; byTable: Record<string, number> }

const ident = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected table name ${JSON.stringify(name)}`)
  return `"${name}"`
}

async function tablesOf(sql: Sql): Promise<string[]> {
  const rows = await sql.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1",
  )
  return rows.map((r) => r.name)
}

async function schemaVersion(sql: Sql): Promise<number> {
  const [r] = await sql.query<{ v: number | null }>('SELECT max(version) AS v FROM schema_migrations')
  return Number(r?.v ?? 0)
}

/** True when `db` holds no row in any table but the migrations' own. */
export async function isEmpty(db: Sql): Promise<boolean> {
  for (const t of await tablesOf(db)) {
    if (t === 'schema_migrations') continue
    const [r] = await db.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${ident(t)}) AS any`)
    if (r?.any) return false
  }
  return true
}

/**
 * Every row of `db` (at this release's schema: migrated first) as events, from one snapshot.
 * `sink` is awaited for each event, so a slow consumer holds the reader back instead of buffering.
 */
export async function dumpDatabase(db: Database, sink: (e: DumpEvent) => Promise<void> | void): Promise<CopyReport> {
  await migrate(db)
  const byTable: Record<string, number> = {}
  await db.transaction(async (src) => {
    await src.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY')
    await sink({ kind: 'schema', version: await schemaVersion(src) })
    for (const name of (await tablesOf(src)).filter((t) => t !== 'schema_migrations')) {
      await sink({ kind: 'table', name })
      let count = 0
      await src.query(`DECLARE sigil_dump NO SCROLL CURSOR FOR SELECT to_json(t)::text AS j FROM ${ident(name)} t`)
      for (;;) {
        const rows = await src.query<{ j: string }>(`FETCH ${BATCH} FROM sigil_dump`)
        if (rows.length === 0) break
        count += rows.length
        await sink({ kind: 'rows', name, rows: rows.map((r) => r.j) })
      }
      await src.query('CLOSE sigil_dump')
      await sink({ kind: 'end-table', name, count })
      byTable[name] = count
    }
    const sequences: Array<{ name: string; last: string; called: boolean }> = []
    const names = await src.query<{ name: string }>(
      "SELECT sequence_name AS name FROM information_schema.sequences WHERE sequence_schema = 'public' ORDER BY 1",
    )
    for (const { name } of names) {
      const [r] = await src.query<{ last: string; called: boolean }>(
        `SELECT last_value::text AS last, is_called AS called FROM ${ident(name)}`,
      )
      if (r) sequences.push({ name, last: r.last, called: r.called })
    }
    await sink({ kind: 'sequences', sequences })
  })
  return { tables: Object.keys(byTable).length, rows: Object.values(byTable).reduce((a, b) => a + b, 0), byTable }
}

/** Something that loads dump events into one open transaction; `finish` checks and returns the report. */
export type Loader = { push(e: DumpEvent): Promise<void>; finish(): CopyReport }

/** A loader writing into `tx`, a transaction on a database migrated to this release and holding no data. */
export async function startLoad(tx: Sql): Promise<Loader> {
  if (!(await isEmpty(tx))) throw new Error('the target database already holds data')
  const latest = listMigrations().at(-1)?.version ?? 0
  if ((await schemaVersion(tx)) !== latest) throw new Error('the target database is not at this release’s schema version')
  await tx.query('SET LOCAL session_replication_role = replica')
  const tables = new Set(await tablesOf(tx))
  const byTable: Record<string, number> = {}
  let schemaSeen = false
  let sequencesSeen = false
  return {
    async push(e) {
      switch (e.kind) {
        case 'schema':
          if (e.version !== latest) {
            throw new Error(
              `the dump is of schema version ${e.version}, this release is at ${latest}: load it with the release that made it, then upgrade`,
            )
          }
          schemaSeen = true
          return
        case 'table':
          if (!schemaSeen) throw new Error('the dump does not start with its schema version')
          if (!tables.has(e.name) || e.name === 'schema_migrations')
            throw new Error(`the dump names an unknown table ${JSON.stringify(e.name)}`)
          byTable[e.name] = 0
          return
        case 'rows': {
          const before = byTable[e.name]
          if (before === undefined) throw new Error(`rows of table ${JSON.stringify(e.name)} before its start`)
          await tx.query(`INSERT INTO ${ident(e.name)} SELECT * FROM json_populate_recordset(NULL::${ident(e.name)}, $1::json)`, [
            `[${e.rows.join(',')}]`,
          ])
          byTable[e.name] = before + e.rows.length
          return
        }
        case 'end-table': {
          const [count] = await tx.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${ident(e.name)}`)
          if (byTable[e.name] !== e.count || Number(count?.n) !== e.count) {
            throw new Error(`table ${e.name}: the dump says ${e.count} rows, ${byTable[e.name]} arrived, the target holds ${count?.n}`)
          }
          return
        }
        case 'sequences':
          for (const s of e.sequences) await tx.query(`SELECT setval('${ident(s.name)}', $1::bigint, $2)`, [s.last, s.called])
          sequencesSeen = true
          return
      }
    },
    finish() {
      if (!sequencesSeen) throw new Error('the dump is incomplete: it ends before its sequences')
      return { tables: Object.keys(byTable).length, rows: Object.values(byTable).reduce((a, b) => a + b, 0), byTable }
    },
  }
}

/**
 * Migrates both databases to this release's schema, then copies every row of `source` into `target`,
 * which must hold no data. Throws (and leaves `target` as it was) on any difference.
 */
export async function copyDatabase(source: Database, target: Database): Promise<CopyReport> {
  await migrate(target)
  return target.transaction(async (tx) => {
    const loader = await startLoad(tx)
    await dumpDatabase(source, (e) => loader.push(e))
    return loader.finish()
  })
}
