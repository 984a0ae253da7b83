import { describe, expect, it } from 'vitest'
import { SigilError } from '../../../src/api/errors.js'
import { type Keyset, pageLimit, readPage } from '../../../src/service/store/page.js'
import type { Sql } from '../../../src/service/store/sql.js'

/** A Sql that records each statement and answers `rows`. */
function recorder(rows: Array<Record<string, unknown>> = []) {
  const calls: Array<{ text: string; params: unknown[] }> = []
  const sql: Sql = {
    async query<T>(text: string, params: unknown[] = []) {
      calls.push({ text, params })
      return rows.map((r) => ({ ...r })) as T[]
    },
  }
  return { sql, calls }
}

const KNOWN: Record<string, readonly unknown[]> = { c5: [5], c9: [9] }
const bySeq = (order: 'ASC' | 'DESC'): Keyset => ({
  columns: ['seq'],
  order,
  noun: 'thing',
  keyOf: async (id) => KNOWN[id],
})
const list = { select: 'SELECT * FROM t', where: ['org = $1'], params: ['o1'] }

function fieldOf(run: () => unknown): Promise<string> {
  return Promise.resolve()
    .then(run)
    .then(
      () => {
        throw new Error('expected a SigilError')
      },
      (e: unknown) => {
        expect(e).toBeInstanceOf(SigilError)
        expect((e as SigilError).code).toBe('INVALID_ARGUMENT')
        return (e as SigilError).fieldViolations[0]!.field
      },
    )
}

describe('store/page: one keyset pagination for every list', () => {
  it('limit: default 10, digits 1..100, anything else a 400 naming paginationOptions.limit', async () => {
    expect(pageLimit(undefined)).toBe(10)
    expect(pageLimit({})).toBe(10)
    expect(pageLimit({ limit: '1' })).toBe(1)
    expect(pageLimit({ limit: '100' })).toBe(100)
    for (const limit of ['-0', '0', '101', 'abc', "'; DROP TABLE users;--", '1.5', ' 1', '', '1e2', '0x10']) {
      expect(await fieldOf(() => pageLimit({ limit })), limit).toBe('paginationOptions.limit')
    }
  })

  it('reads forwards in presentation order with both bounds as parameters', async () => {
    const { sql, calls } = recorder([{ seq: 6 }, { seq: 7 }])
    const rows = await readPage(sql, list, bySeq('ASC'), { limit: '2', after: 'c5', before: 'c9' })
    expect(rows).toEqual([{ seq: 6 }, { seq: 7 }])
    expect(calls).toEqual([
      { text: 'SELECT * FROM t WHERE org = $1 AND seq > $2 AND seq < $3 ORDER BY seq ASC LIMIT $4', params: ['o1', 5, 9, 2] },
    ])
  })

  it('newest first: after means older, before alone reads the closest newer rows and presents them newest first', async () => {
    const older = recorder()
    await readPage(older.sql, list, bySeq('DESC'), { after: 'c5' })
    expect(older.calls[0]).toEqual({
      text: 'SELECT * FROM t WHERE org = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3',
      params: ['o1', 5, 10],
    })
    const newer = recorder([{ seq: 6 }, { seq: 7 }])
    const rows = await readPage(newer.sql, list, bySeq('DESC'), { limit: '2', before: 'c5' })
    expect(newer.calls[0]).toEqual({ text: 'SELECT * FROM t WHERE org = $1 AND seq > $2 ORDER BY seq ASC LIMIT $3', params: ['o1', 5, 2] })
    expect(rows).toEqual([{ seq: 7 }, { seq: 6 }])
  })

  it('compares a key of several columns as a row; no conditions, no WHERE', async () => {
    const { sql, calls } = recorder()
    const keyset: Keyset = { columns: ['o.created_at', 'o.id'], order: 'ASC', noun: 'org', keyOf: async (id) => [100, id] }
    await readPage(sql, { select: 'SELECT o.id FROM o', where: [], params: [] }, keyset, { before: 'b' })
    expect(calls[0]).toEqual({
      text: 'SELECT o.id FROM o WHERE (o.created_at, o.id) < ($1, $2) ORDER BY o.created_at DESC, o.id DESC LIMIT $3',
      params: [100, 'b', 10],
    })
    await readPage(sql, { select: 'SELECT o.id FROM o', where: [], params: [] }, keyset, undefined)
    expect(calls[1]).toEqual({ text: 'SELECT o.id FROM o ORDER BY o.created_at ASC, o.id ASC LIMIT $1', params: [10] })
  })

  it('an empty cursor is no cursor; an unknown one is a 400 naming it, before any page is read', async () => {
    const { sql, calls } = recorder()
    await readPage(sql, list, bySeq('ASC'), { after: '', before: '' })
    expect(calls[0]?.text).toBe('SELECT * FROM t WHERE org = $1 ORDER BY seq ASC LIMIT $2')
    expect(await fieldOf(() => readPage(sql, list, bySeq('ASC'), { after: 'nope' }))).toBe('paginationOptions.after')
    expect(await fieldOf(() => readPage(sql, list, bySeq('DESC'), { after: 'c5', before: "'; DROP TABLE t;--" }))).toBe(
      'paginationOptions.before',
    )
    expect(calls).toHaveLength(1)
  })
})
