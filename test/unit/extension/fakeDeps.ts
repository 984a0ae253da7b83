/** In-memory {@link CoreDeps} for unit tests: Map-backed storage areas, alarms, tabs, clock. */
import { vi } from 'vitest'
import type { CoreDeps } from '@/src/extension/background/core'
import { createMemoryKeyStore } from '@/src/extension/background/session/keyStore'
import type { StorageAreaLike } from '@/src/extension/background/storage/storageArea'
import { saveConnection, savePreferences } from '@/src/extension/background/service/settings'
import { type NetworkInfo, RELAY_IDENTITY_PATH, SERVICE_IDENTITY_PATH } from '@/src/api/serviceIdentity'
import { signServiceIdentity } from '@/src/crypto/serviceIdentity'
import { generateP256KeyPair, p256PublicKeyFromPrivate } from '@/src/crypto/p256'
import { bytesToHex } from '@/src/crypto/encoding'

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

/** Pin the service at `url` (relay at `/auth`) as the connect step would, reading its published identity key. */
export async function pinService(area: StorageAreaLike, url: string, autoLockMinutes?: number): Promise<void> {
  const res = await fetch(`${url}${SERVICE_IDENTITY_PATH}`)
  const { publicKey } = (await res.json()) as { publicKey: string }
  await saveConnection(area, { apiBaseUrl: url, relayUrl: `${url}/auth`, identityKey: publicKey })
  if (autoLockMinutes !== undefined) await savePreferences(area, { autoLockMinutes })
}

/**
 * A fake service identity for fetch stubs: `identityDocs(url)` answers the service's
 * `/.well-known/sigil-service` and the relay's `/v1/service_identity`, signed by `key`.
 */
export function fakeIdentity(url: string, key = generateP256KeyPair(), networks: NetworkInfo[] = []) {
  const pub = bytesToHex(p256PublicKeyFromPrivate(key.privateKey, false))
  const doc = signServiceIdentity(
    {
      v: 1,
      kind: 'sigil-service-identity',
      origins: [new URL(url).origin],
      keys: { identity: pub, signer: pub, notarizer: pub },
      issuedAt: 1,
      ...(networks.length > 0 ? { networks } : {}),
    },
    key.privateKey,
  )
  return {
    key,
    publicKeyHex: pub,
    /** The identity response for `url`, or undefined when `url` is not an identity endpoint. */
    answer(u: string): Response | undefined {
      return u.endsWith(SERVICE_IDENTITY_PATH) || u.endsWith(RELAY_IDENTITY_PATH) ? Response.json(doc) : undefined
    },
    pin: (area: StorageAreaLike) => saveConnection(area, { apiBaseUrl: url, relayUrl: `${url}/auth`, identityKey: pub }),
  }
}
