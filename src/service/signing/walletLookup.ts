import { type SigilError, fieldError } from '../../api/errors.js'
import { utf8Decode } from '../../crypto/encoding.js'
import type { Runtime } from '../runtime.js'
import type { Sql } from '../store/sql.js'
import { type WalletAccountRow, type WalletRow, findAccountByAddress, getWallet, sealPurpose } from '../store/wallets.js'

function notFound(field: string, description: string): SigilError {
  return fieldError('NOT_FOUND', field, description)
}

/** The organization's wallet, or a 404 naming `field` (service-interface "Errors"). */
export async function requireWallet(sql: Sql, orgId: string, walletId: string, field: string): Promise<WalletRow> {
  const wallet = await getWallet(sql, orgId, walletId)
  if (!wallet) throw notFound(field, 'no such wallet in the organization')
  return wallet
}

/** The organization's account with `address`, or a 404 naming `field` (e.g. `parameters.signWith`). */
export async function requireAccount(sql: Sql, orgId: string, address: string, field: string): Promise<WalletAccountRow> {
  const account = await findAccountByAddress(sql, orgId, address)
  if (!account) throw notFound(field, 'no wallet account with this address in the organization')
  return account
}

/** The account's private key, opened for this request only: the caller wipes it. */
export function openAccountKey(rt: Pick<Runtime, 'secrets'>, account: WalletAccountRow): Uint8Array {
  return rt.secrets.open(account.private_key_enc, sealPurpose.accountKey(account.id))
}

/** The wallet's mnemonic, opened for this request only. */
export function openMnemonic(rt: Pick<Runtime, 'secrets'>, wallet: WalletRow): string {
  const bytes = rt.secrets.open(wallet.mnemonic_enc, sealPurpose.mnemonic(wallet.id))
  try {
    return utf8Decode(bytes)
  } finally {
    bytes.fill(0)
  }
}
