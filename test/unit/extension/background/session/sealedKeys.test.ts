/**
 * Session keys sealed at rest (wrapped under a storage.session key), startup cleanup of
 * key slots without a live session, and revocation of the session key on lock/logout/auto-lock.
 */
import { describe, expect, it, vi } from 'vitest'
import { createCore, type CoreDeps, type NewSession } from '@/src/extension/background/core'
import type { KeySlot } from '@/src/extension/background/session/keyStore'
import { REVOKE_ALARM, REVOKE_KEY } from '@/src/extension/background/session/revocation'
import { type BlobStore, createSealedKeyStore, WRAP_KEY } from '@/src/extension/background/session/sealedKeyStore'
import { SESSION_KEY } from '@/src/extension/background/session/sessionRecord'
import { saveConnection } from '@/src/extension/background/service/settings'
import { DEV_SERVICE_IDENTITY_KEY } from '@/src/api/serviceIdentity'
import { createHpkeRecipientKeyPair } from '@/src/crypto/hpke'
import { createP256WebCryptoKeyPair } from '@/src/crypto/stamp'
import { verifyApiKeyStamp } from '@/src/crypto/verifyStamp'
import { completedActivity } from '../../../api/fixtures'
import { fakeDeps, memoryArea } from '../../fakeDeps'

/** The blob map under a sealed store: what would reach IndexedDB (and so the disk). */
function memoryBlobs(): BlobStore & { map: Map<KeySlot, unknown> } {
  const map = new Map<KeySlot, unknown>()
  return {
    map,
    get: async (slot) => structuredClone(map.get(slot)),
    put: async (slot, value) => void map.set(slot, structuredClone(value)),
    delete: async (slot) => void map.delete(slot),
    clear: async () => map.clear(),
  }
}

function contains(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer
    return true
  }
  return false
}

/** Every byte the blob store holds, flattened. */
function blobBytes(blobs: { map: Map<KeySlot, unknown> }): Uint8Array {
  const parts: number[] = []
  const walk = (v: unknown) => {
    if (v instanceof Uint8Array) parts.push(...v)
    else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x)
  }
  for (const v of blobs.map.values()) walk(v)
  return Uint8Array.from(parts)
}

/** The private scalar of an extractable key (what must never be stored in clear). */
async function scalarOf(key: CryptoKey): Promise<Uint8Array> {
  const jwk = await crypto.subtle.exportKey('jwk', key)
  return Uint8Array.from(Buffer.from(jwk.d ?? '', 'base64url'))
}

