/**
 * The approval window's Solana bodies (Wallet Standard requests): the account to connect, or a
 * transaction's decoded instructions (System transfers with from, to and the SOL amount), its fee
 * payer, network and warnings. Messages use the shared message view.
 */
import type { ApprovalView, FieldRow } from '../background/approvalView'

type SolanaView = Extract<ApprovalView, { kind: 'solanaConnect' | 'solanaTransaction' }>

function Rows({ rows, label, testId }: { rows: FieldRow[]; label: string; testId?: string }) {
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

function Account({ address }: { address: string }) {
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

/** The body of a Solana approval. */
export function SolanaViewBody({ view }: { view: SolanaView }) {
  if (view.kind === 'solanaConnect') {
    return (
      <>
        <Account address={view.address} />
        <p class="hint">
          The site will see this Solana address
          {view.networks.length > 0 ? ` (networks: ${view.networks.join(', ')})` : ''}. It can ask for signatures; each one needs your
          approval here.
        </p>
      </>
    )
  }
  return (
    <>
      <Account address={view.address} />
      {view.warnings.length > 0 && (
        <ul class="warnings" data-testid="approval-warnings" aria-label="Warnings">
          {view.warnings.map((w, i) => (
            <li key={`${i}-${w}`}>{w}</li>
          ))}
        </ul>
      )}
      <h2>Instructions ({view.instructions.length})</h2>
      {view.instructions.map((ix, i) => (
        <section key={`${i}-${ix.title}`} class="summary" data-testid="approval-instruction" aria-label={`Instruction ${i + 1}`}>
          <h3>
            {i + 1}. {ix.title}
          </h3>
          <Rows rows={ix.rows} label={`Instruction ${i + 1}`} />
        </section>
      ))}
      <Rows
        label="Transaction"
        testId="approval-solana-transaction"
        rows={[
          ['Fee payer', view.feePayer],
          ['Network', view.network],
          ['Version', view.version],
        ]}
      />
      <p class="hint">
        {view.send
          ? 'Sigil signs this transaction and sends it to the network.'
          : 'The signed transaction goes back to the site; Sigil does not broadcast it.'}
      </p>
    </>
  )
}
