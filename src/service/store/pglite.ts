import { concatBytes } from '../../crypto/encoding.js'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { PGlite, type Transaction, messages as backend, parse, protocol } from '@electric-sql/pglite'
import type { Database, Sql } from './sql.js'
import { StatementCache } from './statementCache.js'

/**
 * Embedded PostgreSQL in `<dataDir>/pgdata`. Durable: each commit is written before it returns.
 * `preparedStatements`: how many SQL texts stay prepared (least recently used are closed).
 */
export async function openPglite(dataDir: string, options: { preparedStatements?: number } = {}): Promise<Database> {
  const dir = join(dataDir, 'pgdata')
  mkdirSync(dir, { recursive: true })
  const pg = await PGlite.create({ dataDir: dir, relaxedDurability: false })
  const statements = new StatementCache(options.preparedStatements)
  const root: Sql = {
    async query<T>(text: string, params: unknown[] = []) {
      const values = textValues(params)
      if (!values || pg.closed) return (await pg.query<T>(text, params)).rows
      // As PGlite's query: waits for any open transaction, then runs alone.
      return pg._runExclusiveTransaction(() => pg._runExclusiveQuery(() => batched<T>(pg, statements, text, values, true, true)))
    },
  }
  const inTransaction = (tx: Transaction): Sql => ({
    async query<T>(text: string, params: unknown[] = []) {
      const values = textValues(params)
      if (!values || tx.closed) return (await tx.query<T>(text, params)).rows
      return pg._runExclusiveQuery(() => batched<T>(pg, statements, text, values, false, false))
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
 * One statement through the extended protocol in one round trip into the database, where
 * PGlite's `query` makes six (it also describes the statement first, to pick serializers by
 * parameter type). The first time a text is seen it is parsed under a name of its own (Parse,
 * Bind, Describe, Execute, Sync), afterwards only bound to that name; parameter types are
 * inferred by the server either way, as for an unnamed Parse without types. Evicted statements
 * are closed at the head of the next batch (Close works even in an aborted transaction).
 * `retry`: outside a transaction, a statement the server no longer knows is parsed again once.
 */
async function batched<T>(
  pg: PGlite,
  cache: StatementCache,
  text: string,
  values: Array<string | null>,
  syncToFs: boolean,
  retry: boolean,
): Promise<T[]> {
  const s = protocol.serialize
  const closes = cache.takeCloses()
  const { name, parse: needsParse } = cache.lookup(text)
  const parts = closes.map((c) => s.close({ type: 'S', name: c }))
  if (needsParse) parts.push(s.parse({ name, text }))
  parts.push(s.bind({ statement: name, values }), s.describe({ type: 'P' }), s.execute({}), s.sync())
  const { messages } = await pg.execProtocol(concatBytes(...parts), { syncToFs, throwOnError: false })
  let closed = 0
  let parsed = false
  let error: backend.DatabaseError | undefined
  for (const m of messages) {
    if (m.name === 'closeComplete') closed++
    else if (m.name === 'parseComplete') parsed = true
    else if (m instanceof backend.DatabaseError) error ??= m
  }
  if (closed < closes.length) cache.requeue(closes.slice(closed))
  if (parsed) cache.prepared(text, name)
  if (error) {
    if (!needsParse && error.code === '26000') {
      cache.forget(text, name)
      if (retry) return batched<T>(pg, cache, text, values, syncToFs, false)
    }
    throw error
  }
  const [result] = parse.parseResults(messages, pg.parsers)
  return (result?.rows ?? []) as T[]
}
