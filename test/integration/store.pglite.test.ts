/**
 * The PGlite fast path with its prepared-statement cache (src/service/store/pglite.ts):
 * eviction closes statements, errors keep the cache consistent, stale statements re-parse.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../src/service/store/sql.js'
import { openPglite } from '../../src/service/store/pglite.js'

const dir = mkdtempSync(join(tmpdir(), 'sigil-pglite-'))
let db: Database
const prepared = async () =>
  (await db.query<{ name: string }>('SELECT name FROM pg_prepared_statements ORDER BY name', [])).map((r) => r.name)
const code = (c: string) => (e: unknown) => (e as { code?: string }).code === c

beforeAll(async () => {
  db = await openPglite(dir, { preparedStatements: 2 })
  await db.exec('CREATE TABLE t (id int primary key, v text)')
  await db.query('INSERT INTO t VALUES ($1, $2)', [1, 'a'])
  await db.query('INSERT INTO t VALUES ($1, $2)', ['2', 'b'])
})
afterAll(async () => {
  await db?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('PGlite prepared-statement cache', () => {
  it('types parameters as before and keeps the server-side statements bounded', async () => {
    expect(await db.query('SELECT v FROM t WHERE id = $1', [2])).toEqual([{ v: 'b' }])
    for (let i = 0; i < 20; i++) expect(await db.query(`SELECT $1::int + ${i} AS x`, [1])).toEqual([{ x: 1 + i }])
    expect((await prepared()).length).toBeLessThanOrEqual(3)
  })

  it('survives a unique violation outside and inside a transaction', async () => {
    await expect(db.query('INSERT INTO t VALUES ($1, $2)', [1, 'dup'])).rejects.toSatisfy(code('23505'))
    await db.query('INSERT INTO t VALUES ($1, $2)', [3, 'c'])
    await expect(
      db.transaction(async (tx) => {
        await tx.query('UPDATE t SET v = $2 WHERE id = $1', [1, 'zz'])
        await tx.query('INSERT INTO t VALUES ($1, $2)', [1, 'dup'])
      }),
    ).rejects.toSatisfy(code('23505'))
    expect(await db.query('SELECT v FROM t WHERE id = $1', [1])).toEqual([{ v: 'a' }])
    await db.query('UPDATE t SET v = $2 WHERE id = $1', [1, 'a2'])
    expect(await db.query('SELECT v FROM t WHERE id = $1', [1])).toEqual([{ v: 'a2' }])
  })

  it('keeps a statement whose first bind failed, and caches nothing for a syntax error', async () => {
    const sql = 'SELECT v FROM t WHERE id = $1 AND $2::int > 0'
    await expect(db.query(sql, [1, 'x'])).rejects.toSatisfy(code('22P02'))
    expect(await db.query(sql, [1, '5'])).toEqual([{ v: 'a2' }])
    for (let i = 0; i < 2; i++) await expect(db.query('SELEC $1', [1])).rejects.toSatisfy(code('42601'))
  })

  it('re-parses statements that were deallocated behind its back', async () => {
    const sql = 'SELECT v FROM t WHERE id = $1 AND $2::int > 0'
    await db.exec('DEALLOCATE ALL')
    expect(await db.query(sql, [1, '5'])).toEqual([{ v: 'a2' }])
    await db.exec('DEALLOCATE ALL')
    await expect(db.transaction((tx) => tx.query(sql, [1, '5']))).rejects.toSatisfy(code('26000'))
    expect(await db.query(sql, [1, '5'])).toEqual([{ v: 'a2' }])
  })

  it('supports savepoints and array parameters', async () => {
    await db.transaction(async (tx) => {
      await tx.query('SAVEPOINT sp')
      await expect(tx.query('INSERT INTO t VALUES ($1, $2)', [1, 'dup'])).rejects.toSatisfy(code('23505'))
      await tx.query('ROLLBACK TO SAVEPOINT sp')
      await tx.query('INSERT INTO t VALUES ($1, $2)', [9, 'nine'])
    })
    expect(await db.query('SELECT v FROM t WHERE id = $1', [9])).toEqual([{ v: 'nine' }])
    expect(await db.query('SELECT $1::text[] AS a', [['x', 'y']])).toEqual([{ a: ['x', 'y'] }])
  })

  it('rolls back a transaction whose failed statement was caught, and runs calls one at a time', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO t VALUES ($1, $2)', [40, 'kept?'])
        await tx.query('INSERT INTO t VALUES ($1, $2)', [1, 'dup']).catch(() => {})
      }),
    ).rejects.toSatisfy(code('25P02'))
    expect(await db.query('SELECT v FROM t WHERE id = $1', [40])).toEqual([])
    // A query issued while a transaction runs waits for it (and sees its commit).
    let inside = false
    const tx = db.transaction(async (t) => {
      inside = true
      await t.query('INSERT INTO t VALUES ($1, $2)', [41, 'x'])
      await new Promise((r) => setTimeout(r, 50))
      inside = false
    })
    const seen = db.query<{ v: string }>('SELECT v FROM t WHERE id = $1', [41]).then((rows) => ({ rows, inside }))
    await tx
    expect(await seen).toEqual({ rows: [{ v: 'x' }], inside: false })
  })
})
