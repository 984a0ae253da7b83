/**
 * Wallets, wallet accounts and wallet import keys (migration 002; wire-formats B4 list_wallets,
 * list_wallet_accounts). Sealed columns hold ciphertext only; this file never opens them.
 */
import { type PageOptions, readPage } from './page.js'
import type { Sql } from './sql.js'
import { toTimestamp } from './time.js'

export type WalletRow = {
  seq: number
  id: string
  organization_id: string
  name: string
  mnemonic_enc: string
  imported: boolean
  exported: boolean
  created_at: number
  updated_at: number
}

export type WalletAccountRow = {
  seq: number
  id: string
  organization_id: string
  wallet_id: string
  curve: string
  path_format: string
  path: string
  path_norm: string
  address_format: string
  address: string
  public_key: string
  name: string | null
  private_key_enc: string
  created_at: number
  updated_at: number
}

export type ImportKeyRow = {
  organization_id: string
  user_id: string
  public_key: string
  private_key_enc: string
  created_at: number
}

/** Purpose strings of the sealed columns (AAD of `rt.secrets.seal`). */
export const sealPurpose = {
  mnemonic: (walletId: string) => `wallet-mnemonic:${walletId}`,
  accountKey: (accountId: string) => `wallet-account-key:${accountId}`,
  importKey: (orgId: string, userId: string) => `wallet-import-key:${orgId}:${userId}`,
}

export async function insertWallet(
  sql: Sql,
  w: Pick<WalletRow, 'id' | 'organization_id' | 'name' | 'mnemonic_enc' | 'imported' | 'created_at'>,
): Promise<void> {
  await sql.query(
    `INSERT INTO wallets (id, organization_id, name, mnemonic_enc, imported, exported, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, false, $6, $6)`,
    [w.id, w.organization_id, w.name, w.mnemonic_enc, w.imported, w.created_at],
  )
}

export async function getWallet(sql: Sql, orgId: string, walletId: string): Promise<WalletRow | undefined> {
  const [row] = await sql.query<WalletRow>('SELECT * FROM wallets WHERE id = $1 AND organization_id = $2', [walletId, orgId])
  return row
}

export async function listWallets(sql: Sql, orgId: string): Promise<WalletRow[]> {
  return sql.query<WalletRow>('SELECT * FROM wallets WHERE organization_id = $1 ORDER BY seq ASC', [orgId])
}

export async function markWalletExported(sql: Sql, walletId: string, now: number): Promise<void> {
  await sql.query('UPDATE wallets SET exported = true, updated_at = $2 WHERE id = $1', [walletId, now])
}

/** Deletes a wallet; its accounts go with it (ON DELETE CASCADE). */
export async function renameWallet(sql: Sql, walletId: string, name: string, now: number): Promise<void> {
  await sql.query('UPDATE wallets SET name = $2, updated_at = $3 WHERE id = $1', [walletId, name, now])
}

export async function deleteWalletAccount(sql: Sql, accountId: string): Promise<void> {
  await sql.query('DELETE FROM wallet_accounts WHERE id = $1', [accountId])
}

export async function deleteWallet(sql: Sql, walletId: string): Promise<void> {
  await sql.query('DELETE FROM wallets WHERE id = $1', [walletId])
}

/** Accounts in one statement (one round trip however many there are). */
export async function insertWalletAccounts(sql: Sql, accounts: readonly Omit<WalletAccountRow, 'seq' | 'updated_at'>[]): Promise<void> {
  if (accounts.length === 0) return
  const params: unknown[] = []
  const rows = accounts.map((a) => {
    const at = params.length
    params.push(
      a.id,
      a.organization_id,
      a.wallet_id,
      a.curve,
      a.path_format,
      a.path,
      a.path_norm,
      a.address_format,
      a.address,
      a.public_key,
      a.name,
      a.private_key_enc,
      a.created_at,
    )
    return `(${Array.from({ length: 13 }, (_, k) => `$${at + k + 1}`).join(', ')}, $${at + 13})`
  })
  await sql.query(
    `INSERT INTO wallet_accounts (id, organization_id, wallet_id, curve, path_format, path, path_norm, address_format,
       address, public_key, name, private_key_enc, created_at, updated_at)
     VALUES ${rows.join(', ')}`,
    params,
  )
}

/** True when the wallet already has an account `(curve, canonical path, addressFormat)`. */
export async function walletAccountExists(
  sql: Sql,
  walletId: string,
  key: { curve: string; pathNorm: string; addressFormat: string },
): Promise<boolean> {
  const rows = await sql.query(
    'SELECT 1 FROM wallet_accounts WHERE wallet_id = $1 AND curve = $2 AND path_norm = $3 AND address_format = $4',
    [walletId, key.curve, key.pathNorm, key.addressFormat],
  )
  return rows.length > 0
}

