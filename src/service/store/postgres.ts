import pg from 'pg'
import { SigilError } from '../../api/errors.js'
import { isStalePlanError, PreparedNames } from './preparedNames.js'
import type { Database, DatabaseEvents, DriverSql, Sql } from './sql.js'
import { isPlainRead, openTransaction } from './transactions.js'

// int8 columns (our millisecond timestamps, sequence numbers) as JS numbers: they stay below 2^53.
pg.types.setTypeParser(20, (v) => Number(v))

/** How long a request waits for a connection (a new one, or a free one of the pool) before 503. */
export const CONNECT_TIMEOUT_MS = 5_000

/** The 503 message when the connection was lost during a transaction's COMMIT (before it, the server rolls back). */
export const COMMIT_OUTCOME_UNKNOWN = 'database unavailable while committing: the outcome is unknown, resubmit the same request to learn it'

/** Socket errors meaning the server cannot be reached or went away. */
const SOCKET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'])
/** SQLSTATEs of a server that is shutting down, starting or refusing connections (class 08: connection exception). */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300'])
/** What `pg` and `pg-pool` throw when a connection ends or cannot be made in time. */
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
]

/**
 * True when `e` says the database is unreachable (rather than that a statement is wrong):
 * refused or reset sockets, admin/crash shutdown (57P01, 57P02), "cannot connect now" (57P03),
 * too many connections (53300), any connection exception (class 08), a terminated connection.
 */
export function isConnectionError(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false
  const { code, message, errors } = e as { code?: unknown; message?: unknown; errors?: unknown }
  if (typeof code === 'string') {
    if (SOCKET_ERRORS.has(code) || UNAVAILABLE_STATES.has(code)) return true
    if (/^08[0-9A-Z]{3}$/.test(code)) return true
  }
  if (typeof message === 'string' && CONNECTION_MESSAGES.some((m) => message.startsWith(m))) return true
  // Node's happy-eyeballs connect reports every address it tried in an AggregateError.
  return Array.isArray(errors) && errors.length > 0 && errors.every(isConnectionError)
}

/** A short, secret-free name of a connection error for logs: its code, else "connection terminated". */
export function connectionErrorName(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code
  return typeof code === 'string' && /^[A-Z0-9_]{1,20}$/.test(code) ? code : 'connection terminated'
}

