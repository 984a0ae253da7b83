/**
 * Wallet creation shared by create_wallet, create_wallet_accounts, import_wallet and
 * create_sub_organization (address-formats.md). At rest: the mnemonic sealed under
 * `wallet-mnemonic:<walletId>` and each account's derived private key sealed under
 * `wallet-account-key:<walletAccountId>`, so that signing opens one AES-GCM box instead of
 * re-running PBKDF2 + BIP-32/SLIP-10 (~9 ms) per request. Nothing is kept in plaintext.
 */
import type { WalletAccountParams } from '../../../api/common.js'
import { type SigilError, fieldError } from '../../../api/errors.js'
import type { WalletParams } from '../../../api/operations/create_sub_organization.js'
import { deriveAccount } from '../../../chains/derive.js'
import { type MnemonicLength, generateMnemonic } from '../../../chains/mnemonic.js'
import { mnemonicToSeed } from '../../chains/seed.js'
import { formatPath, parsePath } from '../../../chains/path.js'
import { utf8Encode } from '../../../crypto/encoding.js'
import { deferring } from '../../store/transactions.js'
import { insertWallet, insertWalletAccounts, sealPurpose, walletAccountExists } from '../../store/wallets.js'
import type { ActivityContext } from '../../activityContext.js'
import { namingFields } from '../../fieldNames.js'

/** One derived account, ready to store (private key in memory for this request only). */
export type DerivedWalletAccount = {
  params: WalletAccountParams
  pathNorm: string
  address: string
  publicKey: string
  privateKey: Uint8Array
}

/**
 * Derives `accounts` from `seed` (address-formats.md); every refusal names
 * `<base>.accounts[i].<field>` (curve/format mismatch, malformed path, non-hardened ed25519 path).
 */
export function deriveWalletAccounts(seed: Uint8Array, accounts: readonly WalletAccountParams[], base: string): DerivedWalletAccount[] {
  return accounts.map((a, i) =>
    namingFields(
      (f) => `${base}.accounts[${i}].${f}`,
      () => {
        const d = deriveAccount({ seed, curve: a.curve, path: a.path, addressFormat: a.addressFormat })
        return { params: a, pathNorm: formatPath(parsePath(a.path)), address: d.address, publicKey: d.publicKey, privateKey: d.privateKey }
      },
    ),
  )
}

/**
 * Refuses (409) an account `(curve, path, addressFormat)` the request repeats or, unless the wallet
 * is new (created by this activity, so it has no account to ask about), the wallet already has.
 */
async function refuseDuplicates(
  ctx: ActivityContext,
  walletId: string,
  derived: readonly DerivedWalletAccount[],
  base: string,
  newWallet: boolean,
): Promise<void> {
  const seen = new Set<string>()
  for (const [i, d] of derived.entries()) {
    const key = `${d.params.curve}|${d.pathNorm}|${d.params.addressFormat}`
    if (
      seen.has(key) ||
      (!newWallet &&
        (await walletAccountExists(ctx.tx, walletId, {
          curve: d.params.curve,
          pathNorm: d.pathNorm,
          addressFormat: d.params.addressFormat,
        })))
    ) {
      throw duplicate(`${base}.accounts[${i}]`, d)
    }
    seen.add(key)
  }
}

/** The rows of derived accounts in `walletId`, their private keys sealed. */
function accountRows(ctx: ActivityContext, orgId: string, walletId: string, derived: readonly DerivedWalletAccount[]) {
  return derived.map((d) => {
    const id = crypto.randomUUID()
    return {
      id,
      organization_id: orgId,
      wallet_id: walletId,
      curve: d.params.curve,
      path_format: d.params.pathFormat,
      path: d.params.path,
      path_norm: d.pathNorm,
      address_format: d.params.addressFormat,
      address: d.address,
      public_key: d.publicKey,
      name: d.params.name ?? null,
      private_key_enc: ctx.rt.secrets.seal(d.privateKey, sealPurpose.accountKey(id)),
      created_at: ctx.now,
    }
  })
}

/**
 * Stores derived accounts in an existing wallet: refuses (409) an account `(curve, path,
 * addressFormat)` the wallet already has or that the request repeats; private keys are sealed, then
 * wiped from memory.
 */
export async function persistWalletAccounts(
  ctx: ActivityContext,
  orgId: string,
  walletId: string,
  derived: readonly DerivedWalletAccount[],
  base: string,
): Promise<void> {
  await refuseDuplicates(ctx, walletId, derived, base, false)
  for (const [i, row] of accountRows(ctx, orgId, walletId, derived).entries()) {
    await insertWalletAccounts(ctx.tx, [row]).catch((e: unknown) => {
      // A concurrent activity stored the same account first: still a 409, never a 500.
      if ((e as { code?: unknown } | null)?.code === '23505') throw duplicate(`${base}.accounts[${i}]`, derived[i] as DerivedWalletAccount)
      throw e
    })
  }
  wipe(derived)
}

function duplicate(field: string, d: DerivedWalletAccount): SigilError {
  const description = `the wallet already has an account with path ${d.params.path} and ${d.params.addressFormat}`
  return fieldError('ALREADY_EXISTS', field, description)
}

/** Zeroes the derived private keys. */
export function wipe(derived: readonly DerivedWalletAccount[]): void {
  for (const d of derived) d.privateKey.fill(0)
}

/**
 * Stores a wallet for `mnemonic` (sealed, purpose `wallet-mnemonic:<walletId>`) with its accounts;
 * returns the wire result `{walletId, addresses}`. Field errors name `<base>.…`.
 */
export async function storeWallet(
  ctx: ActivityContext,
  orgId: string,
  w: { walletName: string; mnemonic: string; imported: boolean; accounts: readonly WalletAccountParams[] },
  base: string,
): Promise<{ walletId: string; addresses: string[] }> {
  const seed = await mnemonicToSeed(w.mnemonic)
  let derived: DerivedWalletAccount[]
  try {
    derived = deriveWalletAccounts(seed, w.accounts, base)
  } finally {
    seed.fill(0)
  }
  const walletId = crypto.randomUUID()
  try {
    await refuseDuplicates(ctx, walletId, derived, base, true)
    // The new wallet and its accounts only insert: held back and sent with the next statement
    // (Transaction.defer), the accounts in one.
    const inserts = deferring(ctx.tx)
    await insertWallet(inserts, {
      id: walletId,
      organization_id: orgId,
      name: w.walletName,
      mnemonic_enc: ctx.rt.secrets.seal(utf8Encode(w.mnemonic), sealPurpose.mnemonic(walletId)),
      imported: w.imported,
      created_at: ctx.now,
    })
    await insertWalletAccounts(inserts, accountRows(ctx, orgId, walletId, derived))
  } finally {
    wipe(derived)
  }
  return { walletId, addresses: derived.map((d) => d.address) }
}

/** Creates a wallet with a fresh mnemonic in `orgId` (create_wallet, create_sub_organization `wallet`). */
export const createWalletIn = async (
  ctx: ActivityContext,
  orgId: string,
  wallet: WalletParams,
  field: string,
): Promise<{ walletId: string; addresses: string[] }> => {
  const mnemonic = namingFields(
    (f) => `${field}.${f}`,
    () => generateMnemonic((wallet.mnemonicLength ?? 12) as MnemonicLength),
  )
  return storeWallet(ctx, orgId, { walletName: wallet.walletName, mnemonic, imported: false, accounts: wallet.accounts }, field)
}
