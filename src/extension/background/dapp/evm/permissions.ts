/**
 * Per-origin dApp permissions (EIP-2255 `eth_accounts`), persisted in storage.local as one
 * versioned record parsed on read (style.md habits 5, 9). A grant names the accounts the user
 * chose for the site, in order (the first is the active one, as `eth_accounts` returns them), and
 * the organization they belong to: another login sees the origin as not connected. Records of
 * version 1 (one address per origin) are read as a grant of that one account. Not secret
 * (origins and public addresses only).
 */
import { z } from 'zod'
import type { StorageAreaLike } from '../../storage/storageArea'

/** Storage key of the permissions record. */
export const PERMISSIONS_KEY = 'sigil.permissions'

/** Version of the stored record. */
export const PERMISSIONS_VERSION = 2

/** Most accounts one site may be given. */
export const MAX_SITE_ACCOUNTS = 50

const EvmAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/)

const Grant = z.object({
  /** The granted accounts, the active one first; no address twice (compared case-insensitively). */
  accounts: z
    .array(EvmAddress)
    .min(1)
    .max(MAX_SITE_ACCOUNTS)
    .refine((a) => new Set(a.map((x) => x.toLowerCase())).size === a.length),
  organizationId: z.string().min(1),
  grantedAt: z.number(),
})
/** One origin's grant. */
export type Grant = z.output<typeof Grant>

const GrantV1 = z.object({ address: EvmAddress, organizationId: z.string().min(1), grantedAt: z.number() })

const Stored = z.object({ v: z.literal(PERMISSIONS_VERSION), origins: z.record(z.string(), Grant) })
const StoredV1 = z.object({ v: z.literal(1), origins: z.record(z.string(), GrantV1) })

async function load(area: StorageAreaLike): Promise<Record<string, Grant>> {
  const raw = (await area.get(PERMISSIONS_KEY))[PERMISSIONS_KEY]
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

/** Grant (or replace) `origin`'s permission; a grant that does not parse is refused (throws). */
export async function writeGrant(area: StorageAreaLike, origin: string, grant: Grant): Promise<void> {
  const checked = Grant.parse(grant)
  const origins = await load(area)
  await store(area, { ...origins, [origin]: checked })
}

/** Remove `origin`'s permission; true when there was one. */
export async function removeGrant(area: StorageAreaLike, origin: string): Promise<boolean> {
  const origins = await load(area)
  if (!Object.hasOwn(origins, origin)) return false
  const { [origin]: _removed, ...rest } = origins
  await store(area, rest)
  return true
}
