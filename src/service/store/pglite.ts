import { closeSync, fsyncSync, mkdirSync, openSync, statfsSync, unlinkSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { gzip } from 'node:zlib'
import { PGlite, messages as backend, parse } from '@electric-sql/pglite'
import { DatabaseError as WireError, serialize as wire } from 'pg-protocol'
import type { BackendMessage } from 'pg-protocol/dist/messages.js'
import { Parser as WireParser } from 'pg-protocol/dist/parser.js'
import { type Database, type DatabaseEvents, DatabaseUnavailableError, type Sql, type Transaction, type UnavailableReason } from './sql.js'
import { openTransaction } from './transactions.js'
import { StatementCache } from './statementCache.js'
import { pgliteDir, restrictTree } from './dataDir.js'

export type PgliteOptions = {
  /** How many SQL texts stay prepared (least recently used are closed). */
  preparedStatements?: number
  /** Free space the data dir needs before the database is reopened after a storage failure. */
  minFreeBytes?: number
  /** Least time between two attempts to reopen after a storage failure. */
  retryIntervalMs?: number
  /** Where a failing transaction hook is reported (PGlite has no connection events). */
  events?: Pick<DatabaseEvents, 'hookFailed'>
}

const gzipAsync = promisify(gzip)

/** Three WAL segments: room for crash recovery, its checkpoint and a new segment. */
const MIN_FREE_BYTES = 48 * 1024 * 1024

/**
 * Embedded PostgreSQL in `<dataDir>/pgdata`. Durable: each commit is written before it returns.
 *
 * Storage failures (disk full, read-only or failing file system). PostgreSQL reports a data file it
 * cannot extend as an error of class 53 and rolls back, but PGlite does not survive failing to
 * create a WAL segment: the statement (or the next one) spins forever inside WebAssembly, blocking
 * the whole process. Hence, in order:
 * - every call first checks (at most every 200 ms) that the data dir keeps `minFreeBytes` free,
 *   three WAL segments by default, and that `pg_wal` takes new files (read-only or immutable file
 *   system: files PostgreSQL has open stay writable, so only new WAL segments fail), and else throws
 *   {@link DatabaseUnavailableError} without touching PostgreSQL: the failure is met here, not in
 *   the WAL. A failure arising in the 200 ms between checks can still wedge the process (only
 *   running PGlite in a worker that can be terminated would close that gap);
 * - after any storage error (class 53 or 58, or WebAssembly failing) the instance is retired: never
 *   used again (abandoned, not closed: closing it could spin too), every call throws
 *   DatabaseUnavailableError, and calls at most once per `retryIntervalMs` reopen the data dir in
 *   this process once it accepts writes and has `minFreeBytes` free; crash recovery then keeps
 *   every committed transaction and nothing else.
 *
 * All calls run one at a time (a transaction as a whole), as PGlite runs them anyway: this is what
 * lets a failed instance be retired before anything queued behind it touches it.
 */
/**
 * `SIGIL_PGLITE_MEMORY=small`: the smallest PGlite its options allow (bench/footprint.ts measures it):
 * shared_buffers 16 MB instead of 128, small work and WAL buffers (its WebAssembly memory cannot start
 * below its 128 MiB default: the module's own minimum).
 */
function pgliteMemoryOptions(): { startParams?: string[] } {
  if (process.env.SIGIL_PGLITE_MEMORY !== 'small') return {}
  const settings = ['shared_buffers=16MB', 'work_mem=1MB', 'maintenance_work_mem=16MB', 'wal_buffers=512kB', 'temp_buffers=1MB']
  return { startParams: [...PGlite.defaultStartParams, ...settings.flatMap((c) => ['-c', c])] }
}

export async function openPglite(dataDir: string, options: PgliteOptions = {}): Promise<Database> {
  const dir = pgliteDir(dataDir)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const minFree = options.minFreeBytes ?? MIN_FREE_BYTES
  const retryMs = options.retryIntervalMs ?? 1000
  const create = () => PGlite.create({ dataDir: dir, relaxedDurability: false, ...pgliteMemoryOptions() })
  // PGlite only says it "failed to initialize" on a data dir it cannot write: say why.
  const blocked = storageBlocked(dir, 0)
  if (blocked) throw unavailable(blocked.reason, `${blocked.detail}: ${dir}`, undefined)

  let pg = await create()
  // PGlite unpacks a new database with its files 0666 (and makes directories by the umask): the
  // owner's only, as PostgreSQL's own (0600, which is what it creates afterwards).
  restrictTree(dir)
  let statements = new StatementCache(options.preparedStatements)
  let failure: DatabaseUnavailableError | undefined
  let lastAttempt = 0
  let closed = false
  let checkedAt = 0
  let refusal: { reason: UnavailableReason; detail: string } | undefined
  /**
   * Why calls must be refused before PostgreSQL meets it, checked at most every 200 ms: free space
   * below the reserve (statfs), or `pg_wal` refusing new files (a probe file created and removed).
   */
  const preflight = () => {
    const now = Date.now()
    if (now - checkedAt < 200) return refusal
    checkedAt = now
    refusal = undefined
    try {
      const s = statfsSync(dir)
      if (s.bavail * s.bsize < minFree) refusal = { reason: 'disk_full', detail: `the data dir has less than ${mib(minFree)} free` }
    } catch {
      // cannot tell: let PostgreSQL find out
    }
    const probe = join(dir, 'pg_wal', '.sigil-probe')
    try {
      closeSync(openSync(probe, 'w'))
      unlinkSync(probe)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
        refusal ??= { reason: reasonOf(e), detail: 'the data dir does not accept new files' }
    }
    return refusal
  }

  /** The live instance, reopened after a storage failure when the file system allows it. */
  const live = async (): Promise<PGlite> => {
    if (closed) throw new Error('database is closed')
    if (!failure) {
      const refused = preflight()
      if (refused) throw unavailable(refused.reason, refused.detail, undefined)
      return pg
    }
    if (Date.now() - lastAttempt < retryMs) throw failure
    lastAttempt = Date.now()
    const blocked = storageBlocked(dir, minFree)
    if (blocked) {
      failure = unavailable(blocked.reason, blocked.detail, failure.cause)
      throw failure
    }
    try {
      pg = await create()
    } catch (e) {
      failure = unavailable(reasonOf(e), 'the database could not be reopened', e)
      throw failure
    }
    statements = new StatementCache(options.preparedStatements)
    failure = undefined
    return pg
  }

  /** Runs `op` on `instance`, retiring the instance when it reports a storage failure. */
  const guard = async <T>(instance: PGlite, op: () => Promise<T>): Promise<T> => {
    if (failure || instance !== pg) throw failure ?? unavailable('io_error', 'the database was reopened', undefined)
    try {
      return await op()
    } catch (e) {
      if (!isStorageFailure(e)) throw e
      failure = unavailable(reasonOf(e), 'the database cannot write to its data dir', e)
      lastAttempt = Date.now()
      throw failure
    }
  }

  let tail: Promise<unknown> = Promise.resolve()
  /** One call at a time, in order. */
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn)
    tail = run.catch(() => {})
    return run
  }

  const run = <T>(instance: PGlite, text: string, params: unknown[], inTx: boolean): Promise<T[]> =>
    guard(instance, async () => {
      const values = textValues(params)
      if (!values) return (await instance.query<T>(text, params)).rows
      return instance._runExclusiveQuery(() => batched<T>(instance, statements, text, values, !inTx, !inTx))
    })

  /** BEGIN, `fn`, COMMIT (ROLLBACK when `fn` throws), as one call of the queue. */
  const begin = <T>(fn: (tx: Sql) => Promise<T>): Promise<T> =>
    serial(async () => {
      const instance = await live()
      await guard(instance, () => instance.exec('BEGIN'))
      let done = false
      const tx: Sql = {
        query<R>(text: string, params: unknown[] = []) {
          if (done) return Promise.reject(new Error('transaction is closed'))
          return run<R>(instance, text, params, true)
        },
      }
      try {
        const out = await fn(tx)
        done = true
        const [commit] = await guard(instance, () => instance.exec('COMMIT'))
        // COMMIT of a transaction that failed (an error was caught inside `fn`) rolls back.
        if (commit?.command === 'ROLLBACK') {
          const aborted = new backend.DatabaseError('Transaction was rolled back instead of committed', 0, 'error')
          aborted.severity = 'ERROR'
          aborted.code = '25P02' // as PGlite's own transaction() reports it
          throw aborted
        }
        return out
      } catch (e) {
        if (!done) {
          done = true
          // Never touch a retired instance: it would spin.
          if (!failure && instance === pg) await guard(instance, () => instance.exec('ROLLBACK')).catch(() => {})
        }
        throw e
      }
    })

  return {
    kind: 'pglite',
    query: <T>(text: string, params: unknown[] = []) =>
      serial(async () => {
        const instance = await live()
        return run<T>(instance, text, params, false)
      }),
    transaction: <T>(fn: (tx: Transaction) => Promise<T>) => openTransaction(begin, fn, options.events?.hookFailed),
    exec: (script) =>
      serial(async () => {
        const instance = await live()
        await guard(instance, () => instance.exec(script))
      }),
    async snapshot() {
      // Requests wait only for the checkpoint and the copy of the files; compression runs after.
      const tar = await serial(async () => {
        const instance = await live()
        return guard(instance, async () => {
          await instance.exec('CHECKPOINT')
          return (await instance.dumpDataDir('none')).arrayBuffer()
        })
      })
      return new Uint8Array(await gzipAsync(new Uint8Array(tar)))
    },
    close: () =>
      serial(async () => {
        if (closed) return
        closed = true
        if (!failure) await pg.close()
      }),
  }
}