/**
 * The organization's account with this address: exact match first, then a case-insensitive
 * one for hex addresses (an Ethereum address may arrive without its EIP-55 checksum).
 */
export async function findAccountByAddress(sql: Sql, orgId: string, address: string): Promise<WalletAccountRow | undefined> {
  const [exact] = await sql.query<WalletAccountRow>(
    'SELECT * FROM wallet_accounts WHERE organization_id = $1 AND address = $2 ORDER BY seq ASC LIMIT 1',
    [orgId, address],
  )
  if (exact || !/^(0x)?[0-9a-fA-F]+$/.test(address)) return exact
  const [loose] = await sql.query<WalletAccountRow>(
    'SELECT * FROM wallet_accounts WHERE organization_id = $1 AND lower(address) = lower($2) ORDER BY seq ASC LIMIT 1',
    [orgId, address],
  )
  return loose
}

/** The wallet's first account at this canonical path (`formatPath(parsePath(…))`). */
export async function findAccountByPath(sql: Sql, walletId: string, pathNorm: string): Promise<WalletAccountRow | undefined> {
  const [row] = await sql.query<WalletAccountRow>(
    'SELECT * FROM wallet_accounts WHERE wallet_id = $1 AND path_norm = $2 ORDER BY seq ASC LIMIT 1',
    [walletId, pathNorm],
  )
  return row
}

export async function getWalletAccountById(sql: Sql, orgId: string, accountId: string): Promise<WalletAccountRow | undefined> {
  const [row] = await sql.query<WalletAccountRow>('SELECT * FROM wallet_accounts WHERE id = $1 AND organization_id = $2', [
    accountId,
    orgId,
  ])
  return row
}

/**
 * A page of the organization's accounts (optionally of one wallet) in creation order;
 * `after`/`before` are walletAccountIds of the organization, see `page.ts`.
 */
export async function listWalletAccounts(
  sql: Sql,
  f: { organizationId: string; walletId?: string | undefined; page?: PageOptions | undefined },
): Promise<WalletAccountRow[]> {
  const where = ['organization_id = $1']
  const params: unknown[] = [f.organizationId]
  if (f.walletId !== undefined) {
    params.push(f.walletId)
    where.push(`wallet_id = $${params.length}`)
  }
  return readPage<WalletAccountRow>(
    sql,
    { select: 'SELECT * FROM wallet_accounts', where, params },
    {
      columns: ['seq'],
      order: 'ASC',
      noun: 'wallet account',
      keyOf: async (id) => {
        const row = await getWalletAccountById(sql, f.organizationId, id)
        return row && [Number(row.seq)]
      },
    },
    f.page,
  )
}

export async function upsertImportKey(sql: Sql, k: ImportKeyRow): Promise<void> {
  await sql.query(
    `INSERT INTO wallet_import_keys (organization_id, user_id, public_key, private_key_enc, created_at)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (organization_id, user_id)
     DO UPDATE SET public_key = EXCLUDED.public_key, private_key_enc = EXCLUDED.private_key_enc, created_at = EXCLUDED.created_at`,
    [k.organization_id, k.user_id, k.public_key, k.private_key_enc, k.created_at],
  )
}

export async function getImportKey(sql: Sql, orgId: string, userId: string): Promise<ImportKeyRow | undefined> {
  const [row] = await sql.query<ImportKeyRow>('SELECT * FROM wallet_import_keys WHERE organization_id = $1 AND user_id = $2', [
    orgId,
    userId,
  ])
  return row
}

export async function deleteImportKey(sql: Sql, orgId: string, userId: string): Promise<void> {
  await sql.query('DELETE FROM wallet_import_keys WHERE organization_id = $1 AND user_id = $2', [orgId, userId])
}

/** The wire wallet record (wire-formats B4 list_wallets). */
export function walletToWire(w: WalletRow) {
  return {
    walletId: w.id,
    walletName: w.name,
    createdAt: toTimestamp(Number(w.created_at)),
    updatedAt: toTimestamp(Number(w.updated_at)),
    exported: w.exported,
    imported: w.imported,
  }
}

/** The wire account record (wire-formats B4 list_wallet_accounts); `wallet` adds `walletDetails`. */
export function walletAccountToWire(a: WalletAccountRow, wallet?: WalletRow) {
  return {
    walletAccountId: a.id,
    organizationId: a.organization_id,
    walletId: a.wallet_id,
    curve: a.curve,
    pathFormat: a.path_format,
    path: a.path,
    addressFormat: a.address_format,
    address: a.address,
    createdAt: toTimestamp(Number(a.created_at)),
    updatedAt: toTimestamp(Number(a.updated_at)),
    publicKey: a.public_key,
    ...(a.name !== null ? { name: a.name } : {}),
    ...(wallet ? { walletDetails: walletToWire(wallet) } : {}),
  }
}
