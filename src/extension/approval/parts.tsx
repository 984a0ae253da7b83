/** The pieces every approval body is made of: field rows, warnings, the account that acts. */
import { createContext } from 'preact'
import { useContext } from 'preact/hooks'
import type { FieldRow } from '../protocol/approvalView'
import { Identicon } from '../popup/Identicon'
import { shortAddress } from './format'

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

/**
 * One of the user's addresses: its identicon, account name (when known) and shortened address,
 * with the full address one click away.
 */
export function Account({ address }: { address: string }) {
  const name = useContext(AccountNames)[address]
  return (
    <div class="approval-account">
      <span class="label">Account</span>
      <div class="approval-account-line">
        <Identicon address={address} size={28} />
        <div class="approval-account-text">
          {name !== undefined && (
            <strong class="approval-account-name" data-testid="approval-account-name">
              {name}
            </strong>
          )}
          <details class="full-address">
            <summary>
              <code class="address" title={address}>
                {shortAddress(address)}
              </code>
            </summary>
            <code class="address" data-testid="approval-account">
              {address}
            </code>
          </details>
        </div>
      </div>
    </div>
  )
}

/** Rows whose raw values few users read (hex data, selectors): folded behind "Show data". */
export function RawData({ rows, label }: { rows: FieldRow[]; label: string }) {
  if (rows.length === 0) return null
  return (
    <details class="raw-data" data-testid="approval-raw-data">
      <summary>Show data</summary>
      <Rows rows={rows} label={label} />
    </details>
  )
}
