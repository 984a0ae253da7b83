/** Wallets and accounts: list_wallets + paged list_wallet_accounts (wire-formats B6 fetchWallets). */
import type { SigilClient } from '../../../api/client'
import type { AddressFormat } from '../../../api/enums'
import type { ActiveSession } from '../core'

/** One account as the popup shows it. */
export type AccountView = { walletAccountId: string; address: string; addressFormat: AddressFormat; path: string; curve: string }
/** One wallet with its accounts. */
export type WalletView = { walletId: string; walletName: string; accounts: AccountView[] }

async function accountsOf(client: SigilClient, organizationId: string, walletId: string): Promise<AccountView[]> {
  const out: AccountView[] = []
  let after: string | undefined
  for (let page = 0; page < 50; page++) {
    const { accounts } = await client.listWalletAccounts({
      organizationId,
      walletId,
      paginationOptions: after === undefined ? { limit: '100' } : { limit: '100', after },
    })
    for (const a of accounts) {
      out.push({ walletAccountId: a.walletAccountId, address: a.address, addressFormat: a.addressFormat, path: a.path, curve: a.curve })
    }
    const last = accounts[accounts.length - 1]
    if (accounts.length < 100 || !last) break
    after = last.walletAccountId
  }
  return out
}

/** Every wallet of the session's organization with all its accounts. */
export async function listAccounts(client: SigilClient, session: ActiveSession): Promise<{ wallets: WalletView[] }> {
  const { organizationId } = session.record
  const { wallets } = await client.listWallets({ organizationId })
  const views: WalletView[] = []
  for (const w of wallets) {
    views.push({ walletId: w.walletId, walletName: w.walletName, accounts: await accountsOf(client, organizationId, w.walletId) })
  }
  return { wallets: views }
}
