import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { PGlite, type Transaction, parse, protocol } from '@electric-sql/pglite'
import type { Database, Sql } from './db.js'

/** Embedded PostgreSQL in `<dataDir>/pgdata`. Durable: each commit is written before it returns. */
export async function openPglite(dataDir: string): Promise<Database> {
  const dir = join(dataDir, 'pgdata')
  mkdirSync(dir, { recursive: true })
  const pg = await PGlite.create({ dataDir: dir, relaxedDurability: false })
  const root: Sql = {
    async query<T>(text: string, params: unknown[] = []) {
      const values = textValues(params)
      if (!values || pg.closed) return (await pg.query<T>(text, params)).rows
      // As PGlite's query: waits for any open transaction, then runs alone.
      return pg._runExclusiveTransaction(() => pg._runExclusiveQuery(() => batched<T>(pg, text, values, true)))
    },
  }
  const inTransaction = (tx: Transaction): Sql => ({
    async query<T>(text: string, params: unknown[] = []) {
      const values = textValues(params)
      if (!values || tx.closed) return (await tx.query<T>(text, params)).rows
      return pg._runExclusiveQuery(() => batched<T>(pg, text, values, false))
    },
  })
  return {
    kind: 'pglite',
    query: root.query,
    transaction: (fn) => pg.transaction((tx) => fn(inTransaction(tx))),
    async exec(script) {
      await pg.exec(script)
    },
    close: () => pg.close(),
  }
}

/**
 * The parameters as the text PGlite's own serializers would send for them, or undefined when
 * one needs the parameter's type to serialize (arrays, bytes, dates, objects): those statements
 * take PGlite's `query`. Strings pass through (text, json and the like); numbers and booleans
 * as `toString` (valid input for text, numeric, json and boolean alike).
 */
function textValues(params: unknown[]): Array<string | null> | undefined {
  const out: Array<string | null> = []
  for (const v of params) {
    if (v === null || v === undefined) out.push(null)
    else if (typeof v === 'string') out.push(v)
    else if (typeof v === 'number' || typeof v === 'boolean') out.push(String(v))
    else return undefined
  }
  return out
}

/**
 * One statement through the extended protocol in one round trip into the database
 * (Parse, Bind, Describe, Execute, Sync), where PGlite's `query` makes six (it also describes the
 * statement first, to pick serializers by parameter type). Same messages, same result parsing.
 */
async function batched<T>(pg: PGlite, text: string, values: Array<string | null>, syncToFs: boolean): Promise<T[]> {
  const s = protocol.serialize
  const message = concat([s.parse({ text }), s.bind({ values }), s.describe({ type: 'P' }), s.execute({}), s.sync()])
  const { messages } = await pg.execProtocol(message, { syncToFs })
  const [result] = parse.parseResults(messages, pg.parsers)
  return (result?.rows ?? []) as T[]
}

function concat(parts: Uint8Array[]): Uint8Array {
  let length = 0
  for (const p of parts) length += p.length
  const out = new Uint8Array(length)
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}
