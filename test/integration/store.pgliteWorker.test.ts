/**
 * PGlite on its worker thread (src/service/store/pgliteInWorker.ts): values and errors cross the
 * thread as the in-thread database gives them, transactions hold the database and roll back as a
 * whole, and a worker that dies fails its calls with DatabaseUnavailableError, then is replaced
 * with every committed row intact.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import type { Worker } from 'node:worker_threads'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPgliteInWorker } from '../../src/service/store/pgliteInWorker.js'
import { DatabaseUnavailableError, type Database } from '../../src/service/store/sql.js'

const dir = mkdtempSync(join(tmpdir(), 'sigil-pglite-worker-'))
let db: Database
const workers: Worker[] = []
const code = (c: string) => (e: unknown) => (e as { code?: string }).code === c

beforeAll(async () => {
  db = await openPgliteInWorker(dir, {}, { onWorker: (w) => workers.push(w) })
  await db.exec('CREATE TABLE t (id int primary key, b bytea, j jsonb, n numeric, at timestamptz, tags text[])')
})
afterAll(async () => {
  await db?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('PGlite on a worker thread', () => {
  it('carries parameters and rows of every kind the store uses', async () => {
    const at = new Date('2026-01-02T03:04:05.678Z')
    const [row] = await db.query('INSERT INTO t VALUES ($1, $2, $3, $4, $5, $6) RETURNING *', [
      1,
      new Uint8Array([0, 1, 255]),
      JSON.stringify({ a: [1, 'x'] }),
      '12345678901234567890',
      at,
      ['x', 'y'],
    ])
    expect(row).toEqual({ id: 1, b: new Uint8Array([0, 1, 255]), j: { a: [1, 'x'] }, n: '12345678901234567890', at, tags: ['x', 'y'] })
    expect(await db.query('SELECT id FROM t WHERE id = $1', ['1'])).toEqual([{ id: 1 }])
  })

  it("gives PostgreSQL's error codes and messages", async () => {
    await expect(db.query('INSERT INTO t (id) VALUES ($1)', [1])).rejects.toSatisfy(code('23505'))
    await expect(db.query('SELEC 1')).rejects.toThrow(/syntax error/)
    await expect(db.query('SELECT $1::int', ['x'])).rejects.toSatisfy(code('22P02'))
  })

  it('commits a transaction as a whole, and rolls it back when its function throws or a statement fails', async () => {
    const out = await db.transaction(async (tx) => {
      await tx.query('INSERT INTO t (id) VALUES ($1)', [2])
      return (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM t'))[0]?.n
    })
    expect(out).toBe(2)
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO t (id) VALUES ($1)', [3])
        throw new Error('changed my mind')
      }),
    ).rejects.toThrow('changed my mind')
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO t (id) VALUES ($1)', [4])
        await tx.query('INSERT INTO t (id) VALUES ($1)', [1])
      }),
    ).rejects.toSatisfy(code('23505'))
    // an error caught inside the function still aborts the transaction: COMMIT reports it
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO t (id) VALUES ($1)', [5])
        await tx.query('INSERT INTO t (id) VALUES ($1)', [1]).catch(() => {})
      }),
    ).rejects.toSatisfy(code('25P02'))
    expect(await db.query('SELECT id FROM t ORDER BY id')).toEqual([{ id: 1 }, { id: 2 }])
  })

  it('runs concurrent transactions one at a time, each seeing the last one committed', async () => {
    await db.exec('CREATE TABLE c (k int primary key, v int)')
    await db.query('INSERT INTO c VALUES (1, 0)')
    await Promise.all(
      Array.from({ length: 20 }, () =>
        db.transaction(async (tx) => {
          const [r] = await tx.query<{ v: number }>('SELECT v FROM c WHERE k = 1')
          await new Promise((resolve) => setTimeout(resolve, 1))
          await tx.query('UPDATE c SET v = $1 WHERE k = 1', [(r?.v ?? 0) + 1])
        }),
      ),
    )
    expect(await db.query('SELECT v FROM c')).toEqual([{ v: 20 }])
    const tx = db.transaction(async (t) => t)
    const inner = await tx
    await expect(inner.query('SELECT 1')).rejects.toThrow('transaction is closed')
  })

  it('takes a snapshot of the data dir (gzipped tar)', async () => {
    const gz = await db.snapshot?.()
    expect(gz).toBeInstanceOf(Uint8Array)
    const tar = gunzipSync(gz as Uint8Array)
    expect(tar.toString('latin1')).toContain('PG_VERSION')
  })

  it('a worker that dies fails what it had, is replaced on a later call, and nothing committed is lost', async () => {
    await db.query('INSERT INTO t (id) VALUES ($1) ON CONFLICT DO NOTHING', [10])
    const first = workers.at(-1) as Worker
    const slow = db.query('SELECT pg_sleep(0.5)')
    await first.terminate()
    await expect(slow).rejects.toBeInstanceOf(DatabaseUnavailableError)
    // the next call starts a new worker on the same data dir
    expect(await db.query('SELECT id FROM t ORDER BY id')).toEqual([{ id: 1 }, { id: 2 }, { id: 10 }])
    expect(workers).toHaveLength(2)
    // dying again within a second: calls fail until a second has passed
    await (workers.at(-1) as Worker).terminate()
    await expect(db.query('SELECT 1')).rejects.toBeInstanceOf(DatabaseUnavailableError)
    expect(workers).toHaveLength(2)
    await new Promise((resolve) => setTimeout(resolve, 1100))
    expect(await db.query('SELECT count(*)::int AS n FROM t')).toEqual([{ n: 3 }])
    expect(workers).toHaveLength(3)
  })

  it('refuses calls after close', async () => {
    const other = await openPgliteInWorker(mkdtempSync(join(tmpdir(), 'sigil-pglite-worker-')))
    await other.close()
    await expect(other.query('SELECT 1')).rejects.toThrow('database is closed')
  })
})
