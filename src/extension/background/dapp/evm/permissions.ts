/**
 * Per-origin dApp permissions (EIP-2255 `eth_accounts`), persisted in storage.local as one
 * versioned record parsed on read (style.md habits 5, 9). A grant names the account and the
 * organization it belongs to: another login sees the origin as not connected. Not secret
 * (origins and public addresses only).
 */
import { z } from 'zod'
import type { StorageAreaLike } from '../../storage/storageArea'

/** Storage key of the permissions record. */
export const PERMISSIONS_KEY = 'sigil.permissions'

/** Version of the stored record. */
export const PERMISSIONS_VERSION = 1

const Grant = z.object({
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  organizationId: z.string().min(1),
  grantedAt: z.number(),
})
/** One origin's grant. */
export type Grant = z.output<typeof Grant>

const Stored = z.object({ v: z.literal(PERMISSIONS_VERSION), origins: z.record(z.string(), Grant) })

async function load(area: StorageAreaLike): Promise<Record<string, Grant>> {
  const parsed = Stored.safeParse((await area.get(PERMISSIONS_KEY))[PERMISSIONS_KEY])
  return parsed.success ? parsed.data.origins : {}
}

async function store(area: StorageAreaLike, origins: Record<string, Grant>): Promise<void> {
  await area.set({ [PERMISSIONS_KEY]: { v: PERMISSIONS_VERSION, origins } })
}

/** The grant of `origin`, or undefined. */
export async function readGrant(area: StorageAreaLike, origin: string): Promise<Grant | undefined> {
  const origins = await load(area)
  return Object.hasOwn(origins, origin) ? origins[origin] : undefined
}

/** Every origin's grant. */
export async function allGrants(area: StorageAreaLike): Promise<Record<string, Grant>> {
  return load(area)
}

/** Origins that have a grant. */
export async function grantedOrigins(area: StorageAreaLike): Promise<string[]> {
  return Object.keys(await load(area))
}

/** Grant (or replace) `origin`'s permission. */
export async function writeGrant(area: StorageAreaLike, origin: string, grant: Grant): Promise<void> {
  const origins = await load(area)
  await store(area, { ...origins, [origin]: grant })
}

/** Remove `origin`'s permission; true when there was one. */
export async function removeGrant(area: StorageAreaLike, origin: string): Promise<boolean> {
  const origins = await load(area)
  if (!Object.hasOwn(origins, origin)) return false
  const { [origin]: _removed, ...rest } = origins
  await store(area, rest)
  return true
}