/** A real PostgreSQL, shared by any number of service instances. */
export async function openPostgres(url: string, events: DatabaseEvents = {}): Promise<Database> {
  // Reported once per outage: the first connection error, then the first new connection after it
  // (statements already running on other connections may still succeed while the server shuts down).
  let down = false
  const lost = (e: unknown) => {
    if (down) return
    down = true
    events.lost?.(connectionErrorName(e))
  }
  const restored = () => {
    if (!down) return
    down = false
    events.restored?.()
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // During an outage a request fails fast with 503 instead of hanging on connect.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
  })
  // Idle clients die with the server (restart, failover, pg_terminate_backend): pg-pool removes them
  // and emits 'error' on the pool. Without a listener Node would crash the service on it.
  pool.on('error', (e) => lost(e))
  pool.on('connect', restored)
  // Fail fast with a clear error when the server is unreachable at start.
  const probe = await pool.connect()
  probe.release()

  /**
   * A connection error as the typed 503 (wire: gRPC 14 UNAVAILABLE); a prepared plan a concurrent
   * migration made stale too (the connection holding it is destroyed: the retry parses afresh);
   * other errors unchanged.
   */
  const translate = (e: unknown): unknown => {
    if (e instanceof SigilError) return e
    if (isStalePlanError(e)) return new SigilError('UNAVAILABLE', 'the database schema changed during this request, retry', { cause: e })
    if (!isConnectionError(e)) return e
    lost(e)
    return new SigilError('UNAVAILABLE', 'database unavailable, retry', { cause: e })
  }
  const names = new PreparedNames()
  /** Sends one statement, named (prepared) when {@link PreparedNames} gives it a name; errors as `pg` throws them. */
  const send = (c: pg.Pool | pg.PoolClient, text: string, params?: unknown[]): Promise<pg.QueryResult> => {
    const name = params && params.length > 0 ? names.name(text) : undefined
    return name === undefined ? c.query(text, params) : c.query({ name, text, values: params ?? [] })
  }
  /** A statement that commits (COMMIT, or one run alone) failing: a lost connection leaves its outcome unknown. */
  const commitFailed = (e: unknown): unknown => {
    if (!isConnectionError(e)) return e
    // Nothing here retries; the caller is told, and resubmitting the same signed body is idempotent.
    lost(e)
    return new SigilError('UNAVAILABLE', COMMIT_OUTCOME_UNKNOWN, { cause: e })
  }
  const run = async <T>(c: pg.Pool | pg.PoolClient, text: string, params?: unknown[]): Promise<T[]> => {
    let r: pg.QueryResult
    try {
      r = await send(c, text, params)
    } catch (e) {
      throw translate(e)
    }
    return r.rows as T[]
  }
  const asSql = (c: pg.Pool | pg.PoolClient): Sql => ({
    query: <T>(text: string, params: unknown[] = []) => run<T>(c, text, params),
  })
  /**
   * `fn` on one connection of the pool between BEGIN and COMMIT (ROLLBACK when it throws). The
   * BEGIN is deferred to the first statement that is not a plain read (`isPlainRead`: under READ
   * COMMITTED such a read sees the same rows before the BEGIN as after it); a body that only read
   * sends neither BEGIN nor COMMIT, and its `last` statement, when nothing was written before it,
   * runs on its own: atomic and durable by itself, two round trips fewer.
   */
  const begin = async <T>(fn: (sql: DriverSql) => Promise<T>): Promise<T> => {
    let client: pg.PoolClient
    try {
      client = await pool.connect()
    } catch (e) {
      throw translate(e)
    }
    // Between statements (the handler computing) the server may drop the connection: `pg` then
    // emits 'error' on this checked-out client, which must not go unhandled. The next statement,
    // or COMMIT, fails and the transaction is rolled back by the server.
    let broken: Error | undefined
    const onError = (e: Error) => {
      broken = e
      lost(e)
    }
    client.on('error', onError)
    // `openTransaction` refuses statements after `last`; this driver only tracks the BEGIN.
    let begun = false
    const statement = async <R>(text: string, params?: unknown[]): Promise<R[]> => {
      if (!begun && !isPlainRead(text)) {
        await run(client, 'BEGIN')
        begun = true
      }
      return run<R>(client, text, params)
    }
    const sql: DriverSql = {
      query: statement,
      async last<R>(text: string, params?: unknown[]): Promise<R[]> {
        if (begun) return statement<R>(text, params)
        try {
          return (await send(client, text, params)).rows as R[]
        } catch (e) {
          // Alone, this statement is its own COMMIT.
          throw commitFailed(e)
        }
      },
    }
    try {
      const out = await fn(sql)
      if (begun) {
        try {
          await client.query('COMMIT')
        } catch (e) {
          // The connection died with the COMMIT in flight: it may or may not have committed.
          throw commitFailed(e)
        }
      }
      return out
    } catch (e) {
      // A stale prepared plan stays on its connection: destroy it rather than hand it on.
      if (isStalePlanError((e as { cause?: unknown }).cause ?? e)) broken ??= e as Error
      if (begun) {
        try {
          await client.query('ROLLBACK')
        } catch (rollbackError) {
          broken ??= rollbackError as Error
        }
      }
      throw translate(e)
    } finally {
      client.removeListener('error', onError)
      // A client whose connection failed is destroyed, never handed to the next request.
      client.release(broken)
    }
  }
  return {
    kind: 'postgres',
    query: asSql(pool).query,
    transaction: (fn) => openTransaction(begin, fn, events.hookFailed),
    async exec(script) {
      await run(pool, script)
    },
    close: () => pool.end(),
  }
}
