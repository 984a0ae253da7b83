/**
 * Per-origin Solana grants (Wallet Standard `standard:connect`), kept apart from the EVM grants of
 * dapp/evm/permissions.ts: one versioned record in storage.local, parsed on read (style.md habits 5, 9).
 * A grant names the account and its organization; another login sees the origin as not connected.
 * Not secret (origins and public addresses only).
 */
import { z } from 'zod'
import type { StorageAreaLike } from '../../storage/storageArea'

/** Storage key of the Solana grants. */
export const SOLANA_PERMISSIONS_KEY = 'sigil.solanaPermissions'

const SolanaGrant = z.object({
  address: z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/),
  organizationId: z.string().min(1),
  grantedAt: z.number(),
})
/** One origin's Solana grant. */
export type SolanaGrant = z.output<typeof SolanaGrant>

const Stored = z.object({ v: z.literal(1), origins: z.record(z.string(), SolanaGrant) })

async function load(area: StorageAreaLike): Promise<Record<string, SolanaGrant>> {
  const parsed = Stored.safeParse((await area.get(SOLANA_PERMISSIONS_KEY))[SOLANA_PERMISSIONS_KEY])
  return parsed.success ? parsed.data.origins : {}
}

async function store(area: StorageAreaLike, origins: Record<string, SolanaGrant>): Promise<void> {
  await area.set({ [SOLANA_PERMISSIONS_KEY]: { v: 1, origins } })
}

/** The Solana grant of `origin`, or undefined. */
export async function readSolanaGrant(area: StorageAreaLike, origin: string): Promise<SolanaGrant | undefined> {
  const origins = await load(area)
  return Object.hasOwn(origins, origin) ? origins[origin] : undefined
}

/** Origins with a Solana grant. */
export async function solanaGrantedOrigins(area: StorageAreaLike): Promise<string[]> {
  return Object.keys(await load(area))
}

/** Grant (or replace) `origin`'s Solana permission. */
export async function writeSolanaGrant(area: StorageAreaLike, origin: string, grant: SolanaGrant): Promise<void> {
  await store(area, { ...(await load(area)), [origin]: grant })
}

/** Remove `origin`'s Solana permission; true when there was one. */
export async function removeSolanaGrant(area: StorageAreaLike, origin: string): Promise<boolean> {
  const origins = await load(area)
  if (!Object.hasOwn(origins, origin)) return false
  const { [origin]: _removed, ...rest } = origins
  await store(area, rest)
  return true
}
