import { describe, expect, it, vi } from 'vitest'
import { ADDED_CHAINS_KEY, CHAIN_KEY, saveSiteChain } from '@/src/extension/background/dapp/evm/chains'
import { WATCHED_ASSETS_KEY } from '@/src/extension/background/dapp/evm/watchAsset'
import { createIdbStorageArea } from '@/src/extension/background/storage/idbStorageArea'
import { PERMISSIONS_KEY } from '@/src/extension/background/dapp/evm/permissions'
import { REVOKE_KEY } from '@/src/extension/background/session/revocation'
import { DEFAULT_SETTINGS, SETTINGS_KEY, saveConnection, savePreferences } from '@/src/extension/background/service/settings'
import {
  choosePersistentArea,
  MIGRATION_KEY,
  PERSISTENT_KEYS,
  restrictStorageToTrustedContexts,
  setUpStorage,
} from '@/src/extension/background/storage/storageAccess'
import { deferredArea } from '@/src/extension/background/storage/storageArea'
import { FIXTURE_IDENTITY, ORIGIN, setup } from '../../approvalFixture'
import { memoryArea } from '../../fakeDeps'
import { FakeIdbFactory } from '../../fakeIdb'

describe('restrictStorageToTrustedContexts', () => {
  it('sets TRUSTED_CONTEXTS on each area that supports it and reports the others, never throwing', async () => {
    const local = { setAccessLevel: vi.fn(async () => {}) }
    const session = { setAccessLevel: vi.fn(async () => Promise.reject(new Error('nope'))) }
    const result = await restrictStorageToTrustedContexts({ local, session, sync: {}, managed: undefined })
    expect(local.setAccessLevel).toHaveBeenCalledWith({ accessLevel: 'TRUSTED_CONTEXTS' })
    expect(session.setAccessLevel).toHaveBeenCalledWith({ accessLevel: 'TRUSTED_CONTEXTS' })
    expect(result).toEqual({ local: 'restricted', session: 'failed: nope', sync: 'unsupported', managed: 'unsupported' })
  })
})

const SETTINGS = {
  apiBaseUrl: DEFAULT_SETTINGS.apiBaseUrl,
  relayUrl: DEFAULT_SETTINGS.relayUrl,
  identityKey: FIXTURE_IDENTITY.publicKeyHex,
  autoLockMinutes: 7,
}

/** A storage.local an older version wrote to: settings, a grant, the chain, plus a key that is not ours. */
async function olderLocal() {
  const local = memoryArea()
  await saveConnection(local, SETTINGS)
  await savePreferences(local, SETTINGS)
  await saveSiteChain(local, 'https://dapp.example', '0x2105')
  await local.set({ [PERMISSIONS_KEY]: { v: 1, origins: {} }, 'other.key': 1 })
  return local
}

const idbItems = (idb: FakeIdbFactory) => idb.contents('sigil-local', 'items')

