/**
 * The two IndexedDB helpers the background's stores share (session/idbKeyStore.ts, idbStorageArea.ts):
 * a request as a promise, and a lazily opened one-store database that is reopened after the
 * browser closes the connection (site data cleared, another version opened).
 */

/** Resolve with the request's result, reject with its error. */
export function idbRequest<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'))
  })
}

/**
 * `open()` for database `name` with one object store `store` (created on upgrade); `reset()`
 * forgets the connection (e.g. after a transaction threw InvalidStateError on a closed one).
 */
export function idbOpener(opts: { name: string; version: number; store: string; factory?: IDBFactory | undefined }): {
  open(): Promise<IDBDatabase>
  reset(): void
} {
  let dbPromise: Promise<IDBDatabase> | undefined
  const reset = () => {
    dbPromise = undefined
  }
  const open = () => {
    dbPromise ??= new Promise<IDBDatabase>((resolve, reject) => {
      const req = (opts.factory ?? indexedDB).open(opts.name, opts.version)
      req.onupgradeneeded = () => {
        if (!req.result.objectStoreNames.contains(opts.store)) req.result.createObjectStore(opts.store)
      }
      req.onsuccess = () => {
        const db = req.result
        db.onclose = reset
        db.onversionchange = () => {
          db.close()
          reset()
        }
        resolve(db)
      }
      req.onerror = () => {
        reset()
        reject(req.error ?? new Error('IndexedDB open failed'))
      }
    })
    return dbPromise
  }
  return { open, reset }
}
