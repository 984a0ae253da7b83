/**
 * The worker thread's side of {@link openPgliteInWorker}: the embedded database ({@link openPglite},
 * with all its storage-failure handling) served over the thread's message port. One message per
 * call; a transaction is held open in here between `begin` and `end`, so the statements of the
 * main thread's transaction function run inside it, one round trip each.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { openPglite, type PgliteOptions } from './pglite.js'
import type { Database, Sql } from './sql.js'
import { type PgliteRequest, type PgliteReply, serializeError } from './pgliteWire.js'

const port = parentPort
if (!port) throw new Error('pgliteWorker runs only as a worker thread')

const { dataDir, options } = workerData as { dataDir: string; options: PgliteOptions }

/** The main thread asked for a rollback: ends the transaction function without committing. */
const ROLLBACK = Symbol('rollback')

/** Open transactions: id → its statement runner and how to end it. */
const open = new Map<number, { tx: Sql; end(commit: boolean): void; done: Promise<void> }>()

let db: Database | undefined
const ready = openPglite(dataDir, options).then(
  (d) => {
    db = d
    port.postMessage({ id: 0, ok: true } satisfies PgliteReply)
  },
  (e) => port.postMessage({ id: 0, ok: false, error: serializeError(e) } satisfies PgliteReply),
)

const reply = (id: number, result: unknown, transfer: ArrayBuffer[] = []) =>
  port.postMessage({ id, ok: true, result } satisfies PgliteReply, transfer)
const fail = (id: number, e: unknown) => port.postMessage({ id, ok: false, error: serializeError(e) } satisfies PgliteReply)

function begin(database: Database, id: number): void {
  let end!: (commit: boolean) => void
  const decided = new Promise<boolean>((resolve) => (end = resolve))
  let started = false
  const done = database
    .transaction(async (tx) => {
      started = true
      open.set(id, { tx, end, done })
      reply(id, id)
      if (!(await decided)) throw ROLLBACK
    })
    .then(
      () => undefined,
      (e) => {
        // BEGIN itself failed: the main thread is still waiting for the transaction to start.
        if (!started) fail(id, e)
        else if (e !== ROLLBACK) throw e
      },
    )
    .finally(() => open.delete(id))
}

async function handle(m: PgliteRequest): Promise<void> {
  await ready
  if (!db) return fail(m.id, new Error('the database did not open'))
  switch (m.op) {
    case 'query':
      return reply(m.id, await db.query(m.text, m.params))
    case 'begin':
      return begin(db, m.id)
    case 'tx': {
      const t = open.get(m.tx)
      if (!t) throw new Error('transaction is closed')
      return reply(m.id, await t.tx.query(m.text, m.params))
    }
    case 'end': {
      const t = open.get(m.tx)
      if (!t) throw new Error('transaction is closed')
      t.end(m.commit)
      await t.done
      return reply(m.id, null)
    }
    case 'exec':
      await db.exec(m.script)
      return reply(m.id, null)
    case 'snapshot': {
      const bytes = db.snapshot ? await db.snapshot() : new Uint8Array()
      const copy = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice()
      return reply(m.id, copy, [copy.buffer as ArrayBuffer])
    }
    case 'close':
      await db.close()
      return reply(m.id, null)
  }
}

port.on('message', (m: PgliteRequest) => {
  handle(m).catch((e) => fail(m.id, e))
})
