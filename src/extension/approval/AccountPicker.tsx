/**
 * The connect window's account picker: the user's accounts of the request's family by name, as
 * checkboxes (at least one). What the user checks is sent with the answer, bound to the request's
 * id; the background grants only accounts this request offered (dapp/accountChoice.ts).
 */
import type { AccountOption } from '../protocol/approvalView'

/**
 * The accounts to send for `checked`: those the window showed checked first, in their order (so the
 * site's active account stays first), then the others in display order.
 */
export function orderedChoice(offered: readonly AccountOption[], selected: readonly string[], checked: ReadonlySet<string>): string[] {
  const first = selected.filter((a) => checked.has(a))
  const rest = offered.map((o) => o.address).filter((a) => checked.has(a) && !first.includes(a))
  return [...first, ...rest]
}

/** Props of {@link AccountPicker}. */
export type AccountPickerProps = {
  accounts: readonly AccountOption[]
  checked: ReadonlySet<string>
  onChange(next: Set<string>): void
  /** "Ethereum" or "Solana", for the legend. */
  family: string
}

/** Checkboxes of the accounts a site may see. */
export function AccountPicker({ accounts, checked, onChange, family }: AccountPickerProps) {
  const toggle = (address: string) => {
    const next = new Set(checked)
    if (next.has(address)) next.delete(address)
    else next.add(address)
    onChange(next)
  }
  return (
    <fieldset class="account-picker" data-testid="approval-account-picker">
      <legend>{family} accounts this site may see</legend>
      {accounts.map((a) => (
        <label key={a.address} class="account-choice">
          <input type="checkbox" checked={checked.has(a.address)} data-address={a.address} onChange={() => toggle(a.address)} />
          <span class="account-choice-text">
            <span class="account-choice-name">{a.name}</span>
            <code class="address" data-testid="approval-account">
              {a.address}
            </code>
          </span>
        </label>
      ))}
      {checked.size === 0 && (
        <p class="error" role="alert" data-testid="approval-account-none">
          Choose at least one account.
        </p>
      )}
    </fieldset>
  )
}
