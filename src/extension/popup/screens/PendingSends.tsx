/**
 * The account's sends on one network that are not on chain: pending, or failed or replaced before
 * reaching a block, with the reason in words. Read from the same list as Activity
 * (listActivities, each send activity with its send's state), so the two agree. A pending EVM send
 * can be sped up or cancelled: the review shows the replacement's most fee before the user confirms.
 * A Solana send cannot be replaced: it lands or its blockhash expires.
 */
import { useState } from 'preact/hooks'
import type { PopupApi } from '../../protocol/popupApi'
import type { PopupClient } from '../client'
import { Busy, ErrorLine } from '../ui'
import { useAction } from '../useAction'
import { useActivities } from './Activity'

type ActivityView = PopupApi['listActivities']['result']['activities'][number]
type Review = PopupApi['replaceReview']['result']
type Kind = Review['kind']

const STATE_TEXT = { pending: 'Pending', failed: 'Failed', replaced: 'Replaced', confirmed: 'Confirmed' } as const

/** Props of {@link PendingSends}. */
export type PendingSendsProps = { caip2: string; address: string; client: PopupClient; onSessionLost(): void }

/** Sends of `address` on `caip2` not on chain, with Speed up and Cancel for pending EVM sends. */
export function PendingSends({ caip2, address, client, onSessionLost }: PendingSendsProps) {
  const [review, setReview] = useState<(Review & { id: string }) | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const load = useAction(onSessionLost)
  const act = useAction(onSessionLost)
  const same = (a: string) => (caip2.startsWith('eip155:') ? a.toLowerCase() === address.toLowerCase() : a === address)
  const { items, refresh } = useActivities(client, load)
  const sends = (items ?? []).filter(
    (a) =>
      a.send &&
      a.send.caip2 === caip2 &&
      same(a.send.from) &&
      (a.send.state === 'pending' || a.send.state === 'replaced' || (a.send.state === 'failed' && !a.send.onChain)),
  )
  const startReview = (id: string, kind: Kind) => {
    setDone(null)
    void act.run(
      () => client.call('replaceReview', { sendTransactionStatusId: id, caip2, kind }),
      (r) => setReview({ ...r, id }),
    )
  }
  const confirm = () => {
    if (!review) return
    const { id, kind, maxFeePerGas, maxPriorityFeePerGas } = review
    void act.run(
      () => client.call('replaceSubmit', { sendTransactionStatusId: id, caip2, kind, maxFeePerGas, maxPriorityFeePerGas }),
      () => {
        setReview(null)
        setDone(
          kind === 'cancel'
            ? 'Cancellation sent. It replaces the pending transaction once confirmed.'
            : 'Sped up. The faster transaction replaces the pending one once confirmed.',
        )
        refresh()
      },
    )
  }
  if (review) {
    const verb = review.kind === 'cancel' ? 'Cancel' : 'Speed up'
    return (
      <section class="replace-review" aria-labelledby="replace-heading">
        <h3 id="replace-heading">{verb} this transaction</h3>
        <p>
          {review.kind === 'cancel'
            ? 'Sends nothing to your own account with the same number as the pending transaction, so the pending one cannot go through.'
            : 'Sends the same transaction again with higher fees, so the network picks it up sooner.'}
        </p>
        <dl class="fields">
          <dt>New network fee</dt>
          <dd id="replace-max-fee">{review.maxFeeText}</dd>
          <dt>Before</dt>
          <dd>{review.originalMaxFeeText}</dd>
        </dl>
        <div class="row">
          <button type="button" class="primary" disabled={act.busy} onClick={confirm}>
            Confirm {verb.toLowerCase()}
          </button>
          <button type="button" disabled={act.busy} onClick={() => setReview(null)}>
            Back
          </button>
        </div>
        <Busy busy={act.busy} label="Sending the replacement…" />
        <ErrorLine error={act.error} />
      </section>
    )
  }
  return (
    <section class="pending-sends" aria-labelledby="pending-sends-heading">
      <div class="row spread">
        <h3 id="pending-sends-heading">Not on chain yet</h3>
        <button type="button" onClick={refresh} disabled={load.busy} aria-label="Refresh pending sends">
          Refresh
        </button>
      </div>
      <Busy busy={load.busy} label="Loading pending sends…" />
      <ErrorLine error={load.error} />
      {items && sends.length === 0 && <p class="hint">No pending or failed sends.</p>}
      {done && (
        <p class="hint" role="status">
          {done}
        </p>
      )}
      <ErrorLine error={act.error} />
      <ul class="history" aria-label="Pending and failed sends">
        {sends.map((a) => {
          const send = a.send as NonNullable<ActivityView['send']>
          return (
            <li key={a.id} data-send-id={send.id} data-send-state={send.state}>
              <span class="activity-text">
                <span class="activity-title">{a.title}</span>
                {send.reason && <span class={send.state === 'failed' ? 'error' : 'hint'}>{send.reason}</span>}
                {send.state === 'pending' && send.family === 'solana' && (
                  <span class="hint">Waiting for the network; it expires if no block includes it within about a minute.</span>
                )}
                {send.state === 'pending' && send.family === 'evm' && (
                  <span class="row">
                    <button
                      type="button"
                      disabled={act.busy}
                      onClick={() => startReview(send.id, 'speedUp')}
                      aria-label={`Speed up: ${a.title}`}
                    >
                      Speed up
                    </button>
                    <button
                      type="button"
                      disabled={act.busy}
                      onClick={() => startReview(send.id, 'cancel')}
                      aria-label={`Cancel: ${a.title}`}
                    >
                      Cancel
                    </button>
                  </span>
                )}
              </span>
              <span class={`badge send-${send.state}`}>{STATE_TEXT[send.state]}</span>
            </li>
          )
        })}
      </ul>
    </section>
  )
}
