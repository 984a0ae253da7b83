/**
 * IndexedDB-backed blob store under the sealed key store (issue 7; like @turnkey/core's
 * `TurnkeyStamperDB`, wire-formats B6). One database `sigil-keys`, one object store `keys`,
 * keyed by slot. Survives a service-worker restart. Never give it a CryptoKey: Chromium writes a
 * cloned key's material in clear to disk (issue 22); it holds only sealedKeyStore.ts blobs.
 */
import type { KeySlot } from './keyStore'
import type { BlobStore } from './sealedKeyStore'

const DB_NAME = 'sigil-keys'
const DB_VERSION = 1
const STORE = 'keys'

function promisify<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'))
  })
}

/** Create a {@link BlobStore} over `indexedDB` (the service worker's global by default). */
export function createIdbBlobStore(factory?: IDBFactory): BlobStore {
  let dbPromise: Promise<IDBDatabase> | undefined
  const open = (): Promise<IDBDatabase> => {
    dbPromise ??= new Promise<IDBDatabase>((resolve, reject) => {
      const req = (factory ?? indexedDB).open(DB_NAME, DB_VERSION)
      req.onupgradeneeded = () => {
        if (!req.result.objectStoreNames.contains(STORE)) req.result.createObjectStore(STORE)
      }
      req.onsuccess = () => resolve(req.result)
      req.onerror = () => {
        dbPromise = undefined
        reject(req.error ?? new Error('IndexedDB open failed'))
      }
    })
    return dbPromise
  }
  const run = async <T>(mode: IDBTransactionMode, op: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> => {
    const db = await open()
    const tx = db.transaction(STORE, mode)
    const done = new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve()
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'))
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'))
    })
    const result = await promisify(op(tx.objectStore(STORE)))
    await done
    return result
  }
  return {
    async get(slot: KeySlot) {
      return (await run('readonly', (s) => s.get(slot))) as unknown
    },
    async put(slot: KeySlot, value: unknown) {
      await run('readwrite', (s) => s.put(value, slot))
    },
    async delete(slot: KeySlot) {
      await run('readwrite', (s) => s.delete(slot))
    },
    async clear() {
      await run('readwrite', (s) => s.clear())
    },
  }
}
