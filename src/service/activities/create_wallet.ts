import type { z } from 'zod'
import type { createWallet } from '../../api/operations/create_wallet.js'
import { createWalletIn } from './shared/wallets.js'
import type { ActivityHandler } from './types.js'

/**
 * create_wallet (wire-formats B4 createWallet): a fresh mnemonic and its first accounts.
 *
 * @throws INVALID_ARGUMENT when an account's curve, path or addressFormat is invalid
 * @throws ALREADY_EXISTS when parameters.accounts repeats an account (curve, path and address format)
 */
export const handler: ActivityHandler<z.infer<typeof createWallet.parameters>> = async (ctx, p) =>
  createWalletIn(ctx, ctx.organizationId, p, 'parameters')
