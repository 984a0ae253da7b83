/**
 * "Balance changes" at the top of a transaction's approval: what the user sends and receives per
 * asset and the spending rights granted, as simulated against the network's node before the
 * window opened (background/dapp/evm/assetChanges.ts). When the node could not simulate, it says
 * so and why, and claims nothing.
 */
import type { ApprovalGrantView, AssetChangeView, BalanceChangesView } from '../protocol/approvalView'
import { Monogram } from '../popup/Identicon'
import { shortAddress } from './format'

function ChangeRow({ change }: { change: AssetChangeView }) {
  const send = change.direction === 'send'
  return (
    <li class={`balance-change ${send ? 'out' : 'in'}`} data-testid="balance-change">
      <Monogram symbol={change.symbol} id={change.assetId} size={24} />
      <span class="balance-change-label">{send ? 'You send' : 'You receive'}</span>
      <strong class="balance-change-amount" data-testid="balance-change-amount">
        {send ? '−' : '+'}
        {change.amount}
      </strong>
    </li>
  )
}

function GrantRow({ grant }: { grant: ApprovalGrantView }) {
  return (
    <li class={`balance-grant${grant.revoke ? ' revoke' : ''}`} data-testid="balance-approval">
      <Monogram symbol={grant.symbol} id={grant.assetId} size={24} />
      <span class="balance-grant-text">
        {grant.revoke ? 'Removes the right of ' : 'Lets '}
        <code title={grant.spender}>{shortAddress(grant.spender)}</code>
        {grant.revoke ? ' to spend ' : ' spend '}
        <strong data-testid="balance-approval-what">{grant.what}</strong>
      </span>
    </li>
  )
}

/** The balance changes block; nothing when the request was not simulated. */
export function BalanceChanges({ changes }: { changes: BalanceChangesView | undefined }) {
  if (changes === undefined) return null
  return (
    <section class="balance-changes" data-testid="balance-changes" aria-labelledby="balance-changes-title">
      <h3 id="balance-changes-title">Balance changes</h3>
      {changes.status === 'unknown' ? (
        <p class="hint" data-testid="balance-changes-unknown">
          Could not simulate: {changes.reason}. Sigil cannot say what this changes in your balances.
        </p>
      ) : (
        <>
          {changes.changes.length === 0 ? (
            <p class="hint" data-testid="balance-changes-none">
              No change to your balances (besides the network fee).
            </p>
          ) : (
            <ul class="balance-list" aria-label="Balance changes">
              {changes.changes.map((c, i) => (
                <ChangeRow key={`${i}-${c.assetId}`} change={c} />
              ))}
            </ul>
          )}
          {changes.approvals.length > 0 && (
            <>
              <h4>Approvals granted</h4>
              <ul class="balance-list" aria-label="Approvals granted">
                {changes.approvals.map((g, i) => (
                  <GrantRow key={`${i}-${g.assetId}-${g.spender}`} grant={g} />
                ))}
              </ul>
            </>
          )}
          <p class="hint balance-source">Simulated on the network just now; the result can differ if the chain changes first.</p>
        </>
      )}
    </section>
  )
}
