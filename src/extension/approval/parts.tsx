/** The pieces every approval body is made of: field rows, warnings, the account that acts. */
import { createContext } from 'preact'
import { useContext } from 'preact/hooks'
import type { FieldRow } from '../protocol/approvalView'

/** The user's account names for the addresses the request shows (address → "Account 2"). */
export const AccountNames = createContext<Readonly<Record<string, string>>>({})

export function Rows({ rows, label, testId }: { rows: FieldRow[]; label: string; testId?: string }) {
  return (
    <dl class="fields" aria-label={label} data-testid={testId}>
      {rows.map(([k, v], i) => (
        <div key={`${i}-${k}`} class="field-row">
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  )
}

export function Warnings({ warnings }: { warnings: string[] }) {
  if (warnings.length === 0) return null
  return (
    <ul class="warnings" data-testid="approval-warnings" aria-label="Warnings">
      {warnings.map((w, i) => (
        <li key={`${i}-${w}`}>{w}</li>
      ))}
    </ul>
  )
}

/** One of the user's addresses: its account name (when known) above the full address. */
export function Account({ address }: { address: string }) {
  const name = useContext(AccountNames)[address]
  return (
    <p class="approval-account">
      <span class="label">Account</span>
      {name !== undefined && (
        <strong class="approval-account-name" data-testid="approval-account-name">
          {name}
        </strong>
      )}
      <code class="address" data-testid="approval-account">
        {address}
      </code>
    </p>
  )
}
