/** In-memory {@link CoreDeps} for unit tests: Map-backed storage areas, alarms, tabs, clock. */
import { vi } from 'vitest'
import type { CoreDeps } from '@/src/extension/background/core'
import { createMemoryKeyStore } from '@/src/extension/background/keyStore'
import type { StorageAreaLike } from '@/src/extension/background/storageArea'

/** A Map-backed storage area. */
export function memoryArea(): StorageAreaLike & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>()
  return {
    data,
    async get(key) {
      return data.has(key) ? { [key]: structuredClone(data.get(key)) } : {}
    },
    async set(items) {
      for (const [k, v] of Object.entries(items)) data.set(k, structuredClone(v))
    },
    async remove(key) {
      data.delete(key)
    },
  }
}

/** Fake deps with a controllable clock; `fetch` defaults to a rejecting stub. */
export function fakeDeps() {
  let t = 1_700_000_000_000
  const alarms = new Map<string, number>()
  const opened: string[] = []
  const deps = {
    keyStore: createMemoryKeyStore(),
    local: memoryArea(),
    session: memoryArea(),
    alarms: {
      create: (name: string, info: { when: number }) => void alarms.set(name, info.when),
      clear: async (name: string) => alarms.delete(name),
    },
    openTab: async (url: string) => void opened.push(url),
    fetch: vi.fn(async () => {
      throw new TypeError('fetch disabled in this test')
    }) as unknown as typeof fetch,
    now: () => t,
  } satisfies CoreDeps
  return {
    deps,
    alarms,
    opened,
    advance: (ms: number) => {
      t += ms
    },
  }
}
