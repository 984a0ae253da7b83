/**
 * Per-origin Solana grants (Wallet Standard `standard:connect`), kept apart from the EVM grants:
 * the accounts the user chose for the site, in the order the site sees them (dapp/grants.ts keeps them).
 */
import { z } from 'zod'
import { createGrantStore, type Grant } from '../grants'

/** Storage key of the Solana grants. */
export const SOLANA_PERMISSIONS_KEY = 'sigil.solanaPermissions'

/** One origin's Solana grant. */
export type SolanaGrant = Grant

const solanaGrants = createGrantStore(SOLANA_PERMISSIONS_KEY, z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/))

export const readSolanaGrant = solanaGrants.read
export const allSolanaGrants = solanaGrants.all
export const solanaGrantedOrigins = solanaGrants.origins
export const writeSolanaGrant = solanaGrants.write
export const removeSolanaGrant = solanaGrants.remove
