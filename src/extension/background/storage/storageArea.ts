/** The slice of `browser.storage.{local,session}` the background uses (injectable for tests). */
export interface StorageAreaLike {
  get(keys: string): Promise<Record<string, unknown>>
  set(items: Record<string, unknown>): Promise<void>
  remove(keys: string): Promise<void>
}

/**
 * An area whose backend is still being chosen (storageAccess.ts `setUpStorage`): every call waits
 * for it, so the background can wire its listeners synchronously at start and nothing reads or
 * writes before a migration is done.
 */
export function deferredArea(ready: Promise<StorageAreaLike>): StorageAreaLike {
  return {
    get: async (key) => (await ready).get(key),
    set: async (items) => (await ready).set(items),
    remove: async (key) => (await ready).remove(key),
  }
}
