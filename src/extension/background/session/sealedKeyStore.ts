/**
 * A {@link KeyStore} that keeps private keys only sealed at rest. Chromium writes the
 * key material of a structured-cloned CryptoKey, non-extractable or not, in clear into the
 * IndexedDB LevelDB files, so a CryptoKey must never reach IndexedDB. Instead every private key
 * is wrapped (`wrapKey('pkcs8')`, AES-256-GCM) under a wrapping key whose raw bytes live only in
 * `storage.session` (memory-only, gone when the browser closes), and only the wrapped bytes are
 * stored. `get` unwraps into a non-extractable CryptoKey (cached for the worker's lifetime), so
 * the decrypted PKCS#8 never enters JavaScript. Keys given to `put` must be extractable (they
 * are created so just for this); the caller drops them and uses what `get` returns.
 * A browser restart loses the wrapping key: every sealed slot is then unreadable and
 * {@link SealedKeyStore.sweep} deletes them all.
 */
import type { KeySlot, KeyStore, StoredKey } from './keyStore'
import type { StorageAreaLike } from '../storage/storageArea'

/** `storage.session` key of the wrapping key's raw bytes (a number array: the area is JSON). */
export const WRAP_KEY = 'sigil.wrapKey'

/** Where the sealed blobs go (IndexedDB in the extension, a Map in tests). */
export interface BlobStore {
  get(slot: KeySlot): Promise<unknown>
  put(slot: KeySlot, value: unknown): Promise<void>
  delete(slot: KeySlot): Promise<void>
  clear(): Promise<void>
}

/** EC algorithm of a sealed key. */
type EcAlg = { name: 'ECDSA' | 'ECDH'; namedCurve: 'P-256' }

/** What is stored for a slot: the wrapped PKCS#8, and for a pair the public key in clear. */
export type SealedBlob = {
  v: 1
  alg: EcAlg
  usages: KeyUsage[]
  iv: Uint8Array<ArrayBuffer>
  wrapped: Uint8Array<ArrayBuffer>
  /** Uncompressed public point of a pair (public keys need no secrecy). */
  publicRaw?: Uint8Array<ArrayBuffer>
}

function isSealedBlob(v: unknown): v is SealedBlob {
  if (typeof v !== 'object' || v === null) return false
  const b = v as Partial<SealedBlob>
  return (
    b.v === 1 &&
    b.iv instanceof Uint8Array &&
    b.wrapped instanceof Uint8Array &&
    Array.isArray(b.usages) &&
    (b.alg?.name === 'ECDSA' || b.alg?.name === 'ECDH') &&
    b.alg.namedCurve === 'P-256'
  )
}

/** A sealed KeyStore (`sweep` and `move` work on the blobs, never unwrapping). */
export type SealedKeyStore = Required<KeyStore>

const subtle = () => globalThis.crypto.subtle

function publicUsages(alg: EcAlg): KeyUsage[] {
  return alg.name === 'ECDSA' ? ['verify'] : []
}

/** Wrap `blobs` so that only sealed keys reach it; the wrapping key lives in `session`. */
export function createSealedKeyStore(blobs: BlobStore, session: StorageAreaLike): SealedKeyStore {
  const cache = new Map<KeySlot, StoredKey>()
  let wrapping: Promise<CryptoKey | undefined> | undefined
  let creating: Promise<CryptoKey> | undefined

  async function importWrapping(bytes: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
    try {
      return await subtle().importKey('raw', bytes, { name: 'AES-GCM' }, false, ['wrapKey', 'unwrapKey'])
    } finally {
      bytes.fill(0)
    }
  }

  async function readWrapping(): Promise<CryptoKey | undefined> {
    const stored = (await session.get(WRAP_KEY))[WRAP_KEY]
    if (!Array.isArray(stored) || stored.length !== 32) return undefined
    return importWrapping(Uint8Array.from(stored as number[]))
  }

  async function createWrapping(): Promise<CryptoKey> {
    const bytes = globalThis.crypto.getRandomValues(new Uint8Array(32))
    const list = Array.from(bytes)
    await session.set({ [WRAP_KEY]: list })
    list.fill(0)
    return importWrapping(bytes)
  }

  /** The wrapping key; created (and put in `storage.session`) only when `create`. */
  async function wrappingKey(create: boolean): Promise<CryptoKey | undefined> {
    wrapping ??= readWrapping().catch(() => undefined)
    const existing = await wrapping
    if (existing) return existing
    if (!create) {
      wrapping = undefined
      return undefined
    }
    // One creation per worker, however many puts race for it.
    creating ??= createWrapping()
    const key = await creating
    wrapping = Promise.resolve(key)
    return key
  }

  async function seal(key: CryptoKey, publicKey?: CryptoKey): Promise<SealedBlob> {
    if (key.type !== 'private' || !key.extractable) throw new Error('only an extractable private key can be sealed')
    const alg = key.algorithm as EcKeyAlgorithm
    if ((alg.name !== 'ECDSA' && alg.name !== 'ECDH') || alg.namedCurve !== 'P-256') throw new Error('only P-256 keys are sealed')
    const wk = await wrappingKey(true)
    if (!wk) throw new Error('no wrapping key')
    const iv = globalThis.crypto.getRandomValues(new Uint8Array(12))
    const wrapped = new Uint8Array(await subtle().wrapKey('pkcs8', key, wk, { name: 'AES-GCM', iv }))
    const blob: SealedBlob = { v: 1, alg: { name: alg.name, namedCurve: 'P-256' }, usages: [...key.usages], iv, wrapped }
    if (publicKey) blob.publicRaw = new Uint8Array(await subtle().exportKey('raw', publicKey))
    return blob
  }

  async function unseal(blob: SealedBlob): Promise<StoredKey | undefined> {
    const wk = await wrappingKey(false)
    if (!wk) return undefined
    try {
      const privateKey = await subtle().unwrapKey('pkcs8', blob.wrapped, wk, { name: 'AES-GCM', iv: blob.iv }, blob.alg, false, blob.usages)
      if (!blob.publicRaw) return privateKey
      const publicKey = await subtle().importKey('raw', blob.publicRaw, blob.alg, true, publicUsages(blob.alg))
      return { privateKey, publicKey }
    } catch {
      return undefined
    }
  }

  return {
    async get(slot) {
      const hit = cache.get(slot)
      if (hit) return hit
      const blob = await blobs.get(slot)
      if (blob === undefined) return undefined
      const key = isSealedBlob(blob) ? await unseal(blob) : undefined
      if (key === undefined) {
        // Unreadable (no wrapping key after a browser restart, tampered, or an old clear CryptoKey): drop it.
        await blobs.delete(slot)
        return undefined
      }
      cache.set(slot, key)
      return key
    },
    async put(slot, key) {
      cache.delete(slot)
      const blob = 'privateKey' in key ? await seal(key.privateKey, key.publicKey) : await seal(key)
      await blobs.put(slot, blob)
    },
    async delete(slot) {
      cache.delete(slot)
      await blobs.delete(slot)
    },
    async clear() {
      cache.clear()
      await blobs.clear()
    },
    async sweep() {
      if (await wrappingKey(false)) return false
      cache.clear()
      await blobs.clear()
      return true
    },
    async move(from, to) {
      const blob = await blobs.get(from)
      const key = cache.get(from)
      cache.delete(from)
      cache.delete(to)
      if (blob === undefined) return
      await blobs.put(to, blob)
      await blobs.delete(from)
      if (key) cache.set(to, key)
    },
  }
}
