/**
 * The accounts a user chose in a connect window, checked against what that window offered: only
 * the user's own addresses of the request's family, each once. A choice for any other request, an
 * address the window did not offer (another family, someone else's, a hidden account) or an empty
 * choice is refused with INVALID_ARGUMENT naming the `accounts` field; nothing is granted then.
 */
import type { ApprovalView } from '../../protocol/approvalView'
import { ExtensionError } from '../failures'

const refuse = (message: string) => new ExtensionError('INVALID_ARGUMENT', `accounts: ${message}`, 'accounts')

/** True when the view asks the user to choose accounts (the connect windows). */
export function choosesAccounts(view: ApprovalView): view is Extract<ApprovalView, { kind: 'connect' | 'solanaConnect' }> {
  return view.kind === 'connect' || view.kind === 'solanaConnect'
}

/**
 * The accounts to grant for an approved `view`: `chosen` in the order given, spelled as offered;
 * without a choice, the accounts the window showed checked. Undefined for views that choose none.
 * Throws when `chosen` is not a valid choice of that window.
 */
export function chosenAccounts(view: ApprovalView, chosen: readonly string[] | undefined): string[] | undefined {
  if (!choosesAccounts(view)) {
    if (chosen !== undefined) throw refuse('this request does not choose accounts')
    return undefined
  }
  if (chosen === undefined) return [...view.selected]
  if (chosen.length === 0) throw refuse('choose at least one account')
  // EVM addresses compare case-insensitively (checksums); Solana's base58 is case-sensitive.
  const key = view.kind === 'connect' ? (a: string) => a.toLowerCase() : (a: string) => a
  const offered = new Map(view.accounts.map((o) => [key(o.address), o.address]))
  const out: string[] = []
  for (const address of chosen) {
    const mine = offered.get(key(address))
    if (mine === undefined) throw refuse(`${address} is not one of the accounts this request offered`)
    if (out.includes(mine)) throw refuse(`${address} is chosen twice`)
    out.push(mine)
  }
  return out
}
