/**
 * Per-origin EVM permissions (EIP-2255 `eth_accounts`): the accounts the user chose for the site,
 * the active one first as `eth_accounts` returns them (dapp/grants.ts keeps them).
 */
import { z } from 'zod'
import { createGrantStore, type Grant as StoredGrant } from '../grants'

/** Storage key of the permissions record. */
export const PERMISSIONS_KEY = 'sigil.permissions'

/** One origin's EVM grant. */
export type Grant = StoredGrant

const evmGrants = createGrantStore(PERMISSIONS_KEY, z.string().regex(/^0x[0-9a-fA-F]{40}$/), (a) => a.toLowerCase())

export const readGrant = evmGrants.read
export const allGrants = evmGrants.all
export const grantedOrigins = evmGrants.origins
export const writeGrant = evmGrants.write
export const removeGrant = evmGrants.remove
