/**
 * A {@link StorageAreaLike} over the extension's own IndexedDB (Firefox): where
 * `storage.local` cannot be restricted to trusted contexts, content scripts can read and write
 * it, but they run in the page's origin and cannot open the extension origin's IndexedDB.
 * storageAccess.ts picks this area for settings, site grants, the dApp chain and a pending
 * revocation when that is the case.
 *
 * Semantics are those of the `storage.local` subset the background uses: `get(key)` resolves to
 * `{ [key]: value }` or `{}` when absent, always a fresh copy; `set(items)` writes every item in
 * one transaction (all or nothing); `remove(key)` of an absent key is a no-op. Values are
 * structured-cloned (like Firefox's `storage.local`; the background only stores JSON data). An
 * `undefined` value is not stored, as Chrome's JSON serialization drops it.
 *
 * One database `sigil-local`, one object store `items`, keyed by the storage key. The style
 * follows session/idbKeyStore.ts.
 */
import { idbOpener, idbRequest } from './idb'
import type { StorageAreaLike } from './storageArea'

const DB_NAME = 'sigil-local'
const DB_VERSION = 1
const STORE = 'items'

/** Create a {@link StorageAreaLike} over `indexedDB` (the background's global by default). */
export function createIdbStorageArea(factory?: IDBFactory): StorageAreaLike {
  const { open, reset } = idbOpener({ name: DB_NAME, version: DB_VERSION, store: STORE, factory })
  const run = async <T>(mode: IDBTransactionMode, op: (s: IDBObjectStore) => Promise<T>): Promise<T> => {
    const db = await open()
    let tx: IDBTransaction
    try {
      tx = db.transaction(STORE, mode)
    } catch (err) {
      reset() // a closed connection throws InvalidStateError: reopen next time
      throw err
    }
    const done = new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve()
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'))
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'))
    })
    void done.catch(() => undefined) // awaited below; a failing request rejects it too
    try {
      const result = await op(tx.objectStore(STORE))
      await done
      return result
    } catch (err) {
      // All or nothing: a put that throws (DataCloneError) must not leave the earlier ones committed.
      try {
        tx.abort()
      } catch {
        // already finished or aborted
      }
      throw err
    }
  }
  return {
    async get(key) {
      const value = await run('readonly', (s) => idbRequest(s.get(key)))
      return value === undefined ? {} : { [key]: value as unknown }
    },
    async set(items) {
      await run('readwrite', async (s) => {
        await Promise.all(Object.entries(items).flatMap(([k, v]) => (v === undefined ? [] : [idbRequest(s.put(v, k))])))
      })
    },
    async remove(key) {
      await run('readwrite', (s) => idbRequest(s.delete(key)))
    },
  }
}
