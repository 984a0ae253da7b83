/**
 * The embedded database on its own thread: {@link openPglite} runs in a worker thread
 * (`pgliteWorker.ts`) and this is its {@link Database} on the main thread. PGlite's engine is
 * WebAssembly that runs to completion on whatever thread calls it; here that is not the thread
 * that parses HTTP, verifies stamps and signs, so on two cores the two halves of a request run at
 * the same time, and a slow statement no longer stalls every other request's HTTP.
 *
 * Same semantics as in-thread: calls run one at a time in arrival order (a transaction as a
 * whole), each commit is durable before its call returns, a transaction function that throws rolls
 * back. Each statement is one message round trip (tens of microseconds); rows and parameters cross
 * by structured clone (bytes, dates, bigints and JSON values as they are).
 *
 * If the worker thread dies (it should not: storage failures are handled inside it), pending calls
 * fail with {@link DatabaseUnavailableError} and the next call starts a new worker on the same data
 * dir (at most once a second; calls in between fail the same way); PostgreSQL's crash recovery keeps every committed transaction.
 */
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { PgliteOptions } from './pglite.js'
import { deserializeError, type PgliteReply, type PgliteRequest } from './pgliteWire.js'
import { type Database, DatabaseUnavailableError, type Sql, type Transaction } from './sql.js'
import { openTransaction } from './transactions.js'

type Pending = { resolve(v: unknown): void; reject(e: unknown): void }
type Call = PgliteRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never

/**
 * How to start the worker script next to this file: compiled JavaScript runs as it is; TypeScript
 * (the service runs through tsx, tests through vitest) goes through tsx's loader, registered in the
 * worker before the script is imported.
 */
function workerScript(): { script: string | URL; eval: boolean } {
  const ts = import.meta.url.endsWith('.ts')
  const url = new URL(`./pgliteWorker.${ts ? 'ts' : 'js'}`, import.meta.url)
  if (!ts) return { script: url, eval: false }
  // tsx's ESM API, as its package.json exports it (the CommonJS one cannot register from an eval worker).
  const require = createRequire(import.meta.url)
  const pkgPath = require.resolve('tsx/package.json')
  const pkg = require(pkgPath) as { exports: Record<string, { import: { default: string } }> }
  const api = pathToFileURL(join(dirname(pkgPath), pkg.exports['./esm/api']!.import.default)).href
  return {
    script: `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}) })`,
    eval: true,
  }
}

class Thread {
  readonly worker: Worker
  readonly opened: Promise<void>
  private readonly pending = new Map<number, Pending>()
  private nextId = 1
  dead: DatabaseUnavailableError | undefined

  constructor(dataDir: string, options: PgliteOptions) {
    const { script, eval: isEval } = workerScript()
    this.worker = new Worker(script, { workerData: { dataDir, options }, eval: isEval })
    this.worker.unref()
    let opened!: Pending
    this.opened = new Promise<void>((resolve, reject) => (opened = { resolve: () => resolve(), reject }))
    // The opening keeps the process alive like any other call.
    this.pending.set(0, opened)
    this.worker.ref()
    this.worker.on('message', (m: PgliteReply) => {
      const p = this.pending.get(m.id)
      if (!p) return
      this.pending.delete(m.id)
      if (this.pending.size === 0) this.worker.unref()
      if (m.ok) p.resolve(m.result)
      else p.reject(deserializeError(m.error))
    })
    const died = (cause: unknown) => {
      this.dead ??= new DatabaseUnavailableError('io_error', 'the database thread stopped; retry later', { cause })
      const all = [...this.pending.values()]
      this.pending.clear()
      for (const p of all) p.reject(this.dead)
    }
    this.worker.on('error', died)
    this.worker.on('exit', (code) => died(new Error(`exit code ${code}`)))
  }

  call<T>(message: Call, transfer?: ArrayBuffer[]): Promise<T> {
    if (this.dead) return Promise.reject(this.dead)
    const id = this.nextId++
    return new Promise<T>((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref()
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject })
      this.worker.postMessage({ ...message, id } as PgliteRequest, transfer ?? [])
    })
  }
}

/** Opens PGlite in `<dataDir>/pgdata` on a worker thread; rejects as {@link openPglite} would. */
export async function openPgliteInWorker(
  dataDir: string,
  options: PgliteOptions = {},
  /** Tests: each worker thread as it starts. */
  hooks: { onWorker?(worker: Worker): void } = {},
): Promise<Database> {
  /** A new worker on the data dir, once its database is open. */
  // What the worker opens the database with (the hook reporter stays on this thread).
  const { events, ...threadOptions } = options
  const start = async (): Promise<Thread> => {
    const t = new Thread(dataDir, threadOptions)
    hooks.onWorker?.(t.worker)
    try {
      await t.opened
    } catch (e) {
      await t.worker.terminate()
      throw e
    }
    return t
  }
  let thread = await start()
  /** When the last replacement attempt ended, and the one under way (concurrent calls share it). */
  let lastAttempt = 0
  let replacing: Promise<Thread> | undefined
  let closed = false

  /** The live thread; a dead one is replaced on the next call, at most once a second after the last attempt. */
  const live = async (): Promise<Thread> => {
    if (closed) throw new Error('database is closed')
    if (!thread.dead) return thread
    if (replacing !== undefined) return replacing
    if (Date.now() - lastAttempt < 1000) throw thread.dead
    replacing = start().then(
      (t) => (thread = t),
      (e) => {
        throw e instanceof DatabaseUnavailableError
          ? e
          : new DatabaseUnavailableError('io_error', 'the database could not be reopened', { cause: e })
      },
    )
    try {
      return await replacing
    } finally {
      replacing = undefined
      lastAttempt = Date.now()
    }
  }

  /** `begin`, `fn` statement by statement, `end` (committing unless `fn` throws), on the worker. */
  const begin = async <T>(fn: (tx: Sql) => Promise<T>): Promise<T> => {
    const t = await live()
    const txId = await t.call<number>({ op: 'begin' })
    let done = false
    const tx: Sql = {
      query<R>(text: string, params: unknown[] = []) {
        if (done) return Promise.reject(new Error('transaction is closed'))
        return t.call<R[]>({ op: 'tx', tx: txId, text, params })
      },
    }
    let out: T
    try {
      out = await fn(tx)
    } catch (e) {
      done = true
      await t.call({ op: 'end', tx: txId, commit: false }).catch(() => {})
      throw e
    }
    done = true
    await t.call({ op: 'end', tx: txId, commit: true })
    return out
  }

  return {
    kind: 'pglite',
    query: async <T>(text: string, params: unknown[] = []) => (await live()).call<T[]>({ op: 'query', text, params }),
    transaction: <T>(fn: (tx: Transaction) => Promise<T>) => openTransaction(begin, fn, events?.hookFailed),
    exec: async (script) => {
      await (await live()).call({ op: 'exec', script })
    },
    snapshot: async () => (await live()).call<Uint8Array>({ op: 'snapshot' }),
    async close() {
      if (closed) return
      closed = true
      if (!thread.dead) await thread.call({ op: 'close' }).catch(() => {})
      await thread.worker.terminate()
    },
  }
}
