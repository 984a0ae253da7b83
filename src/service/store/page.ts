/**
 * Keyset pagination: the one way a list query reads a page (wire `paginationOptions`, validated on
 * the wire by `PaginationOptions` in src/api/common.ts; wire-formats B4, B6, B7).
 *
 * A list has one presentation order over a unique key (`seq` newest first, `(created_at, id)` oldest
 * first, …). `limit` is 1..100, default 10. `after` and `before` are ids of rows of the same list and
 * are exclusive: `after` keeps the rows that follow the cursor row in the presentation order,
 * `before` the rows that precede it; with `before` alone the page is the `limit` rows closest to
 * the cursor, still in presentation order. An empty cursor is no cursor; an id that is not a row of
 * the list is a 400 naming `paginationOptions.after` / `paginationOptions.before`.
 */
import { invalidField } from '../../api/errors.js'
import type { Sql } from './sql.js'

export const DEFAULT_PAGE_LIMIT = 10
export const MAX_PAGE_LIMIT = 100

/** The wire `paginationOptions` (already validated by the request schema). */
export type PageOptions = { limit?: string | undefined; before?: string | undefined; after?: string | undefined }

/** How a list is ordered, and how a cursor id becomes a key of that order. */
export type Keyset = {
  /** The key columns, most significant first (`['seq']`, `['o.created_at', 'o.id']`); unique together. */
  columns: readonly string[]
  /** The presentation order. */
  order: 'ASC' | 'DESC'
  /** The key (one value per column) of the list's row with this id; undefined when the list has none. */
  keyOf(id: string): Promise<readonly unknown[] | undefined>
  /** What a row is, for the error naming a cursor that is not one (`wallet account`). */
  noun: string
}

/** The list without its page: `SELECT … FROM …` (CTEs, joins; no WHERE), its conditions and their `$n` values. */
export type ListQuery = { select: string; where: readonly string[]; params: readonly unknown[] }

/** The page size `paginationOptions.limit` asks for (default 10); a 400 naming it when it is not 1..100. */
export function pageLimit(page: PageOptions | undefined): number {
  if (page?.limit === undefined) return DEFAULT_PAGE_LIMIT
  const limit = /^\d+$/.test(page.limit) ? Number(page.limit) : Number.NaN
  if (!(limit >= 1 && limit <= MAX_PAGE_LIMIT)) throw invalidField('paginationOptions.limit', `must be between 1 and ${MAX_PAGE_LIMIT}`)
  return limit
}

/** One page of the list `q` in the order of `keyset`, bounded by the cursors of `page`. */
export async function readPage<T>(sql: Sql, q: ListQuery, keyset: Keyset, page: PageOptions | undefined): Promise<T[]> {
  const limit = pageLimit(page)
  const after = await cursorKey(keyset, page?.after, 'after')
  const before = await cursorKey(keyset, page?.before, 'before')
  const where = [...q.where]
  const params = [...q.params]
  const row = tuple(keyset.columns)
  const bound = (key: readonly unknown[], op: '<' | '>') => {
    const placeholders = key.map((value) => {
      params.push(value)
      return `$${params.length}`
    })
    where.push(`${row} ${op} ${tuple(placeholders)}`)
  }
  // Ascending: the rows after the cursor have greater keys; descending: smaller ones.
  if (after) bound(after, keyset.order === 'ASC' ? '>' : '<')
  if (before) bound(before, keyset.order === 'ASC' ? '<' : '>')
  // `before` alone: read backwards from the cursor (the closest rows), then present them in order.
  const backwards = before !== undefined && after === undefined
  const direction = backwards ? (keyset.order === 'ASC' ? 'DESC' : 'ASC') : keyset.order
  params.push(limit)
  const rows = await sql.query<T>(
    `${q.select}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${keyset.columns.map((c) => `${c} ${direction}`).join(', ')} LIMIT $${params.length}`,
    params,
  )
  return backwards ? rows.reverse() : rows
}

async function cursorKey(keyset: Keyset, id: string | undefined, which: 'after' | 'before'): Promise<readonly unknown[] | undefined> {
  if (id === undefined || id === '') return undefined
  const key = await keyset.keyOf(id)
  if (!key) throw invalidField(`paginationOptions.${which}`, `no ${keyset.noun} with this id in the organization`)
  if (key.length !== keyset.columns.length)
    throw new Error(`a ${keyset.noun} cursor has ${key.length} key values, not ${keyset.columns.length}`)
  return key
}

function tuple(items: readonly string[]): string {
  return items.length === 1 ? items[0]! : `(${items.join(', ')})`
}