describe('sealed key store', () => {
  it('stores only the wrapped key; get gives a non-extractable key that signs for the same public key', async () => {
    const blobs = memoryBlobs()
    const session = memoryArea()
    const store = createSealedKeyStore(blobs, session)
    const { keyPair, publicKeyHex } = await createP256WebCryptoKeyPair(true)
    const scalar = await scalarOf(keyPair.privateKey)
    await store.put('session', keyPair.privateKey)
    expect(contains(blobBytes(blobs), scalar)).toBe(false)
    expect(JSON.stringify([...blobs.map.values()], (_k, v) => (v instanceof Uint8Array ? [...v] : v))).not.toMatch(/"d"|CryptoKey/)
    const wrapping = session.data.get(WRAP_KEY) as number[]
    expect(wrapping).toHaveLength(32)
    const got = (await store.get('session')) as CryptoKey
    expect(got.extractable).toBe(false)
    expect(got.usages).toEqual(['sign'])
    const { createWebCryptoStamper } = await import('@/src/crypto/stamp')
    const body = '{"x":1}'
    const stamp = await createWebCryptoStamper({ privateKey: got, publicKeyHex }).stamp(body)
    expect(verifyApiKeyStamp(stamp.stampHeaderValue, new TextEncoder().encode(body))).toMatchObject({ ok: true, publicKey: publicKeyHex })
    // A worker restart (new store, same storage.session and blobs) unwraps it again.
    const again = (await createSealedKeyStore(blobs, session).get('session')) as CryptoKey
    expect(again.extractable).toBe(false)
  })

  it('seals ECDH pairs (HPKE targets) too, and refuses a key it cannot wrap', async () => {
    const blobs = memoryBlobs()
    const store = createSealedKeyStore(blobs, memoryArea())
    const { keyPair } = await createHpkeRecipientKeyPair(true)
    const scalar = await scalarOf(keyPair.privateKey)
    await store.put('login-target', keyPair)
    expect(contains(blobBytes(blobs), scalar)).toBe(false)
    const got = (await store.get('login-target')) as CryptoKeyPair
    expect(got.privateKey.extractable).toBe(false)
    expect(got.privateKey.algorithm).toMatchObject({ name: 'ECDH', namedCurve: 'P-256' })
    const { keyPair: fixed } = await createP256WebCryptoKeyPair()
    await expect(store.put('session', fixed.privateKey)).rejects.toThrow(/extractable/)
    expect(blobs.map.has('session')).toBe(false)
  })

  it('after a browser restart (storage.session empty) nothing unwraps: get deletes the slot, sweep clears all', async () => {
    const blobs = memoryBlobs()
    const store = createSealedKeyStore(blobs, memoryArea())
    await store.put('session', (await createP256WebCryptoKeyPair(true)).keyPair.privateKey)
    await store.put('login-target', (await createHpkeRecipientKeyPair(true)).keyPair)
    const restarted = createSealedKeyStore(blobs, memoryArea())
    expect(await restarted.get('session')).toBeUndefined()
    expect(blobs.map.has('session')).toBe(false)
    expect(await restarted.sweep()).toBe(true)
    expect(blobs.map.size).toBe(0)
  })

  it('a tampered blob or a wrong wrapping key unwraps to nothing, and the slot is dropped', async () => {
    const blobs = memoryBlobs()
    const session = memoryArea()
    const store = createSealedKeyStore(blobs, session)
    await store.put('session', (await createP256WebCryptoKeyPair(true)).keyPair.privateKey)
    const blob = blobs.map.get('session') as { wrapped: Uint8Array }
    blob.wrapped[0] = (blob.wrapped[0] ?? 0) ^ 1
    expect(await createSealedKeyStore(blobs, session).get('session')).toBeUndefined()
    expect(blobs.map.size).toBe(0)
    // A CryptoKey stored in clear by an older version is not used either.
    blobs.map.set('session', (await createP256WebCryptoKeyPair()).keyPair.privateKey)
    expect(await createSealedKeyStore(blobs, session).get('session')).toBeUndefined()
    expect(blobs.map.size).toBe(0)
  })

  it('move keeps the blob sealed under the new slot', async () => {
    const blobs = memoryBlobs()
    const session = memoryArea()
    const store = createSealedKeyStore(blobs, session)
    await store.put('session', (await createP256WebCryptoKeyPair(true)).keyPair.privateKey)
    await store.move('session', 'revoking')
    expect([...blobs.map.keys()]).toEqual(['revoking'])
    expect(await createSealedKeyStore(blobs, session).get('revoking')).toBeDefined()
  })
})

const API = 'https://service.test'

/** Core deps over a sealed store; `fetch` answers delete_api_keys like the service (or fails when `offline`). */
function sealedDeps(opts: { blobs?: ReturnType<typeof memoryBlobs>; session?: ReturnType<typeof memoryArea>; offline?: boolean } = {}) {
  const f = fakeDeps()
  const blobs = opts.blobs ?? memoryBlobs()
  const session = opts.session ?? memoryArea()
  const calls: Array<{ url: string; body: string; stamp: string }> = []
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    if (opts.offline) throw new TypeError('offline')
    const headers = new Headers(init?.headers)
    calls.push({ url: String(input), body: String(init?.body), stamp: headers.get('X-Stamp') ?? '' })
    const res = completedActivity('ACTIVITY_TYPE_DELETE_API_KEYS', {}, { deleteApiKeysResult: { apiKeyIds: ['key-1'] } })
    return new Response(JSON.stringify(res), { status: 200, headers: { 'Content-Type': 'application/json' } })
  }) as unknown as typeof globalThis.fetch
  const deps: CoreDeps = { ...f.deps, keyStore: createSealedKeyStore(blobs, session), session, fetch }
  return { f, deps, blobs, session, calls }
}

async function startSealedSession(deps: CoreDeps, now: number) {
  await saveConnection(deps.local, { apiBaseUrl: API, relayUrl: `${API}/auth`, identityKey: DEV_SERVICE_IDENTITY_KEY })
  const { keyPair, publicKeyHex } = await createP256WebCryptoKeyPair(true)
  const data: NewSession = {
    organizationId: 'org-1',
    userId: 'user-1',
    username: 'alice',
    publicKeyHex,
    apiKeyId: 'key-1',
    method: 'email',
    expiresAt: now + 3_600_000,
  }
  const core = createCore(deps)
  await core.startSession(data, keyPair.privateKey)
  return { core, publicKeyHex }
}

