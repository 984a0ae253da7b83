/** The slice of `browser.storage.{local,session}` the background uses (injectable for tests). */
export interface StorageAreaLike {
  get(keys: string): Promise<Record<string, unknown>>
  set(items: Record<string, unknown>): Promise<void>
  remove(keys: string): Promise<void>
}
