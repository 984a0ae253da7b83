import { describe, expect, it } from 'vitest'
import { createIdbStorageArea } from '@/src/extension/background/storage/idbStorageArea'
import { FakeIdbFactory } from '../../fakeIdb'
import { memoryArea } from '../../fakeDeps'

// `fake-indexeddb` is not installed: these run on the in-memory fake of the IndexedDB subset used (fakeIdb.ts).
describe('createIdbStorageArea', () => {
  it('gets what was set as { key: value }, {} when absent, and removes (an absent key is a no-op)', async () => {
    const idb = new FakeIdbFactory()
    const area = createIdbStorageArea(idb.asFactory())
    await expect(area.get('sigil.settings')).resolves.toEqual({})
    await area.set({ 'sigil.settings': { v: 1, apiBaseUrl: 'http://localhost:8080' }, 'sigil.chain': { v: 1, chainId: '0x1' } })
    await expect(area.get('sigil.settings')).resolves.toEqual({ 'sigil.settings': { v: 1, apiBaseUrl: 'http://localhost:8080' } })
    await expect(area.get('sigil.chain')).resolves.toEqual({ 'sigil.chain': { v: 1, chainId: '0x1' } })
    await area.remove('sigil.chain')
    await area.remove('sigil.never-set')
    await expect(area.get('sigil.chain')).resolves.toEqual({})
    expect([...idb.contents('sigil-local', 'items').keys()]).toEqual(['sigil.settings'])
  })

  it('behaves like the storage.local fake for falsy values, overwrites and copies', async () => {
    const area = createIdbStorageArea(new FakeIdbFactory().asFactory())
    const mem = memoryArea()
    for (const a of [area, mem]) {
      const value = { n: 1, list: [1, 2] }
      await a.set({ zero: 0, empty: '', no: false, nil: null, obj: value })
      value.n = 2 // later mutation of the caller's object is not stored
      await a.set({ zero: 5 })
      const got = await a.get('obj')
      ;(got.obj as { n: number }).n = 3 // nor is mutation of what get returned
      expect(await a.get('zero')).toEqual({ zero: 5 })
      expect(await a.get('empty')).toEqual({ empty: '' })
      expect(await a.get('no')).toEqual({ no: false })
      expect(await a.get('nil')).toEqual({ nil: null })
      expect(await a.get('obj')).toEqual({ obj: { n: 1, list: [1, 2] } })
    }
  })

  it('persists across instances (a background restart) and opens the database once per instance', async () => {
    const idb = new FakeIdbFactory()
    const first = createIdbStorageArea(idb.asFactory())
    await first.set({ 'sigil.permissions': { v: 1, origins: {} } })
    await first.get('sigil.permissions')
    expect(idb.opens).toBe(1)
    const second = createIdbStorageArea(idb.asFactory())
    await expect(second.get('sigil.permissions')).resolves.toEqual({ 'sigil.permissions': { v: 1, origins: {} } })
  })

  it('writes all items of one set or none', async () => {
    const idb = new FakeIdbFactory()
    const area = createIdbStorageArea(idb.asFactory())
    await area.set({ a: 1 })
    idb.failWrites = new DOMException('disk full', 'QuotaExceededError')
    await expect(area.set({ a: 2, b: 2 })).rejects.toThrow('disk full')
    idb.failWrites = undefined
    // An uncloneable value throws in the middle of the puts: the earlier ones are rolled back.
    await expect(area.set({ a: 3, b: () => 0 })).rejects.toThrow()
    await expect(area.get('a')).resolves.toEqual({ a: 1 })
    await expect(area.get('b')).resolves.toEqual({})
  })

  it('rejects when the database cannot be opened, and retries the open on the next call', async () => {
    const idb = new FakeIdbFactory()
    idb.failOpen = new DOMException('blocked', 'InvalidStateError')
    const area = createIdbStorageArea(idb.asFactory())
    await expect(area.get('a')).rejects.toThrow('blocked')
    idb.failOpen = undefined
    await area.set({ a: 1 })
    await expect(area.get('a')).resolves.toEqual({ a: 1 })
  })

  it('reopens after the browser closed the connection', async () => {
    const idb = new FakeIdbFactory()
    const area = createIdbStorageArea(idb.asFactory())
    await area.set({ a: 1 })
    idb.closeAll(true) // with a close event: the next call reopens at once
    await expect(area.get('a')).resolves.toEqual({ a: 1 })
    expect(idb.opens).toBe(2)
    idb.closeAll(false) // without one: that call fails (InvalidStateError), the next reopens
    await expect(area.get('a')).rejects.toThrow('closed')
    await expect(area.get('a')).resolves.toEqual({ a: 1 })
    expect(idb.opens).toBe(3)
  })

  it('skips undefined values (Chrome drops them when serializing)', async () => {
    const area = createIdbStorageArea(new FakeIdbFactory().asFactory())
    await area.set({ a: 1 })
    await area.set({ a: undefined, b: undefined })
    await expect(area.get('a')).resolves.toEqual({ a: 1 })
    await expect(area.get('b')).resolves.toEqual({})
  })
})
