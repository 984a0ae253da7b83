import type { z } from 'zod'
import { invalidField } from '../../api/errors.js'
import type { exportWallet } from '../../api/operations/export_wallet.js'
import { utf8Encode } from '../../crypto/encoding.js'
import { markWalletExported } from '../store/wallets.js'
import { exportTo } from './shared/exportBundle.js'
import { openMnemonic, requireWallet } from '../signing/walletLookup.js'
import type { ActivityHandler } from './types.js'

/**
 * export_wallet (wire-formats B2): the mnemonic (UTF-8) in an export bundle; marks the wallet exported.
 *
 * @throws INVALID_ARGUMENT when parameters.language is not MNEMONIC_LANGUAGE_ENGLISH or parameters.targetPublicKey is not a hex P-256 public key
 * @throws NOT_FOUND when parameters.walletId names no wallet of the organization
 */
export const handler: ActivityHandler<z.infer<typeof exportWallet.parameters>> = async (ctx, p) => {
  if (p.language !== undefined && p.language !== 'MNEMONIC_LANGUAGE_ENGLISH') {
    throw invalidField('parameters.language', 'only MNEMONIC_LANGUAGE_ENGLISH is supported')
  }
  const wallet = await requireWallet(ctx.tx, ctx.organizationId, p.walletId, 'parameters.walletId')
  const plaintext = utf8Encode(openMnemonic(ctx.rt, wallet))
  let exportBundle: string
  try {
    exportBundle = await exportTo(ctx, p.targetPublicKey, plaintext)
  } finally {
    plaintext.fill(0)
  }
  await markWalletExported(ctx.tx, wallet.id, ctx.now)
  return { walletId: wallet.id, exportBundle }
}
