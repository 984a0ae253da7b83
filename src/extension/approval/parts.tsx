/** The pieces every approval body is made of: field rows, warnings, the account that acts. */
import type { FieldRow } from '../protocol/approvalView'

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

export function Account({ address }: { address: string }) {
  return (
    <p>
      <span class="label">Account</span>
      <br />
      <code class="address" data-testid="approval-account">
        {address}
      </code>
    </p>
  )
}
