import pg from 'pg'
import type { Database, Sql } from './sql.js'

// int8 columns (our millisecond timestamps, sequence numbers) as JS numbers: they stay below 2^53.
pg.types.setTypeParser(20, (v) => Number(v))

/** A real PostgreSQL, shared by any number of service instances. */
export async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 })
  // Fail fast with a clear error when the server is unreachable.
  const probe = await pool.connect()
  probe.release()
  const asSql = (c: pg.Pool | pg.PoolClient): Sql => ({
    async query<T>(text: string, params: unknown[] = []) {
      const r = await c.query(text, params)
      return r.rows as T[]
    },
  })
  return {
    kind: 'postgres',
    query: asSql(pool).query,
    async transaction(fn) {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        const out = await fn(asSql(client))
        await client.query('COMMIT')
        return out
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {})
        throw e
      } finally {
        client.release()
      }
    },
    async exec(script) {
      await pool.query(script)
    },
    close: () => pool.end(),
  }
}
