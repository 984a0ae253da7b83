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
  let out: T
  try {
    out = await begin((sql) =>
      fn({
        // Never on a connection the driver has let go (it may be running another transaction by now).
        query: (text, params) => (open && !ended ? sql.query(text, params) : Promise.reject(new Error('transaction is closed'))),
        last: (text, params) => {
          if (!open || ended) return Promise.reject(new Error('transaction is closed'))
          ended = true
          return sql.last ? sql.last(text, params) : sql.query(text, params)
        },
        afterCommit: (hook) => register(onCommit, hook),
        afterRollback: (hook) => register(onRollback, hook),
        async savepoint(name) {
          if (ended) throw new Error('transaction is closed')
          await sql.query(`SAVEPOINT ${savepointName(name)}`)
          marks.set(name, { commit: onCommit.length, rollback: onRollback.length })
        },
        async rollbackTo(name) {
          if (ended) throw new Error('transaction is closed')
          await sql.query(`ROLLBACK TO SAVEPOINT ${savepointName(name)}`)
          const mark = marks.get(name)
          if (!mark) return
          onCommit.length = mark.commit
          run(onRollback.splice(mark.rollback))
        },
      }),
    )
  } catch (e) {
    open = false
    run(onRollback)
    throw e
  }
  open = false
  run(onCommit)
  return out
}
