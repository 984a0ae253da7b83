import type { QueryHandler } from './types.js'
import { listWallets, walletToWire } from '../store/wallets.js'

/** list_wallets (wire-formats B4 getWallets): the organization's wallets in creation order. */
export const handler: QueryHandler = async ({ sql, organizationId }) => ({
  wallets: (await listWallets(sql, organizationId)).map(walletToWire),
})
