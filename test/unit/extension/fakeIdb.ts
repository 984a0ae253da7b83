/**
 * A small in-memory IndexedDB: the part storage/idbStorageArea.ts and session/idbKeyStore.ts use (open with an
 * upgrade, one object store, get/put/delete/clear in transactions that commit all or nothing).
 * `fake-indexeddb` is not a dependency. Events are asynchronous like the real API: transactions
 * run one at a time in creation order, requests fire in order in later microtasks, and a
 * transaction completes in a later task once no request is left.
 */

type Handler = ((ev?: unknown) => void) | null

class FakeRequest<T = unknown> {
  result: T | undefined = undefined
  error: Error | null = null
  onsuccess: Handler = null
  onerror: Handler = null
  onupgradeneeded: Handler = null
}

type DbData = { version: number; stores: Map<string, Map<string, unknown>> }

class FakeStore {
  constructor(private readonly tx: FakeTransaction) {}
  get(key: string) {
    return this.tx.request(() => (this.tx.staged.has(key) ? structuredClone(this.tx.staged.get(key)) : undefined))
  }
  put(value: unknown, key: string) {
    this.tx.assertWritable()
    const copy = structuredClone(value) // throws DataCloneError synchronously, like the real put
    return this.tx.request(() => {
      this.tx.staged.set(key, copy)
      return key
    }, true)
  }
  delete(key: string) {
    this.tx.assertWritable()
    return this.tx.request(() => void this.tx.staged.delete(key), true)
  }
  clear() {
    this.tx.assertWritable()
    return this.tx.request(() => void this.tx.staged.clear(), true)
  }
}

class FakeTransaction {
  oncomplete: Handler = null
  onerror: Handler = null
  onabort: Handler = null
  error: Error | null = null
  private pending = 0
  private finished = false
  /** The store as this transaction sees it (copied when it starts, committed when it completes). */
  staged = new Map<string, unknown>()
  private readonly started: Promise<void>
  private release!: () => void
  constructor(
    private readonly factory: FakeIdbFactory,
    private readonly target: Map<string, unknown>,
    private readonly mode: IDBTransactionMode,
  ) {
    // Transactions run one after another, in creation order (the real API orders overlapping ones).
    const previous = factory.lastTransaction
    factory.lastTransaction = new Promise<void>((resolve) => {
      this.release = resolve
    })
    this.started = previous.then(() => {
      this.staged = new Map(target)
      this.scheduleFinish()
    })
  }
  objectStore(_name: string) {
    return new FakeStore(this)
  }
  assertWritable() {
    if (this.mode === 'readonly') throw new DOMException('read-only transaction', 'ReadOnlyError')
    if (this.finished) throw new DOMException('transaction finished', 'TransactionInactiveError')
  }
  request(op: () => unknown, write = false) {
    if (this.finished) throw new DOMException('transaction finished', 'TransactionInactiveError')
    const req = new FakeRequest()
    this.pending++
    void this.started.then(() => {
      this.pending--
      if (this.finished) return
      const failure = write ? this.factory.failWrites : undefined
      if (failure) {
        req.error = failure
        req.onerror?.()
        this.error = failure
        this.onerror?.()
        this.abort()
        return
      }
      req.result = op()
      req.onsuccess?.()
      this.scheduleFinish()
    })
    return req
  }
  abort() {
    if (this.finished) throw new DOMException('transaction finished', 'InvalidStateError')
    this.finished = true
    this.error ??= new DOMException('aborted', 'AbortError')
    this.release()
    this.onabort?.()
  }
  private scheduleFinish() {
    setTimeout(() => {
      if (this.finished || this.pending > 0) return
      this.finished = true
      if (this.mode === 'readwrite') {
        this.target.clear()
        for (const [k, v] of this.staged) this.target.set(k, v)
      }
      this.release()
      this.oncomplete?.()
    }, 0)
  }
}

class FakeDatabase {
  onclose: Handler = null
  onversionchange: Handler = null
  closed = false
  constructor(
    private readonly factory: FakeIdbFactory,
    private readonly data: DbData,
  ) {}
  get objectStoreNames() {
    return { contains: (name: string) => this.data.stores.has(name) }
  }
  createObjectStore(name: string) {
    this.data.stores.set(name, new Map())
  }
  transaction(name: string, mode: IDBTransactionMode = 'readonly') {
    if (this.closed) throw new DOMException('connection closed', 'InvalidStateError')
    const store = this.data.stores.get(name)
    if (!store) throw new DOMException(`no store ${name}`, 'NotFoundError')
    return new FakeTransaction(this.factory, store, mode)
  }
  close() {
    this.closed = true
  }
}

/** The fake factory; `failOpen` / `failWrites` make the next opens / writes fail with that error. */
export class FakeIdbFactory {
  readonly databases = new Map<string, DbData>()
  failOpen: Error | undefined
  failWrites: Error | undefined
  opens = 0
  /** Settles when the newest transaction has finished. */
  lastTransaction: Promise<void> = Promise.resolve()
  readonly connections: FakeDatabase[] = []
  /** Close every open connection as the browser does; `event` also fires `close` (abnormal closure). */
  closeAll(event: boolean) {
    for (const db of this.connections) {
      db.close()
      if (event) db.onclose?.()
    }
  }
  open(name: string, version = 1) {
    const req = new FakeRequest<FakeDatabase>()
    this.opens++
    setTimeout(() => {
      if (this.failOpen) {
        req.error = this.failOpen
        req.onerror?.()
        return
      }
      let data = this.databases.get(name)
      if (!data) {
        data = { version: 0, stores: new Map() }
        this.databases.set(name, data)
      }
      const db = new FakeDatabase(this, data)
      this.connections.push(db)
      req.result = db
      if (data.version < version) {
        req.onupgradeneeded?.()
        data.version = version
      }
      req.onsuccess?.()
    }, 0)
    return req
  }
  /** The committed contents of `db`'s `store`, for assertions. */
  contents(db: string, store: string): Map<string, unknown> {
    return this.databases.get(db)?.stores.get(store) ?? new Map()
  }
  /** As the IDBFactory the code under test takes. */
  asFactory(): IDBFactory {
    return this as unknown as IDBFactory
  }
}
