/**
 * The NFTs a user imported ("Import NFT", nfts.ts#importNft): contract, token id and standard
 * per network, kept per user (organization id + user id) in the persistent area, versioned and
 * parsed on read (at most 200). The NFT list checks each on chain like a discovered one.
 */
import { z } from 'zod'
import type { ActiveSession } from '../core'
import type { StorageAreaLike } from '../storage/storageArea'
import type { NftCandidate, NftView } from './nfts'

/** Storage key of the imported NFTs. */
export const IMPORTED_NFTS_KEY = 'sigil.importedNfts'

const ImportedNft = z.object({
  caip2: z.string(),
  contract: z.string().regex(/^0x[0-9a-f]{40}$/),
  tokenId: z.string().regex(/^[0-9]{1,78}$/),
  standard: z.enum(['erc721', 'erc1155']),
  addedAt: z.number().int(),
})
type ImportedNft = z.infer<typeof ImportedNft>
const ImportedNfts = z.object({ v: z.literal(1), users: z.record(z.string(), z.array(ImportedNft).max(200)) })

const userKey = (s: ActiveSession) => `${s.record.organizationId}/${s.record.userId}`

async function loadAll(area: StorageAreaLike): Promise<Record<string, ImportedNft[]>> {
  const parsed = ImportedNfts.safeParse((await area.get(IMPORTED_NFTS_KEY))[IMPORTED_NFTS_KEY])
  return parsed.success ? parsed.data.users : {}
}

/** The NFTs the user imported on `caip2`, as discovery candidates. */
export async function importedNftCandidates(area: StorageAreaLike, session: ActiveSession, caip2: string): Promise<NftCandidate[]> {
  return ((await loadAll(area))[userKey(session)] ?? [])
    .filter((n) => n.caip2 === caip2)
    .map((n) => ({ contract: n.contract, tokenId: BigInt(n.tokenId), standard: n.standard }))
}

/** Keep `nft` (held, checked on chain) in the user's imported NFTs on `caip2`. */
export async function addImportedNft(
  area: StorageAreaLike,
  session: ActiveSession,
  caip2: string,
  nft: NftView,
  addedAt: number,
): Promise<void> {
  const users = await loadAll(area)
  const key = userKey(session)
  const entry: ImportedNft = { caip2, contract: nft.contract, tokenId: nft.tokenId, standard: nft.standard, addedAt }
  const mine = (users[key] ?? []).filter((n) => !(n.caip2 === caip2 && n.contract === entry.contract && n.tokenId === entry.tokenId))
  await area.set({ [IMPORTED_NFTS_KEY]: { v: 1, users: { ...users, [key]: [...mine, entry].slice(-200) } } })
}
