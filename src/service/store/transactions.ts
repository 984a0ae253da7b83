/**
 * The transaction object every driver hands out (`openTransaction`), and statements that steer a
 * transaction rather than read or write a table (locks).
 */
import type { DriverSql, Sql, Transaction } from './sql.js'

/**
 * Takes a PostgreSQL advisory lock held until the transaction ends (instances sharing a database
 * then run the section one at a time). PostgreSQL only: PGlite has one connection and no such lock.
 */
export async function advisoryTransactionLock(tx: Sql, key: number): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [key])
}

/** Clauses and functions that make a SELECT lock or write: such a statement must run inside the transaction. */
const NOT_PLAIN =
  /\bFOR\s+(UPDATE|NO\s+KEY\s+UPDATE|SHARE|KEY\s+SHARE)\b|\bpg_advisory|\bnextval\b|\bsetval\b|\bset_config\b|\bpg_notify\b/i

/**
 * True when `text` only reads (a SELECT that neither locks rows nor calls a function with an
 * effect): under READ COMMITTED it sees the same rows whether it runs just before the BEGIN or as
 * the transaction's first statement (each statement takes its own snapshot), so a driver may
 * defer the BEGIN past it. Anything else (WITH, writes, SET TRANSACTION, SAVEPOINT, locks) is not.
 */
export function isPlainRead(text: string): boolean {
  return /^\s*SELECT\b/i.test(text) && !NOT_PLAIN.test(text)
}

/** What {@link Transaction.defer} takes: one INSERT, without RETURNING or a WITH of its own. */
const DEFERRABLE = /^\s*INSERT\s+INTO\s/i

type Statement = { text: string; params: unknown[] }

/** `$n` placeholders moved up by `offset` (the statements given here have no dollar-quoted text). */
function renumber(text: string, offset: number): string {
  return offset === 0 ? text : text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`)
}

/**
 * Held-back inserts and the statement they go with (by default the last of them) as one statement:
 * each insert a data-modifying `WITH` entry, placeholders renumbered in order.
 */
export function withDeferred(deferred: readonly Statement[], main?: Statement): Statement {
  const entries = main ? deferred : deferred.slice(0, -1)
  const last = main ?? deferred.at(-1)
  if (!last) throw new Error('no statement to run')
  const params: unknown[] = []
  const ctes = entries.map((d, i) => {
    const text = `deferred_${i} AS (${renumber(d.text, params.length)})`
    params.push(...d.params)
    return text
  })
  const body = renumber(last.text, params.length)
  params.push(...last.params)
  if (ctes.length === 0) return { text: body, params }
  const own = /^\s*WITH(\s+RECURSIVE)?\s/i.exec(body)
  if (own) return { text: `WITH${own[1] ?? ''} ${ctes.join(', ')}, ${body.slice(own[0].length)}`, params }
  return { text: `WITH ${ctes.join(', ')} ${body}`, params }
}

/** A view of `tx` whose statements are held back ({@link Transaction.defer}): for store functions that only insert. */
export function deferring(tx: Transaction): Sql {
  return {
    query: async (text, params) => {
      tx.defer(text, params)
      return []
    },
  }
}

const SAVEPOINT_NAME = /^[a-z_][a-z0-9_]*$/

function savepointName(name: string): string {
  if (!SAVEPOINT_NAME.test(name)) throw new Error(`not a savepoint name: ${name}`)
  return name
}

/**
 * Runs `fn` in the driver's transaction (`begin` runs its body between BEGIN and COMMIT, rolling
 * back when it throws), handing it the {@link Transaction}: its hooks run once `begin` settled, so
 * after the COMMIT returned (or the rollback) and after the driver let the connection go.
 */
export async function openTransaction<T>(
  begin: (body: (sql: DriverSql) => Promise<T>) => Promise<T>,
  fn: (tx: Transaction) => Promise<T>,
  hookFailed: ((error: unknown) => void) | undefined,
): Promise<T> {
  const onCommit: Array<() => unknown> = []
  const onRollback: Array<() => unknown> = []
  /** Savepoint name → how many hooks of each kind were registered when it was taken. */
  const marks = new Map<string, { commit: number; rollback: number }>()
  let open = true
  /** Set once `last` ran: the transaction takes no further statement. */
  let ended = false
  const register = (hooks: Array<() => unknown>, fn: () => unknown) => {
    if (!open) throw new Error('transaction is closed')
    hooks.push(fn)
  }
  const run = (hooks: Array<() => unknown>) => {
    for (const hook of hooks) {
      try {
        const out = hook()
        if (out instanceof Promise) out.catch((e: unknown) => hookFailed?.(e))
      } catch (e) {
        hookFailed?.(e)
      }
    }
  }
  /** Inserts held back by `defer`, sent with the next statement. */
  const deferred: Statement[] = []
  let out: T
  try {
    out = await begin(async (sql) => {
      const closed = () => !open || ended
      /** Sends what is held back, as one statement. */
      const flush = async () => {
        if (deferred.length === 0) return
        const s = withDeferred(deferred.splice(0))
        await sql.query(s.text, s.params)
      }
      const result = await fn({
        // Never on a connection the driver has let go (it may be running another transaction by now).
        async query(text, params) {
          if (closed()) throw new Error('transaction is closed')
          await flush()
          return sql.query(text, params)
        },
        last(text, params) {
          if (closed()) return Promise.reject(new Error('transaction is closed'))
          ended = true
          const s = withDeferred(deferred.splice(0), { text, params: params ?? [] })
          return sql.last ? sql.last(s.text, s.params) : sql.query(s.text, s.params)
        },
        defer(text, params) {
          if (closed()) throw new Error('transaction is closed')
          if (!DEFERRABLE.test(text) || /\bRETURNING\b/i.test(text)) throw new Error('only an INSERT without RETURNING is deferred')
          deferred.push({ text, params: params ?? [] })
        },
        afterCommit: (hook) => register(onCommit, hook),
        afterRollback: (hook) => register(onRollback, hook),
        async savepoint(name) {
          if (ended) throw new Error('transaction is closed')
          await flush()
          await sql.query(`SAVEPOINT ${savepointName(name)}`)
          marks.set(name, { commit: onCommit.length, rollback: onRollback.length })
        },
        async rollbackTo(name) {
          if (ended) throw new Error('transaction is closed')
          // Held-back inserts are statements after the savepoint: undone without being sent.
          deferred.length = 0
          await sql.query(`ROLLBACK TO SAVEPOINT ${savepointName(name)}`)
          const mark = marks.get(name)
          if (!mark) return
          onCommit.length = mark.commit
          run(onRollback.splice(mark.rollback))
        },
      })
      // Before the COMMIT.
      await flush()
      return result
    })
  } catch (e) {
    open = false
    run(onRollback)
    throw e
  }
  open = false
  run(onCommit)
  return out
}
