/**
 * The user's accounts a site may be given, by chain family: the organization's named accounts
 * (wallet/accountBook.ts) of that family with a well-formed address, hidden ones left out, in
 * display order. The connect windows offer these; the popup's Sites screen chooses among them.
 */
import type { SigilClient } from '../../../api/client'
import type { AccountOption } from '../../protocol/approvalView'
import type { ActiveSession } from '../core'
import type { StorageAreaLike } from '../storage/storageArea'
import { accountNameMap, namedAccounts, nameOf, type NamedAccount } from '../wallet/accountBook'
import { base58 } from '@scure/base'

/** The chain families a site is granted accounts of. */
export type SiteFamily = 'evm' | 'solana'

const FORMAT: Record<SiteFamily, string> = { evm: 'ADDRESS_FORMAT_ETHEREUM', solana: 'ADDRESS_FORMAT_SOLANA' }

/** True when `address` is a usable address of `family` (EVM: 20-byte hex; Solana: a 32-byte base58 key). */
export function wellFormed(family: SiteFamily, address: string): boolean {
  if (family === 'evm') return /^0x[0-9a-fA-F]{40}$/.test(address)
  try {
    return base58.decode(address).length === 32
  } catch {
    return false
  }
}

/** The comparison key of an address: EVM case-insensitively (checksums), Solana exactly. */
export function addressKey(family: SiteFamily, address: string): string {
  return family === 'evm' ? address.toLowerCase() : address
}

/**
 * The visible accounts of `family` among `accounts`, as offered to a site. Imported private keys are
 * not offered: a site's sends go through the service's send activities, which take wallet accounts only.
 */
export function optionsOf(accounts: NamedAccount[], family: SiteFamily): AccountOption[] {
  return accounts
    .filter((a) => a.addressFormat === FORMAT[family] && a.kind === 'derived' && !a.hidden && wellFormed(family, a.address))
    .map((a) => ({ address: a.address, name: a.name }))
}

/** Every named account of the session's organization (hidden ones too, for labels). */
export function sessionAccounts(client: SigilClient, session: ActiveSession, local: StorageAreaLike): Promise<NamedAccount[]> {
  return namedAccounts(client, session, local)
}

/** `addresses` labelled with the user's names (an address without one shows as itself). */
export function labelled(accounts: NamedAccount[], addresses: readonly string[]): AccountOption[] {
  const names = accountNameMap(accounts)
  return addresses.map((address) => ({ address, name: nameOf(names, address) ?? address }))
}
