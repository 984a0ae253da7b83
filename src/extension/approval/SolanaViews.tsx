/**
 * The approval window's Solana bodies (Wallet Standard requests): the accounts to connect (a picker), or a
 * transaction's decoded instructions (System transfers with from, to and the SOL amount), its fee
 * payer, network and warnings. Messages use the shared message view.
 */
import type { ApprovalView } from '../protocol/approvalView'
import { Account, Rows, Warnings } from './parts'
import { AccountPicker } from './AccountPicker'
import { BalanceChanges } from './BalanceChanges'

type SolanaView = Extract<ApprovalView, { kind: 'solanaConnect' | 'solanaTransaction' }>

/** The body of a Solana approval. */
export function SolanaViewBody({
  view,
  choice,
}: {
  view: SolanaView
  /** The accounts checked in a connect window and how to change them (absent: those the view preselects, unchangeable). */
  choice?: { checked: ReadonlySet<string>; onChange(next: Set<string>): void }
}) {
  if (view.kind === 'solanaConnect') {
    return (
      <>
        <AccountPicker
          accounts={view.accounts}
          checked={choice?.checked ?? new Set(view.selected)}
          onChange={choice?.onChange ?? (() => {})}
          family="Solana"
        />
        <p class="hint">
          The site will see the Solana accounts you check
          {view.networks.length > 0 ? ` (networks: ${view.networks.join(', ')})` : ''}. It can ask for signatures; each one needs your
          approval here.
        </p>
      </>
    )
  }
  return (
    <>
      <Account address={view.address} />
      <Warnings warnings={view.warnings} />
      <BalanceChanges changes={view.balanceChanges} />
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