describe('startup cleanup', () => {
  it('a browser restart (storage.session gone) leaves no key slot behind', async () => {
    const a = sealedDeps()
    await startSealedSession(a.deps, a.f.deps.now())
    expect([...a.blobs.map.keys()]).toEqual(['session'])
    const b = sealedDeps({ blobs: a.blobs }) // same IndexedDB, fresh storage.session
    const core = createCore(b.deps)
    await core.startup()
    expect(a.blobs.map.size).toBe(0)
    expect(await core.current()).toBeNull()
  })

  it('a key slot without a session record is deleted on start; a live session survives a worker restart', async () => {
    const a = sealedDeps()
    await startSealedSession(a.deps, a.f.deps.now())
    const restarted = createCore(sealedDeps({ blobs: a.blobs, session: a.session }).deps)
    await restarted.startup()
    expect((await restarted.current())?.record.userId).toBe('user-1')
    expect(a.blobs.map.has('session')).toBe(true)
    await a.session.remove(SESSION_KEY)
    const orphaned = createCore(sealedDeps({ blobs: a.blobs, session: a.session }).deps)
    await orphaned.startup()
    expect(a.blobs.map.size).toBe(0)
  })
})

describe('revocation on lock, logout and auto-lock', () => {
  it('logout deletes the session API key at the service, stamped by the session key, then wipes it', async () => {
    const a = sealedDeps()
    const { core, publicKeyHex } = await startSealedSession(a.deps, a.f.deps.now())
    await core.wipe('logout')
    expect(a.calls).toHaveLength(1)
    expect(a.calls[0]?.url).toBe(`${API}/public/v1/submit/delete_api_keys`)
    expect(JSON.parse(a.calls[0]?.body ?? '')).toMatchObject({
      type: 'ACTIVITY_TYPE_DELETE_API_KEYS',
      organizationId: 'org-1',
      parameters: { userId: 'user-1', apiKeyIds: ['key-1'] },
    })
    expect(verifyApiKeyStamp(a.calls[0]?.stamp ?? '', new TextEncoder().encode(a.calls[0]?.body))).toMatchObject({
      ok: true,
      publicKey: publicKeyHex,
    })
    expect(a.blobs.map.size).toBe(0)
    expect(a.f.deps.local.data.has(REVOKE_KEY)).toBe(false)
  })

  it('lock and auto-lock revoke too; an expired session does not try', async () => {
    for (const reason of ['lock', 'auto-lock'] as const) {
      const a = sealedDeps()
      const { core } = await startSealedSession(a.deps, a.f.deps.now())
      await core.wipe(reason)
      expect(a.calls).toHaveLength(1)
    }
    const e = sealedDeps()
    const { core } = await startSealedSession(e.deps, e.f.deps.now())
    await core.wipe('expired')
    expect(e.calls).toHaveLength(0)
    expect(e.blobs.map.size).toBe(0)
  })

  it('offline: the revocation stays pending (sealed key + ids) and is retried at the next start, then wiped', async () => {
    const a = sealedDeps({ offline: true })
    const { core } = await startSealedSession(a.deps, a.f.deps.now())
    await core.wipe('logout')
    expect([...a.blobs.map.keys()]).toEqual(['revoking'])
    expect(a.f.deps.local.data.get(REVOKE_KEY)).toMatchObject({ organizationId: 'org-1', userId: 'user-1', apiKeyId: 'key-1' })
    expect(a.f.alarms.has(REVOKE_ALARM)).toBe(true)
    expect(await core.current()).toBeNull()
    // Worker restart, back online (same storage.session: the browser stayed open).
    const b = sealedDeps({ blobs: a.blobs, session: a.session })
    const deps = { ...b.deps, local: a.f.deps.local }
    await createCore(deps).startup()
    expect(b.calls).toHaveLength(1)
    expect(a.blobs.map.size).toBe(0)
    expect(a.f.deps.local.data.has(REVOKE_KEY)).toBe(false)
  })

  it('a pending revocation of an expired key is dropped without a request', async () => {
    const a = sealedDeps({ offline: true })
    const { core } = await startSealedSession(a.deps, a.f.deps.now())
    await core.wipe('lock')
    a.f.advance(3_600_000)
    const b = sealedDeps({ blobs: a.blobs, session: a.session })
    const deps = { ...b.deps, local: a.f.deps.local, now: a.f.deps.now }
    expect(await createCore(deps).retryRevocation()).toBe('gone')
    expect(b.calls).toHaveLength(0)
    expect(a.blobs.map.size).toBe(0)
    expect(a.f.deps.local.data.has(REVOKE_KEY)).toBe(false)
  })
})
