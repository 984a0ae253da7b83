/**
 * Per-origin grants of one chain family, persisted in storage.local as one versioned record parsed
 * on read (style.md habits 5, 9). A grant names the accounts the user chose for the site, in the
 * order the site sees them (the first is the active one), and the organization they belong to:
 * another login sees the origin as not connected. Records of version 1 (one address per origin)
 * are read as a grant of that one account. Not secret (origins and public addresses only).
 * dapp/evm/permissions.ts and dapp/solana/permissions.ts are the two stores.
 */
import { z } from 'zod'
import type { StorageAreaLike } from '../storage/storageArea'

/** Most accounts one site may be given. */
export const MAX_SITE_ACCOUNTS = 50

/** Version of the stored record. */
export const GRANTS_VERSION = 2

/** The schema of one grant whose addresses match `address`, compared by `key` (no address twice). */
export function grantSchema(address: z.ZodString, key: (address: string) => string) {
  return z.object({
    accounts: z
      .array(address)
      .min(1)
      .max(MAX_SITE_ACCOUNTS)
      .refine((a) => new Set(a.map(key)).size === a.length, 'no account twice'),
    organizationId: z.string().min(1),
    grantedAt: z.number(),
  })
}

/** One origin's grant. */
export type Grant = z.output<ReturnType<typeof grantSchema>>

/** A store of grants. */
export type GrantStore = {
  /** The grant of `origin`, or undefined. */
  read(area: StorageAreaLike, origin: string): Promise<Grant | undefined>
  /** Every origin's grant. */
  all(area: StorageAreaLike): Promise<Record<string, Grant>>
  /** Origins that have a grant. */
  origins(area: StorageAreaLike): Promise<string[]>
  /** Grant (or replace) `origin`'s permission; a grant that does not parse is refused (throws). */
  write(area: StorageAreaLike, origin: string, grant: Grant): Promise<void>
  /** Remove `origin`'s permission; true when there was one. */
  remove(area: StorageAreaLike, origin: string): Promise<boolean>
}

/** The grants stored under `storageKey`, of addresses matching `address` compared by `key`. */
export function createGrantStore(storageKey: string, address: z.ZodString, key: (address: string) => string = (a) => a): GrantStore {
  const Grant = grantSchema(address, key)
  const GrantV1 = z.object({ address, organizationId: z.string().min(1), grantedAt: z.number() })
  const Stored = z.object({ v: z.literal(GRANTS_VERSION), origins: z.record(z.string(), Grant) })
  const StoredV1 = z.object({ v: z.literal(1), origins: z.record(z.string(), GrantV1) })

  async function load(area: StorageAreaLike): Promise<Record<string, Grant>> {
    const raw = (await area.get(storageKey))[storageKey]
    const parsed = Stored.safeParse(raw)
    if (parsed.success) return parsed.data.origins
    const v1 = StoredV1.safeParse(raw)
    if (!v1.success) return {}
    return Object.fromEntries(
      Object.entries(v1.data.origins).map(([origin, g]) => [
        origin,
        { accounts: [g.address], organizationId: g.organizationId, grantedAt: g.grantedAt },
      ]),
    )
  }

  async function store(area: StorageAreaLike, origins: Record<string, Grant>): Promise<void> {
    await area.set({ [storageKey]: { v: GRANTS_VERSION, origins } })
  }

  return {
    async read(area, origin) {
      const origins = await load(area)
      return Object.hasOwn(origins, origin) ? origins[origin] : undefined
    },
    all: load,
    async origins(area) {
      return Object.keys(await load(area))
    },
    async write(area, origin, grant) {
      const checked = Grant.parse(grant)
      await store(area, { ...(await load(area)), [origin]: checked })
    },
    async remove(area, origin) {
      const origins = await load(area)
      if (!Object.hasOwn(origins, origin)) return false
      const { [origin]: _removed, ...rest } = origins
      await store(area, rest)
      return true
    },
  }
}