describe('choosePersistentArea', () => {
  it('restriction failed: IndexedDB, after moving the background keys out of storage.local once', async () => {
    const local = await olderLocal()
    const idb = new FakeIdbFactory()
    const before = { settings: local.data.get(SETTINGS_KEY), chain: local.data.get(CHAIN_KEY) }
    for (const localAccess of ['unsupported', 'failed: not here'] as const) {
      const choice = await choosePersistentArea({ local, localAccess, openIdb: () => createIdbStorageArea(idb.asFactory()), now: () => 5 })
      expect(choice.backend).toBe('indexeddb')
      if (localAccess === 'unsupported') {
        expect(choice.migrated.sort()).toEqual([CHAIN_KEY, PERMISSIONS_KEY, SETTINGS_KEY].sort())
        expect(choice.reason).toBe('storage.local not restricted (unsupported)')
      } else {
        expect(choice.migrated).toEqual([]) // the second start finds the marker: nothing to move
        expect(choice.reason).toBe('moved there by an earlier start')
      }
      await expect(choice.area.get(SETTINGS_KEY)).resolves.toEqual({ [SETTINGS_KEY]: before.settings })
      await expect(choice.area.get(CHAIN_KEY)).resolves.toEqual({ [CHAIN_KEY]: before.chain })
    }
    expect(idbItems(idb).get(MIGRATION_KEY)).toEqual({ v: 1, backend: 'indexeddb', at: 5 })
    expect(idbItems(idb).has(REVOKE_KEY)).toBe(false) // absent keys are not invented
    expect([...local.data.keys()]).toEqual(['other.key']) // ours removed, the rest untouched
  })

  it('restriction worked: storage.local is kept and IndexedDB gets nothing', async () => {
    const local = await olderLocal()
    const idb = new FakeIdbFactory()
    const choice = await choosePersistentArea({ local, localAccess: 'restricted', openIdb: () => createIdbStorageArea(idb.asFactory()) })
    expect(choice).toEqual({ area: local, backend: 'storage.local', reason: 'restricted to trusted contexts', migrated: [] })
    expect(local.data.has(SETTINGS_KEY)).toBe(true)
    expect(idbItems(idb).size).toBe(0)
  })

  it('never imports what a content script plants in storage.local after the move, and drops it', async () => {
    const local = memoryArea()
    const idb = new FakeIdbFactory()
    const openIdb = () => createIdbStorageArea(idb.asFactory())
    await choosePersistentArea({ local, localAccess: 'unsupported', openIdb }) // fresh install: only the marker
    expect([...idbItems(idb).keys()]).toEqual([MIGRATION_KEY])
    await saveConnection(local, { ...SETTINGS, apiBaseUrl: 'https://evil.example' })
    await local.set({ [PERMISSIONS_KEY]: { v: 1, origins: { 'https://evil.example': {} } } })
    // Even once a browser can restrict storage.local, the state stays where it is.
    for (const localAccess of ['unsupported', 'restricted'] as const) {
      const choice = await choosePersistentArea({ local, localAccess, openIdb })
      expect(choice.backend).toBe('indexeddb')
      await expect(choice.area.get(SETTINGS_KEY)).resolves.toEqual({})
      await expect(choice.area.get(PERMISSIONS_KEY)).resolves.toEqual({})
      expect(local.data.size).toBe(0)
    }
  })

  it('IndexedDB unusable: storage.local, saying it is unprotected; a failed move removes nothing', async () => {
    const local = await olderLocal()
    const missing = await choosePersistentArea({
      local,
      localAccess: 'unsupported',
      openIdb: () => {
        throw new ReferenceError('indexedDB is not defined')
      },
    })
    expect(missing).toMatchObject({ area: local, backend: 'storage.local', migrated: [] })
    expect(missing.reason).toBe('NOT restricted (unsupported) and IndexedDB unavailable (ReferenceError: indexedDB is not defined)')

    const idb = new FakeIdbFactory()
    idb.failOpen = new DOMException('no', 'UnknownError')
    const closed = await choosePersistentArea({ local, localAccess: 'restricted', openIdb: () => createIdbStorageArea(idb.asFactory()) })
    expect(closed).toMatchObject({ area: local, backend: 'storage.local', reason: 'restricted to trusted contexts' })

    idb.failOpen = undefined
    idb.failWrites = new DOMException('disk full', 'QuotaExceededError')
    const full = await choosePersistentArea({ local, localAccess: 'unsupported', openIdb: () => createIdbStorageArea(idb.asFactory()) })
    expect(full).toMatchObject({ area: local, backend: 'storage.local' })
    expect(full.reason).toContain('moving to IndexedDB failed (QuotaExceededError: disk full)')
    expect(local.data.has(SETTINGS_KEY)).toBe(true)
    expect(idbItems(idb).size).toBe(0)
  })

  it('names every storage.local key the background writes', () => {
    expect([...PERSISTENT_KEYS].sort()).toEqual(
      [ADDED_CHAINS_KEY, CHAIN_KEY, PERMISSIONS_KEY, REVOKE_KEY, SETTINGS_KEY, WATCHED_ASSETS_KEY].sort(),
    )
  })
})

