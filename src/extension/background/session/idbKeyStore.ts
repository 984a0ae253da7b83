/**
 * IndexedDB-backed blob store under the sealed key store (like @turnkey/core's
 * `TurnkeyStamperDB`, wire-formats B6). One database `sigil-keys`, one object store `keys`,
 * keyed by slot. Survives a service-worker restart. Never give it a CryptoKey: Chromium writes a
 * cloned key's material in clear to disk; it holds only sealedKeyStore.ts blobs.
 */
import { idbOpener, idbRequest } from '../storage/idb'
import type { KeySlot } from './keyStore'
import type { BlobStore } from './sealedKeyStore'

const DB_NAME = 'sigil-keys'
const DB_VERSION = 1
const STORE = 'keys'

/** Create a {@link BlobStore} over `indexedDB` (the service worker's global by default). */
export function createIdbBlobStore(factory?: IDBFactory): BlobStore {
  const { open } = idbOpener({ name: DB_NAME, version: DB_VERSION, store: STORE, factory })
  const run = async <T>(mode: IDBTransactionMode, op: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> => {
    const db = await open()
    const tx = db.transaction(STORE, mode)
    const done = new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve()
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'))
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'))
    })
    const result = await idbRequest(op(tx.objectStore(STORE)))
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
