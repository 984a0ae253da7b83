/**
 * The user's imported NFTs (background/wallet/importedNfts.ts): kept per user and per network,
 * each contract and id once, and a stored value that does not parse reads as none.
 */
import { describe, expect, it } from 'vitest'
import type { ActiveSession } from '@/src/extension/background/core'
import type { StorageAreaLike } from '@/src/extension/background/storage/storageArea'
import { addImportedNft, IMPORTED_NFTS_KEY, importedNftCandidates } from '@/src/extension/background/wallet/importedNfts'

function memoryArea(): StorageAreaLike & { data: Record<string, unknown> } {
  const data: Record<string, unknown> = {}
  return {
    data,
    get: async (key) => (key in data ? { [key]: structuredClone(data[key]) } : {}),
    set: async (items) => {
      Object.assign(data, structuredClone(items))
    },
    remove: async (key) => {
      delete data[key]
    },
  }
}
const session = (userId: string) => ({ record: { organizationId: 'org', userId } }) as unknown as ActiveSession
const C = '0x5fbdb2315678afecb367f032d93f642f64180aa3'

describe('imported NFTs', () => {
  it('keeps each per user and network, once', async () => {
    const area = memoryArea()
    const nft = { contract: C, tokenId: '9', standard: 'erc721' as const, amount: '1' }
    await addImportedNft(area, session('u1'), 'eip155:31337', nft, 1)
    await addImportedNft(area, session('u1'), 'eip155:31337', nft, 2)
    await addImportedNft(area, session('u1'), 'eip155:1', { ...nft, tokenId: '10', standard: 'erc1155' }, 3)
    expect(await importedNftCandidates(area, session('u1'), 'eip155:31337')).toEqual([{ contract: C, tokenId: 9n, standard: 'erc721' }])
    expect(await importedNftCandidates(area, session('u1'), 'eip155:1')).toEqual([{ contract: C, tokenId: 10n, standard: 'erc1155' }])
    expect(await importedNftCandidates(area, session('u2'), 'eip155:31337')).toEqual([])
  })

  it('reads a stored value that does not parse as none', async () => {
    const area = memoryArea()
    area.data[IMPORTED_NFTS_KEY] = { v: 1, users: { 'org/u1': [{ caip2: 'eip155:31337', contract: 'nope', tokenId: '1' }] } }
    expect(await importedNftCandidates(area, session('u1'), 'eip155:31337')).toEqual([])
  })
})
