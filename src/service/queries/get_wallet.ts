import { requireWallet } from '../signing/walletLookup.js'
import type { QueryHandler } from './types.js'
import { walletToWire } from '../store/wallets.js'

/**
 * get_wallet (wire-formats B4 getWallet): `{organizationId, walletId}` → `{wallet}`.
 *
 * @throws NOT_FOUND when walletId names no wallet of the organization
 */
export const handler: QueryHandler<{ walletId: string }> = async ({ sql, organizationId }, req) => ({
  wallet: walletToWire(await requireWallet(sql, organizationId, req.walletId, 'walletId')),
})
