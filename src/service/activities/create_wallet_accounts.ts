import type { z } from 'zod'
import type { createWalletAccounts } from '../../api/operations/create_wallet_accounts.js'
import { mnemonicToSeed } from '../chains/seed.js'
import { openMnemonic, requireWallet } from '../signing/walletLookup.js'
import { type DerivedWalletAccount, deriveWalletAccounts, persistWalletAccounts, wipe } from './shared/wallets.js'
import type { ActivityHandler } from './types.js'

/**
 * create_wallet_accounts (service-interface "Submit operations" 4): derives the accounts from the
 * wallet's mnemonic; with `persist: false` only returns the addresses and stores nothing.
 *
 * @throws NOT_FOUND when parameters.walletId names no wallet of the organization
 * @throws INVALID_ARGUMENT when an account's curve, path or addressFormat is invalid
 * @throws ALREADY_EXISTS when persisting an account (curve, path and address format) the wallet already has or parameters.accounts repeats
 */
export const handler: ActivityHandler<z.infer<typeof createWalletAccounts.parameters>> = async (ctx, p) => {
  const wallet = await requireWallet(ctx.tx, ctx.organizationId, p.walletId, 'parameters.walletId')
  const seed = await mnemonicToSeed(openMnemonic(ctx.rt, wallet))
  let derived: DerivedWalletAccount[]
  try {
    derived = deriveWalletAccounts(seed, p.accounts, 'parameters')
  } finally {
    seed.fill(0)
  }
  try {
    if (p.persist !== false) await persistWalletAccounts(ctx, ctx.organizationId, wallet.id, derived, 'parameters')
  } finally {
    wipe(derived)
  }
  return { addresses: derived.map((d) => d.address) }
}
