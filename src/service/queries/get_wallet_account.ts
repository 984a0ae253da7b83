import { fieldError, invalidField } from '../../api/errors.js'
import { formatPath, parsePath } from '../../chains/path.js'
import { requireWallet } from '../signing/walletLookup.js'
import { type WalletAccountRow, findAccountByAddress, findAccountByPath, walletAccountToWire } from '../store/wallets.js'
import type { QueryHandler } from './types.js'

/**
 * get_wallet_account: `{organizationId, walletId, address? | path?}` → `{account}`. By address
 * (hex addresses match without their checksum), else by derivation path (the first account at that
 * path when several address formats share it).
 *
 * @throws NOT_FOUND when walletId names no wallet of the organization, or the wallet has no such account
 * @throws INVALID_ARGUMENT when neither address nor path is given, or path is not a derivation path
 */
export const handler: QueryHandler<{ walletId: string; address?: string | undefined; path?: string | undefined }> = async (
  { sql, organizationId },
  req,
) => {
  const wallet = await requireWallet(sql, organizationId, req.walletId, 'walletId')
  let account: WalletAccountRow | undefined
  if (req.address !== undefined) {
    const found = await findAccountByAddress(sql, organizationId, req.address)
    account = found?.wallet_id === wallet.id ? found : undefined
    if (!account) throw fieldError('NOT_FOUND', 'address', 'the wallet has no account with this address')
  } else if (req.path !== undefined) {
    let norm: string
    try {
      norm = formatPath(parsePath(req.path))
    } catch {
      throw invalidField('path', "not a derivation path (e.g. m/44'/60'/0'/0/0)")
    }
    account = await findAccountByPath(sql, wallet.id, norm)
    if (!account) throw fieldError('NOT_FOUND', 'path', 'the wallet has no account at this path')
  } else {
    throw invalidField('address', 'address or path is required')
  }
  return { account: walletAccountToWire(account) }
}
