/**
 * The PostgreSQL driver's round trips: a repeated statement runs as a named prepared statement
 * (parsed and planned once per connection), and a schema change by another instance (a rolling
 * upgrade's migration) under such a statement is a 503 to retry, never a wrong row nor a poisoned
 * connection; a transaction sends BEGIN only before its first statement that is not a plain read,
 * and its `last` statement after only reads runs alone. On the embedded PostgreSQL, or the server
 * `DATABASE_URL` names.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SigilError } from '../../src/api/errors.js'
import { type EmbeddedCluster, startEmbeddedPostgres } from '../../src/service/store/embeddedPostgres.js'
import { openPostgres } from '../../src/service/store/postgres.js'
import { isStalePlanError, PreparedNames } from '../../src/service/store/preparedNames.js'
import type { Database } from '../../src/service/store/sql.js'
import { withDeferred } from '../../src/service/store/transactions.js'

const T = `prepared_${crypto.randomUUID().replaceAll('-', '')}`

describe.skipIf(process.env.SIGIL_DATABASE === 'pglite')('the PostgreSQL driver', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sigil-prepared-'))
  let cluster: EmbeddedCluster | undefined
  let db: Database
  let other: Database

  beforeAll(async () => {
    let url = process.env.DATABASE_URL
    if (!url) {
      cluster = await startEmbeddedPostgres(dir)
      url = cluster.url
    }
    db = await openPostgres(url)
    other = await openPostgres(url)
    await other.exec(`CREATE TABLE ${T} (id int PRIMARY KEY, v text NOT NULL)`)
    await other.query(`INSERT INTO ${T} VALUES (1, 'one'), (2, 'two')`)
  }, 60_000)
  afterAll(async () => {
    await other?.exec(`DROP TABLE IF EXISTS ${T}`)
    await db?.close()
    await other?.close()
    await cluster?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('a statement run again is prepared on its connection, and answers the same rows', async () => {
    const text = `SELECT * FROM ${T} WHERE id = $1`
    const answers = []
    for (let i = 0; i < 6; i++) {
      answers.push(
        await db.transaction(async (tx) => {
          const rows = await tx.query<{ id: number; v: string }>(text, [1 + (i % 2)])
          const prepared = await tx.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements WHERE statement = $1', [
            text,
          ])
          return { rows, prepared: prepared.length }
        }),
      )
    }
    expect(answers[0]).toEqual({ rows: [{ id: 1, v: 'one' }], prepared: 0 })
    expect(answers.slice(2).map((a) => a.rows[0]?.v)).toEqual(['one', 'two', 'one', 'two'])
    // From its second run on, every connection that ran it holds it prepared (a transaction keeps one connection).
    expect(answers.slice(2).every((a) => a.prepared === 1)).toBe(true)
  })

  it('a column added by another instance under a prepared SELECT * is a 503 to retry; the retry sees the new column', async () => {
    const text = `SELECT * FROM ${T} WHERE id = $1`
    // One connection for the whole test: run it in a transaction so the prepared one is reused.
    await db.transaction((tx) => tx.query(text, [1]))
    await db.transaction((tx) => tx.query(text, [1]))
    await other.exec(`ALTER TABLE ${T} ADD COLUMN w text NOT NULL DEFAULT 'new'`)

    const outcomes: string[] = []
    for (let i = 0; i < 12; i++) {
      try {
        const [row] = await db.transaction((tx) => tx.query<Record<string, unknown>>(text, [1]))
        outcomes.push(Object.keys(row ?? {}).join(','))
      } catch (e) {
        expect(e).toBeInstanceOf(SigilError)
        expect((e as SigilError).code).toBe('UNAVAILABLE')
        expect(isStalePlanError((e as SigilError).cause)).toBe(true)
        outcomes.push('retry')
      }
    }
    // Each pooled connection that held the old plan fails once, is destroyed, and is not reused;
    // every answer is either "retry" or the new shape, never the old one.
    expect(outcomes.some((o) => o === 'retry')).toBe(true)
    expect(outcomes.every((o) => o === 'retry' || o === 'id,v,w')).toBe(true)
    expect(outcomes.at(-1)).toBe('id,v,w')
  })

  it('defers BEGIN past plain reads: the transaction starts at its first write, and rolls back from there', async () => {
    const seen = await db.transaction(async (tx) => {
      const [before] = await tx.query<{ now: Date }>('SELECT now() AS now')
      await new Promise((r) => setTimeout(r, 60))
      await tx.query(`INSERT INTO ${T} (id, v) VALUES ($1, $2)`, [10, 'ten'])
      const [inside] = await tx.query<{ now: Date }>('SELECT now() AS now')
      return { before: before!.now.getTime(), inside: inside!.now.getTime() }
    })
    // now() is the transaction's start: the read ran on its own, the BEGIN came with the write.
    expect(seen.inside - seen.before).toBeGreaterThanOrEqual(50)

    await expect(
      db.transaction(async (tx) => {
        await tx.query(`SELECT v FROM ${T} WHERE id = $1`, [1])
        await tx.query(`INSERT INTO ${T} (id, v) VALUES ($1, $2)`, [11, 'eleven'])
        throw new Error('roll back')
      }),
    ).rejects.toThrow('roll back')
    expect(await other.query(`SELECT id FROM ${T} WHERE id IN (10, 11) ORDER BY id`)).toEqual([{ id: 10 }])
  })

  it('a locking read starts the transaction: its row lock is held until the end', async () => {
    let release!: () => void
    const held = new Promise<void>((r) => {
      release = r
    })
    let locked!: () => void
    const isLocked = new Promise<void>((r) => {
      locked = r
    })
    const t1 = db.transaction(async (tx) => {
      await tx.query(`SELECT id FROM ${T} WHERE id = $1 FOR UPDATE`, [1])
      locked()
      await held
    })
    await isLocked
    await expect(other.query(`SELECT id FROM ${T} WHERE id = $1 FOR UPDATE NOWAIT`, [1])).rejects.toMatchObject({ code: '55P03' })
    release()
    await t1
    expect(await other.query(`SELECT id FROM ${T} WHERE id = $1 FOR UPDATE NOWAIT`, [1])).toEqual([{ id: 1 }])
  })

  it('`last` after only reads runs alone and commits; after a write it commits with it; nothing runs after it', async () => {
    await db.transaction(async (tx) => {
      await tx.query(`SELECT v FROM ${T} WHERE id = $1`, [1])
      const rows = await tx.last<{ id: number }>(`INSERT INTO ${T} (id, v) VALUES ($1, $2) RETURNING id`, [20, 'twenty'])
      expect(rows).toEqual([{ id: 20 }])
      await expect(tx.query('SELECT 1')).rejects.toThrow('transaction is closed')
    })
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`INSERT INTO ${T} (id, v) VALUES ($1, $2)`, [21, 'twenty-one'])
        await tx.last(`INSERT INTO ${T} (id, v) VALUES ($1, $2)`, [21, 'duplicate'])
      }),
    ).rejects.toMatchObject({ code: '23505' })
    await db.transaction(async (tx) => {
      await tx.query(`INSERT INTO ${T} (id, v) VALUES ($1, $2)`, [22, 'twenty-two'])
      await tx.last(`INSERT INTO ${T} (id, v) VALUES ($1, $2)`, [23, 'twenty-three'])
    })
    // The failed pair left nothing (21 rolled back with its duplicate); the others committed.
    expect(await other.query(`SELECT id FROM ${T} WHERE id BETWEEN 20 AND 29 ORDER BY id`)).toEqual([{ id: 20 }, { id: 22 }, { id: 23 }])
  })

  it('deferred inserts go with the next statement: a body of inserts ending in `last` is one statement', async () => {
    const P = `${T}_p`
    const C = `${T}_c`
    await other.exec(
      `CREATE TABLE ${P} (id int PRIMARY KEY, st_at timestamptz NOT NULL DEFAULT statement_timestamp());
       CREATE TABLE ${C} (id int PRIMARY KEY, p int NOT NULL REFERENCES ${P}(id), st_at timestamptz NOT NULL DEFAULT statement_timestamp())`,
    )
    try {
      const returned = await db.transaction(async (tx) => {
        tx.defer(`INSERT INTO ${P} (id) VALUES ($1)`, [1])
        await new Promise((r) => setTimeout(r, 30))
        // The child's foreign key is checked at the statement's end, when the parent is in.
        tx.defer(`INSERT INTO ${C} (id, p) VALUES ($1, $2), ($3, $4)`, [1, 1, 2, 1])
        return tx.last<{ id: number }>(`WITH x AS (SELECT $1::int AS id) INSERT INTO ${P} (id) SELECT id FROM x RETURNING id`, [2])
      })
      expect(returned).toEqual([{ id: 2 }])
      const [stamps] = await other.query<{ rows: number; distinct: number }>(
        `SELECT count(*)::int AS rows, count(DISTINCT st_at)::int AS distinct FROM (SELECT st_at FROM ${P} UNION ALL SELECT st_at FROM ${C}) s`,
      )
      // One statement: one statement_timestamp (microseconds) for every row, despite the 30 ms between the defers.
      expect(stamps).toEqual({ rows: 4, distinct: 1 })

      // A read sees what was deferred before it; the body's end sends what is still held.
      const seen = await db.transaction(async (tx) => {
        tx.defer(`INSERT INTO ${P} (id) VALUES ($1)`, [3])
        const read = await tx.query<{ id: number }>(`SELECT id FROM ${P} WHERE id = $1`, [3])
        tx.defer(`INSERT INTO ${P} (id) VALUES ($1)`, [4])
        return read
      })
      expect(seen).toEqual([{ id: 3 }])
      expect(await other.query(`SELECT id FROM ${P} WHERE id IN (3, 4) ORDER BY id`)).toEqual([{ id: 3 }, { id: 4 }])

      // The statement they went with fails: none of them stays.
      await expect(
        db.transaction(async (tx) => {
          tx.defer(`INSERT INTO ${P} (id) VALUES ($1)`, [5])
          tx.defer(`INSERT INTO ${C} (id, p) VALUES ($1, $2)`, [5, 5])
          await tx.last(`INSERT INTO ${P} (id) VALUES ($1)`, [1])
        }),
      ).rejects.toMatchObject({ code: '23505' })
      // A savepoint sends what is held; rolling back to it drops what was deferred since.
      await db.transaction(async (tx) => {
        tx.defer(`INSERT INTO ${P} (id) VALUES ($1)`, [6])
        await tx.savepoint('sp')
        tx.defer(`INSERT INTO ${P} (id) VALUES ($1)`, [7])
        await tx.rollbackTo('sp')
      })
      expect(await other.query(`SELECT id FROM ${P} WHERE id >= 5 ORDER BY id`)).toEqual([{ id: 6 }])
      expect(await other.query(`SELECT id FROM ${C} WHERE id = 5`)).toEqual([])

      await db.transaction(async (tx) => {
        expect(() => tx.defer(`UPDATE ${P} SET id = 9 WHERE id = 6`)).toThrow(/only an INSERT/)
        expect(() => tx.defer(`INSERT INTO ${P} (id) VALUES (9) RETURNING id`)).toThrow(/only an INSERT/)
        expect(() => tx.defer(`WITH x AS (SELECT 1) INSERT INTO ${P} (id) SELECT 9 FROM x`)).toThrow(/only an INSERT/)
      })
    } finally {
      await other.exec(`DROP TABLE IF EXISTS ${C}; DROP TABLE IF EXISTS ${P}`)
    }
  })
})

describe('deferred inserts with their statement', () => {
  it('become WITH entries of it, placeholders renumbered in order, its own WITH (RECURSIVE) kept first', () => {
    const a = { text: 'INSERT INTO a (x) VALUES ($1)', params: ['a1'] }
    const b = { text: 'INSERT INTO b (x, y) VALUES ($1, $2), ($2, $1)', params: ['b1', 'b2'] }
    expect(withDeferred([a, b])).toEqual({
      text: 'WITH deferred_0 AS (INSERT INTO a (x) VALUES ($1)) INSERT INTO b (x, y) VALUES ($2, $3), ($3, $2)',
      params: ['a1', 'b1', 'b2'],
    })
    expect(withDeferred([a], { text: 'WITH RECURSIVE r(n) AS (SELECT $1::int) SELECT n FROM r', params: [7] })).toEqual({
      text: 'WITH RECURSIVE deferred_0 AS (INSERT INTO a (x) VALUES ($1)), r(n) AS (SELECT $2::int) SELECT n FROM r',
      params: ['a1', 7],
    })
    expect(withDeferred([], { text: 'SELECT $1', params: [1] })).toEqual({ text: 'SELECT $1', params: [1] })
  })
})

describe('statement names', () => {
  it('names a text from its second run on, one name per text, and stops at capacity', () => {
    const names = new PreparedNames(2, 8)
    expect(names.name('SELECT 1 WHERE $1')).toBeUndefined()
    const a = names.name('SELECT 1 WHERE $1')
    expect(a).toMatch(/^sigil_[A-Za-z0-9_-]{24}$/)
    expect(names.name('SELECT 1 WHERE $1')).toBe(a)
    names.name('SELECT 2 WHERE $1')
    const b = names.name('SELECT 2 WHERE $1')
    expect(b).not.toBe(a)
    names.name('SELECT 3 WHERE $1')
    expect(names.name('SELECT 3 WHERE $1')).toBeUndefined()
    expect(names.size).toBe(2)
  })
})
