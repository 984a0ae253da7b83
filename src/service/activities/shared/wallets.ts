import type { WalletParams } from '../../../api/operations/create_sub_organization.js'
import { invalidField } from '../../../api/errors.js'
import type { ActivityContext } from '../types.js'

/**
 * Creates a wallet in `orgId` (issue 4). Until wallets land this refuses with a clear 400.
 */
export const createWalletIn = async (
  _ctx: ActivityContext,
  _orgId: string,
  _wallet: WalletParams,
  field: string,
): Promise<{ walletId: string; addresses: string[] }> => {
  throw invalidField(field, 'wallet creation is not available in this version of the service')
}
