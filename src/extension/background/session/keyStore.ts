/**
 * Where the background keeps its WebCrypto keys. In the extension this is
 * `createSealedKeyStore` (sealedKeyStore.ts) over IndexedDB (only wrapped key bytes at rest, the
 * wrapping key in memory-only `storage.session`); `get` gives non-extractable keys.
 * The in-memory implementation is for unit tests.
 */

/** A stored key: a signing key or an ECDH/ECDSA pair. */
export type StoredKey = CryptoKey | CryptoKeyPair

/** Names of the keys the background keeps. */
export type KeySlot = 'session' | 'login-target' | 'recovery-target' | 'signup-temp' | 'revoking' | 'renewing'

/** Every slot, for deleting all but some. */
export const KEY_SLOTS: readonly KeySlot[] = ['session', 'login-target', 'recovery-target', 'signup-temp', 'revoking', 'renewing']

/** Minimal async key-value store for CryptoKeys. */
export interface KeyStore {
  get(slot: KeySlot): Promise<StoredKey | undefined>
  put(slot: KeySlot, key: StoredKey): Promise<void>
  delete(slot: KeySlot): Promise<void>
  clear(): Promise<void>
  /** Move a slot's key to another slot (sealed stores move the blob without unwrapping it). */
  move(from: KeySlot, to: KeySlot): Promise<void>
  /** Delete every slot when their keys can no longer be read (a sealed store without its wrapping key); true when it did. */
  sweep?(): Promise<boolean>
}

/** A {@link KeyStore} held in a Map (unit tests; nothing survives a restart). */
export function createMemoryKeyStore(): KeyStore & { size(): number } {
  const map = new Map<KeySlot, StoredKey>()
  return {
    async get(slot) {
      return map.get(slot)
    },
    async put(slot, key) {
      map.set(slot, key)
    },
    async delete(slot) {
      map.delete(slot)
    },
    async clear() {
      map.clear()
    },
    async move(from, to) {
      const key = map.get(from)
      map.delete(from)
      if (key === undefined) map.delete(to)
      else map.set(to, key)
    },
    size: () => map.size,
  }
}

/** True when `k` is a CryptoKeyPair rather than a single key. */
export function isKeyPair(k: StoredKey | undefined): k is CryptoKeyPair {
  return typeof k === 'object' && k !== null && 'privateKey' in k && 'publicKey' in k
}

/**
 * Store `key` (created extractable so a sealed store can wrap it) and return the stored,
 * non-extractable copy to use instead; the extractable one should be dropped.
 */
export async function keepKey<K extends StoredKey>(store: KeyStore, slot: KeySlot, key: K): Promise<K> {
  await store.put(slot, key)
  const kept = await store.get(slot)
  if (kept === undefined || isKeyPair(kept) !== isKeyPair(key)) throw new Error(`key slot ${slot} did not keep the key`)
  return kept as K
}
