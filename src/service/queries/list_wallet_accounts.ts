import { invalidField } from '../../api/errors.js'
import { requireWallet } from '../activities/shared/walletLookup.js'
import type { QueryHandler } from '../http/dispatch.js'
import type { Sql } from '../store/sql.js'
import { type WalletRow, getWallet, getWalletAccountById, listWalletAccounts, walletAccountToWire } from '../store/wallets.js'

type Request = {
  walletId?: string
  includeWalletDetails?: boolean
  paginationOptions?: { limit?: string; before?: string; after?: string }
}

async function cursorSeq(sql: Sql, orgId: string, id: string | undefined, field: string): Promise<number | undefined> {
  if (id === undefined || id === '') return undefined
  const row = await getWalletAccountById(sql, orgId, id)
  if (!row) throw invalidField(field, 'no wallet account with this id in the organization')
  return Number(row.seq)
}

/**
 * list_wallet_accounts (wire-formats B4 getWalletAccounts, B6 paging): accounts in creation order,
 * optionally of one wallet; `paginationOptions.after`/`before` are walletAccountIds (exclusive),
 * `limit` 1–100 (default 10); `includeWalletDetails` adds `walletDetails`.
 *
 * @throws NOT_FOUND when walletId names no wallet of the organization
 * @throws INVALID_ARGUMENT when paginationOptions.after or paginationOptions.before names no wallet account of the organization
 */
export const handler: QueryHandler<Request> = async ({ sql, organizationId }, req) => {
  if (req.walletId !== undefined) await requireWallet(sql, organizationId, req.walletId, 'walletId')
  const page = req.paginationOptions
  const rows = await listWalletAccounts(sql, {
    organizationId,
    walletId: req.walletId,
    limit: Number(page?.limit ?? 10),
    afterSeq: await cursorSeq(sql, organizationId, page?.after, 'paginationOptions.after'),
    beforeSeq: await cursorSeq(sql, organizationId, page?.before, 'paginationOptions.before'),
  })
  const wallets = new Map<string, WalletRow | undefined>()
  const accounts = []
  for (const a of rows) {
    let wallet: WalletRow | undefined
    if (req.includeWalletDetails) {
      if (!wallets.has(a.wallet_id)) wallets.set(a.wallet_id, await getWallet(sql, organizationId, a.wallet_id))
      wallet = wallets.get(a.wallet_id)
    }
    accounts.push(walletAccountToWire(a, wallet))
  }
  return { accounts }
}
