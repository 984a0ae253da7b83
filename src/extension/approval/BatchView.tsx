/**
 * The approval window's body for an EIP-5792 batch (`wallet_sendCalls`): every call in order,
 * decoded when it is a token call (its raw data beside it), the total value, who pays the gas,
 * and, before the account's first batch, that approving upgrades it to Sigil's batch executor.
 */
import type { BatchCallView, FieldRow, SendCallsView } from '../protocol/approvalView'
import { BalanceChanges } from './BalanceChanges'
import { Account, Rows, Warnings } from './parts'

/** The sentence shown when approving delegates the account (EIP-7702) for the first time. */
export const UPGRADE_TEXT =
  "This upgrades your account to Sigil's batch executor (EIP-7702). You can undo it from the wallet's home screen."

function CallSection({ call, index, count }: { call: BatchCallView; index: number; count: number }) {
  const rows: FieldRow[] = [
    ['To', call.to ?? '(a new contract: this call deploys it)'],
    ['Value', `${call.value} (${call.valueWei} wei)`],
    ...(call.selector !== null ? [['Function selector', call.selector] as FieldRow] : []),
    ['Data', call.data === '0x' ? '(none)' : call.data],
  ]
  const title = `Call ${index + 1} of ${count}`
  return (
    <section class="batch-call" data-testid="approval-batch-call" aria-label={title}>
      <h3>
        {title}
        {call.call && (
          <>
            : <code>{call.call.method}</code>
          </>
        )}
      </h3>
      {call.call && (
        <>
          <Warnings warnings={call.call.warnings} />
          <Rows rows={call.call.rows} label={`${title}, decoded`} testId="approval-batch-decoded" />
        </>
      )}
      <Rows rows={rows} label={title} />
    </section>
  )
}

/** The body of a `sendCalls` view. */
export function SendCallsBody({ view }: { view: SendCallsView }) {
  const chain = `${view.chain.name} (chain ${BigInt(view.chain.chainId).toString(10)})`
  return (
    <>
      <Account address={view.address} />
      <Warnings warnings={view.warnings} />
      <BalanceChanges changes={view.balanceChanges} />
      {view.upgrade && (
        <p class="batch-upgrade" data-testid="approval-upgrade">
          {UPGRADE_TEXT}
        </p>
      )}
      <Rows
        label="Batch"
        testId="approval-batch"
        rows={[
          ['Network', chain],
          ['Calls', String(view.calls.length)],
          ['Total value', view.total],
          ['Gas paid by', view.gasPayer === 'sponsor' ? "Sigil's sponsor" : 'You'],
        ]}
      />
      <p class="hint" data-testid="approval-batch-how">
        {view.atomic
          ? 'All calls go in one transaction: all succeed or none does.'
          : 'One transaction per call, in order: a later call can fail after earlier ones landed.'}
      </p>
      {view.calls.map((c, i) => (
        <CallSection key={`${i}-${c.to}`} call={c} index={i} count={view.calls.length} />
      ))}
      {view.gasPayer === 'you' && (
        <section class="fees" data-testid="approval-fees" aria-labelledby="approval-fees-title">
          <h3 id="approval-fees-title">Network fee (estimated; the service sets the final values)</h3>
          <Rows rows={view.fees} label="Network fee" />
        </section>
      )}
      <p class="hint">Sigil signs and sends {view.atomic ? 'this batch' : 'these transactions'} when you approve.</p>
    </>
  )
}
