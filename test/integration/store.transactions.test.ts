/**
 * The transaction the store hands out (src/service/store/transactions.ts): after-commit work runs
 * once the COMMIT returned and never on rollback, a rollback to a savepoint drops what was registered
 * since, and a hook that throws is reported without failing the transaction. On each PGlite driver,
 * and on the PostgreSQL driver when `DATABASE_URL` names a server.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPglite } from '../../src/service/store/pglite.js'
import { openPgliteInWorker } from '../../src/service/store/pgliteInWorker.js'
import { openPostgres } from '../../src/service/store/postgres.js'
import type { Database, DatabaseEvents } from '../../src/service/store/sql.js'

const drivers = {
  pglite: (dir: string, events: DatabaseEvents) => openPglite(dir, { events }),
  'pglite in a worker': (dir: string, events: DatabaseEvents) => openPgliteInWorker(dir, { events }),
  ...(process.env.DATABASE_URL
    ? { postgres: (_dir: string, events: DatabaseEvents) => openPostgres(process.env.DATABASE_URL!, events) }
    : {}),
}
// A table of its own: an external PostgreSQL may be shared with other tests.
const T = `tx_hooks_${crypto.randomUUID().replaceAll('-', '')}`

describe.each(Object.entries(drivers))('transactions on %s', (_name, open) => {
  const dir = mkdtempSync(join(tmpdir(), 'sigil-tx-'))
  const failed: unknown[] = []
  let db: Database
  const rows = async () => (await db.query<{ v: string }>(`SELECT v FROM ${T} ORDER BY v`)).map((r) => r.v)

  beforeAll(async () => {
    db = await open(dir, { hookFailed: (e) => failed.push(e) })
    await db.exec(`CREATE TABLE ${T} (v text primary key)`)
  })
  afterAll(async () => {
    await db?.exec(`DROP TABLE ${T}`)
    await db?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('runs after-commit work once the commit is visible, in order, and never on rollback', async () => {
    const seen: string[] = []
    await db.transaction(async (tx) => {
      await tx.query(`INSERT INTO ${T} VALUES ('a')`)
      tx.afterCommit(async () => seen.push(`first:${(await rows()).join(',')}`))
      tx.afterCommit(() => seen.push('second'))
      tx.afterRollback(() => seen.push('rolled back'))
      expect(seen).toEqual([])
    })
    expect(seen[0]).toBe('second')
    await expect.poll(() => seen).toEqual(['second', 'first:a'])

    const after: string[] = []
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`INSERT INTO ${T} VALUES ('b')`)
        tx.afterCommit(() => after.push('committed'))
        tx.afterRollback(() => after.push('rolled back'))
        throw new Error('roll back')
      }),
    ).rejects.toThrow('roll back')
    expect(after).toEqual(['rolled back'])
    expect(await rows()).toEqual(['a'])
  })

  it('a rollback to a savepoint drops the after-commit work registered since', async () => {
    const seen: string[] = []
    await db.transaction(async (tx) => {
      tx.afterCommit(() => seen.push('before'))
      await tx.savepoint('part')
      await tx.query(`INSERT INTO ${T} VALUES ('c')`)
      tx.afterCommit(() => seen.push('undone'))
      tx.afterRollback(() => seen.push('part rolled back'))
      await tx.rollbackTo('part')
      expect(seen).toEqual(['part rolled back'])
      tx.afterCommit(() => seen.push('after'))
    })
    expect(seen).toEqual(['part rolled back', 'before', 'after'])
    expect(await rows()).toEqual(['a'])
    await expect(db.transaction((tx) => tx.savepoint('Not-A-Name'))).rejects.toThrow('not a savepoint name')
  })

  it('a hook that throws is reported; the commit and the other hooks stand', async () => {
    failed.length = 0
    const seen: string[] = []
    const out = await db.transaction(async (tx) => {
      await tx.query(`INSERT INTO ${T} VALUES ('d')`)
      tx.afterCommit(() => {
        throw new Error('hook broke')
      })
      tx.afterCommit(() => Promise.reject(new Error('async hook broke')))
      tx.afterCommit(() => seen.push('still runs'))
      return 'result'
    })
    expect(out).toBe('result')
    expect(seen).toEqual(['still runs'])
    expect(await rows()).toEqual(['a', 'd'])
    await expect.poll(() => failed.map((e) => (e as Error).message)).toEqual(['hook broke', 'async hook broke'])
  })

  it('refuses work registered on a transaction that has ended', async () => {
    const tx = await db.transaction(async (t) => t)
    expect(() => tx.afterCommit(() => {})).toThrow('transaction is closed')
    await expect(tx.query('SELECT 1')).rejects.toThrow('transaction is closed')
  })
})
