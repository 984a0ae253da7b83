import type { z } from 'zod'
import type { exportWalletAccount } from '../../api/operations/export_wallet_account.js'
import { exportTo } from './shared/exportBundle.js'
import { openAccountKey, requireAccount } from '../signing/walletLookup.js'
import type { ActivityHandler } from './types.js'

/**
 * export_wallet_account (wire-formats B2): the account's 32-byte private key in an export bundle.
 * The wallet itself is not marked exported (its mnemonic was not revealed).
 *
 * @throws NOT_FOUND when parameters.address names no wallet account of the organization
 * @throws INVALID_ARGUMENT when parameters.targetPublicKey is not a hex P-256 public key
 */
export const handler: ActivityHandler<z.infer<typeof exportWalletAccount.parameters>> = async (ctx, p) => {
  const account = await requireAccount(ctx.tx, ctx.organizationId, p.address, 'parameters.address')
  const privateKey = openAccountKey(ctx.rt, account)
  try {
    return { address: account.address, exportBundle: await exportTo(ctx, p.targetPublicKey, privateKey) }
  } finally {
    privateKey.fill(0)
  }
}
