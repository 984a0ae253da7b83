/**
 * A dump (`copy.ts`) as bytes: gzipped lines, what a backup of a PostgreSQL-backed data dir holds.
 *
 *   {"kind":"schema","version":17}
 *   T<TAB>table                       a table starts
 *   R<TAB>{…row as to_json…}          one row (JSON never holds a raw newline or tab)
 *   E<TAB>table<TAB>count             the table ends, with its row count
 *   S<TAB>[{"name":…,"last":…,"called":…}]   the sequences, last
 *
 * Rows stay the exact text PostgreSQL wrote (never parsed into JavaScript numbers), so 64-bit and
 * numeric values keep every digit.
 */
import { promisify } from 'node:util'
import { gunzip, gzip } from 'node:zlib'
import { z } from 'zod'
import { dumpDatabase, startLoad, type CopyReport, type DumpEvent } from './copy.js'
import { migrate } from './migrate.js'
import type { Database } from './sql.js'

const gzipAsync = promisify(gzip)
const gunzipAsync = promisify(gunzip)
const BATCH = 1000

const Sequences = z.array(z.object({ name: z.string(), last: z.string().regex(/^-?\d+$/), called: z.boolean() }))
const Schema = z.object({ kind: z.literal('schema'), version: z.number().int().nonnegative() })

const json = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Every row of `db`, from one snapshot, as a gzipped dump. */
export async function dumpToBytes(db: Database): Promise<{ bytes: Uint8Array; report: CopyReport }> {
  const parts: string[] = []
  const report = await dumpDatabase(db, (e) => {
    switch (e.kind) {
      case 'schema':
        parts.push(`${JSON.stringify({ kind: 'schema', version: e.version })}\n`)
        return
      case 'table':
        parts.push(`T\t${e.name}\n`)
        return
      case 'rows':
        for (const r of e.rows) parts.push(`R\t${r}\n`)
        return
      case 'end-table':
        parts.push(`E\t${e.name}\t${e.count}\n`)
        return
      case 'sequences':
        parts.push(`S\t${JSON.stringify(e.sequences)}\n`)
        return
    }
  })
  return { bytes: new Uint8Array(await gzipAsync(Buffer.from(parts.join(''), 'utf8'))), report }
}

/** The events of a gzipped dump; throws a clear error on anything malformed. */
export async function* readDump(bytes: Uint8Array): AsyncGenerator<DumpEvent> {
  let text: string
  try {
    text = (await gunzipAsync(bytes)).toString('utf8')
  } catch {
    throw new Error('the dump is not gzip data')
  }
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  let table: string | undefined
  let rows: string[] = []
  for (const [i, line] of lines.entries()) {
    const bad = (why: string) => new Error(`dump line ${i + 1}: ${why}`)
    if (i === 0) {
      const parsed = Schema.safeParse(json(line))
      if (!parsed.success) throw bad('expected the schema version')
      yield parsed.data
      continue
    }
    const tab = line.indexOf('\t')
    const tag = line.slice(0, tab)
    const rest = line.slice(tab + 1)
    if (tag === 'R') {
      if (!table) throw bad('a row outside any table')
      rows.push(rest)
      if (rows.length >= BATCH) {
        yield { kind: 'rows', name: table, rows }
        rows = []
      }
    } else if (tag === 'T') {
      if (table) throw bad(`table ${rest} starts before ${table} ends`)
      table = rest
      yield { kind: 'table', name: rest }
    } else if (tag === 'E') {
      const [name, count] = rest.split('\t')
      if (!table || name !== table || !/^\d+$/.test(count ?? '')) throw bad('a malformed table end')
      if (rows.length) yield { kind: 'rows', name: table, rows }
      rows = []
      table = undefined
      yield { kind: 'end-table', name, count: Number(count) }
    } else if (tag === 'S') {
      const parsed = Sequences.safeParse(json(rest))
      if (!parsed.success || table) throw bad('malformed sequences')
      yield { kind: 'sequences', sequences: parsed.data }
    } else {
      throw bad(`unknown line kind ${JSON.stringify(tag)}`)
    }
  }
}

/** Loads a gzipped dump into `db` (migrated here, holding no data), in one transaction. */
export async function loadDumpBytes(db: Database, bytes: Uint8Array): Promise<CopyReport> {
  await migrate(db)
  return db.transaction(async (tx) => {
    const loader = await startLoad(tx)
    for await (const e of readDump(bytes)) await loader.push(e)
    return loader.finish()
  })
}