describe('setUpStorage', () => {
  const log = () => ({ info: vi.fn(), warn: vi.fn() })
  const logged = (l: ReturnType<typeof log>) => JSON.stringify([l.info.mock.calls, l.warn.mock.calls])

  it('Firefox-like (local has no setAccessLevel): restricts session, moves to IndexedDB, logs names but never values', async () => {
    const local = await olderLocal()
    const session = { setAccessLevel: vi.fn(async () => {}) }
    const idb = new FakeIdbFactory()
    const l = log()
    const area = await setUpStorage({ local, session, openIdb: () => createIdbStorageArea(idb.asFactory()), log: l })
    expect(session.setAccessLevel).toHaveBeenCalledWith({ accessLevel: 'TRUSTED_CONTEXTS' })
    await expect(area.get(SETTINGS_KEY)).resolves.toMatchObject({ [SETTINGS_KEY]: { settings: { apiBaseUrl: SETTINGS.apiBaseUrl } } })
    expect(l.warn).not.toHaveBeenCalled()
    expect(l.info).toHaveBeenCalledTimes(1)
    expect(l.info.mock.calls[0]?.[0]).toMatch(
      /^storage: settings, grants and chain in indexeddb \(storage.local not restricted \(unsupported\)\); moved 3 key/,
    )
    expect(logged(l)).not.toContain('svc.example')
    expect(logged(l)).not.toContain('0x2105')
  })

  it('Chrome-like (local restricted): keeps storage.local and logs it as info', async () => {
    const local = Object.assign(await olderLocal(), { setAccessLevel: vi.fn(async () => {}) })
    const l = log()
    const area = await setUpStorage({
      local,
      session: undefined,
      openIdb: () => createIdbStorageArea(new FakeIdbFactory().asFactory()),
      log: l,
    })
    expect(area).toBe(local)
    expect(l.info).toHaveBeenCalledWith('storage: settings, grants and chain in storage.local (restricted to trusted contexts)')
    expect(l.warn).not.toHaveBeenCalled()
  })

  it('warns when the state stays in an unrestricted storage.local', async () => {
    const local = Object.assign(memoryArea(), { setAccessLevel: vi.fn(async () => Promise.reject(new Error('nope'))) })
    const l = log()
    const area = await setUpStorage({
      local,
      session: undefined,
      openIdb: () => {
        throw new ReferenceError('indexedDB is not defined')
      },
      log: l,
    })
    expect(area).toBe(local)
    expect(l.warn).toHaveBeenCalledWith('storage.local: failed: nope')
    expect(l.warn).toHaveBeenCalledWith(expect.stringMatching(/^storage: settings, grants and chain in storage.local \(NOT restricted/))
  })
})

describe('the background over the IndexedDB area', () => {
  it('migrates at start, then the popup and a dApp approval work and the grant lands in IndexedDB only', async () => {
    const browserLocal = await olderLocal()
    const idb = new FakeIdbFactory()
    const local = deferredArea(
      setUpStorage({
        local: browserLocal,
        session: undefined,
        openIdb: () => createIdbStorageArea(idb.asFactory()),
        log: { info() {}, warn() {} },
      }),
    )
    const t = setup({ local })
    const status = await t.popup('getStatus')
    expect(status).toMatchObject({ ok: true, result: { settings: SETTINGS } })
    expect(await t.rpc('eth_chainId')).toEqual({ result: '0x2105' })
    await t.connected() // eth_requestAccounts, approved in the approval window
    expect(await t.rpc('eth_accounts')).toMatchObject({ result: [expect.stringMatching(/^0x/)] })
    const stored = idbItems(idb).get(PERMISSIONS_KEY) as { origins: Record<string, unknown> }
    expect(Object.keys(stored.origins)).toEqual([ORIGIN])
    expect([...browserLocal.data.keys()]).toEqual(['other.key'])
    // Settings saved from the popup go to IndexedDB as well.
    const saved = await t.popup('savePreferences', { autoLockMinutes: 9 })
    expect(saved).toMatchObject({ ok: true, result: { autoLockMinutes: 9 } })
    expect(idbItems(idb).get(SETTINGS_KEY)).toMatchObject({ settings: { autoLockMinutes: 9 } })
    expect(browserLocal.data.has(SETTINGS_KEY)).toBe(false)
  })
})