/** A PostgreSQL error of class 53 (insufficient resources) or 58 (system error), or WebAssembly failing. */
function isStorageFailure(e: unknown): boolean {
  if (e instanceof backend.DatabaseError) return /^5[38]/.test(e.code ?? '')
  return e instanceof WebAssembly.RuntimeError || (e instanceof Error && e.name === 'ErrnoError')
}

function reasonOf(e: unknown): UnavailableReason {
  const text = e instanceof Error ? `${(e as { code?: unknown }).code ?? ''} ${e.message}` : String(e)
  if (/53100|no space left|ENOSPC|EDQUOT|quota/i.test(text)) return 'disk_full'
  if (/read-only|EROFS|EPERM|EACCES|not permitted|permission denied/i.test(text)) return 'read_only'
  return 'io_error'
}

const REASON_TEXT: Record<UnavailableReason, string> = {
  disk_full: 'no space left on device',
  read_only: 'read-only or immutable file system',
  io_error: 'input/output error',
}

const mib = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MiB`

function unavailable(reason: UnavailableReason, what: string, cause: unknown): DatabaseUnavailableError {
  return new DatabaseUnavailableError(reason, `${what} (${REASON_TEXT[reason]}); retry later`, { cause })
}

/** Why the data dir cannot take writes now, or undefined when it can (and has `minFree` bytes free). */
function storageBlocked(dir: string, minFree: number): { reason: UnavailableReason; detail: string } | undefined {
  try {
    const s = statfsSync(dir)
    if (s.bavail * s.bsize < minFree) return { reason: 'disk_full', detail: `the data dir has less than ${mib(minFree)} free` }
    const probe = join(dir, '.sigil-write-probe')
    const fd = openSync(probe, 'w')
    try {
      writeSync(fd, Buffer.alloc(8192))
      fsyncSync(fd)
    } finally {
      closeSync(fd)
      unlinkSync(probe)
    }
    return undefined
  } catch (e) {
    return { reason: reasonOf(e), detail: 'the data dir does not accept writes' }
  }
}

/**
 * The parameters as the text PGlite's own serializers would send for them, or undefined when
 * one needs the parameter's type to serialize (arrays, bytes, dates, objects): those statements
 * take PGlite's `query`. Strings pass through (text, json and the like); numbers and booleans
 * as `toString` (valid input for text, numeric, json and boolean alike).
 */
function textValues(params: unknown[]): Array<string | null> | undefined {
  const out: Array<string | null> = []
  for (const v of params) {
    if (v === null || v === undefined) out.push(null)
    else if (typeof v === 'string') out.push(v)
    else if (typeof v === 'number' || typeof v === 'boolean') out.push(String(v))
    else return undefined
  }
  return out
}

/**
 * One statement through the extended protocol in one round trip into the database, where
 * PGlite's `query` makes six (it also describes the statement first, to pick serializers by
 * parameter type). The first time a text is seen it is parsed under a name of its own (Parse,
 * Bind, Describe, Execute, Sync), afterwards only bound to that name; parameter types are
 * inferred by the server either way, as for an unnamed Parse without types. Evicted statements
 * are closed at the head of the next batch (Close works even in an aborted transaction).
 * `retry`: outside a transaction, a statement the server no longer knows is parsed again once.
 */
async function batched<T>(
  pg: PGlite,
  cache: StatementCache,
  text: string,
  values: Array<string | null>,
  syncToFs: boolean,
  retry: boolean,
): Promise<T[]> {
  const closes = cache.takeCloses()
  const { name, parse: needsParse } = cache.lookup(text)
  const parts = closes.map((c) => wire.close({ type: 'S', name: c }))
  if (needsParse) parts.push(wire.parse({ name, text }))
  parts.push(wire.bind({ statement: name, values }), wire.describe({ type: 'P' }), wire.execute({}), wire.sync())
  // The backend's bytes as they come, parsed by pg-protocol (PGlite's own parser costs about three
  // times as much: its private fields compile to WeakMap lookups). The chunk is a view into the
  // engine's memory: copied before the parser may keep it across chunks.
  const messages: BackendMessage[] = []
  const parser = new WireParser()
  await pg.execProtocolRawStream(Buffer.concat(parts), {
    syncToFs,
    onRawData: (chunk) => parser.parse(Buffer.from(chunk), (m) => void messages.push(m)),
  })
  let closed = 0
  let parsed = false
  let error: backend.DatabaseError | undefined
  for (const m of messages) {
    if (m.name === 'closeComplete') closed++
    else if (m.name === 'parseComplete') parsed = true
    else if (m instanceof WireError) error ??= asPgliteError(m)
  }
  if (closed < closes.length) cache.requeue(closes.slice(closed))
  if (parsed) cache.prepared(text, name)
  if (error) {
    if (!needsParse && error.code === '26000') {
      cache.forget(text, name)
      if (retry) return batched<T>(pg, cache, text, values, syncToFs, false)
    }
    throw error
  }
  const [result] = parse.parseResults(messages as Parameters<typeof parse.parseResults>[0], pg.parsers)
  return (result?.rows ?? []) as T[]
}

/** pg-protocol's error message as the error class PGlite itself throws (the rest of the store knows that one). */
function asPgliteError(m: WireError): backend.DatabaseError {
  const e = new backend.DatabaseError(m.message, m.length, 'error')
  for (const f of [
    'severity',
    'code',
    'detail',
    'hint',
    'position',
    'internalPosition',
    'internalQuery',
    'where',
    'schema',
    'table',
    'column',
    'dataType',
    'constraint',
    'file',
    'line',
    'routine',
  ] as const)
    (e as unknown as Record<string, unknown>)[f] = m[f]
  return e
}
