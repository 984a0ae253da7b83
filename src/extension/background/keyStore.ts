/**
 * Where the background keeps its WebCrypto keys (issue 7: keys in IndexedDB, never in
 * `storage.*`). Values are CryptoKey / CryptoKeyPair objects, stored by structured clone, so
 * non-extractable keys stay non-extractable. The in-memory implementation is for unit tests.
 */

/** A stored key: a signing key or an ECDH/ECDSA pair. */
export type StoredKey = CryptoKey | CryptoKeyPair

/** Names of the keys the background keeps. */
export type KeySlot = 'session' | 'login-target' | 'recovery-target' | 'signup-temp'

/** Minimal async key-value store for CryptoKeys. */
export interface KeyStore {
  get(slot: KeySlot): Promise<StoredKey | undefined>
  put(slot: KeySlot, key: StoredKey): Promise<void>
  delete(slot: KeySlot): Promise<void>
  clear(): Promise<void>
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
    size: () => map.size,
  }
}

/** True when `k` is a CryptoKeyPair rather than a single key. */
export function isKeyPair(k: StoredKey | undefined): k is CryptoKeyPair {
  return typeof k === 'object' && k !== null && 'privateKey' in k && 'publicKey' in k
}
