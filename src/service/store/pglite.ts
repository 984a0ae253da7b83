import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import type { Database, Sql } from './db.js'

/** Embedded PostgreSQL in `<dataDir>/pgdata`. Durable: each commit is written before it returns. */
export async function openPglite(dataDir: string): Promise<Database> {
  const dir = join(dataDir, 'pgdata')
  mkdirSync(dir, { recursive: true })
  const pg = await PGlite.create({ dataDir: dir, relaxedDurability: false })
  const asSql = (q: Pick<PGlite, 'query'>): Sql => ({
    async query<T>(text: string, params: unknown[] = []) {
      const r = await q.query<T>(text, params as unknown[])
      return r.rows
    },
  })
  const root = asSql(pg)
  return {
    kind: 'pglite',
    query: root.query,
    transaction: (fn) => pg.transaction((tx) => fn(asSql(tx))),
    async exec(script) {
      await pg.exec(script)
    },
    close: () => pg.close(),
  }
}
