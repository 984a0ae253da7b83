/**
 * Per-origin Solana grants (Wallet Standard `standard:connect`), kept apart from the EVM grants of
 * dapp/evm/permissions.ts: one versioned record in storage.local, parsed on read (style.md habits 5, 9).
 * A grant names the accounts the user chose for the site (in the order the site sees them) and
 * their organization; another login sees the origin as not connected. Records of version 1 (one
 * address per origin) are read as a grant of that one account. Not secret (origins and public
 * addresses only).
 */
import { z } from 'zod'
import type { StorageAreaLike } from '../../storage/storageArea'
import { MAX_SITE_ACCOUNTS } from '../evm/permissions'

/** Storage key of the Solana grants. */
export const SOLANA_PERMISSIONS_KEY = 'sigil.solanaPermissions'

/** Version of the stored record. */
export const SOLANA_PERMISSIONS_VERSION = 2

const SolanaAddress = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)

const SolanaGrant = z.object({
  /** The granted accounts, no address twice. */
  accounts: z
    .array(SolanaAddress)
    .min(1)
    .max(MAX_SITE_ACCOUNTS)
    .refine((a) => new Set(a).size === a.length),
  organizationId: z.string().min(1),
  grantedAt: z.number(),
})
/** One origin's Solana grant. */
export type SolanaGrant = z.output<typeof SolanaGrant>

const SolanaGrantV1 = z.object({ address: SolanaAddress, organizationId: z.string().min(1), grantedAt: z.number() })

const Stored = z.object({ v: z.literal(SOLANA_PERMISSIONS_VERSION), origins: z.record(z.string(), SolanaGrant) })
const StoredV1 = z.object({ v: z.literal(1), origins: z.record(z.string(), SolanaGrantV1) })

async function load(area: StorageAreaLike): Promise<Record<string, SolanaGrant>> {
  const raw = (await area.get(SOLANA_PERMISSIONS_KEY))[SOLANA_PERMISSIONS_KEY]
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

async function store(area: StorageAreaLike, origins: Record<string, SolanaGrant>): Promise<void> {
  await area.set({ [SOLANA_PERMISSIONS_KEY]: { v: SOLANA_PERMISSIONS_VERSION, origins } })
}

/** The Solana grant of `origin`, or undefined. */
export async function readSolanaGrant(area: StorageAreaLike, origin: string): Promise<SolanaGrant | undefined> {
  const origins = await load(area)
  return Object.hasOwn(origins, origin) ? origins[origin] : undefined
}

/** Every origin's Solana grant. */
export async function allSolanaGrants(area: StorageAreaLike): Promise<Record<string, SolanaGrant>> {
  return load(area)
}

/** Origins with a Solana grant. */
export async function solanaGrantedOrigins(area: StorageAreaLike): Promise<string[]> {
  return Object.keys(await load(area))
}

/** Grant (or replace) `origin`'s Solana permission; a grant that does not parse is refused (throws). */
export async function writeSolanaGrant(area: StorageAreaLike, origin: string, grant: SolanaGrant): Promise<void> {
  const checked = SolanaGrant.parse(grant)
  await store(area, { ...(await load(area)), [origin]: checked })
}

/** Remove `origin`'s Solana permission; true when there was one. */
export async function removeSolanaGrant(area: StorageAreaLike, origin: string): Promise<boolean> {
  const origins = await load(area)
  if (!Object.hasOwn(origins, origin)) return false
  const { [origin]: _removed, ...rest } = origins
  await store(area, rest)
  return true
}
