/**
 * Pending approvals (CONSENSUS_NEEDED, canApprove: the root quorum, or a user the waiting policies
 * name) with approve/reject, and the activity history; an activity waiting for approvals says who
 * must approve, a denied one "Denied by policy 'name'" (background/activity/activities.ts). A send's
 * status is its send's: Pending, Confirmed, Failed (with the reason) or Replaced.
 */
import { useCallback, useEffect, useState } from 'preact/hooks'
import type { PopupApi } from '../../protocol/popupApi'
import type { PopupClient } from '../client'
import { Busy, ErrorLine } from '../ui'
import { useAction } from '../useAction'

type ActivityView = PopupApi['listActivities']['result']['activities'][number]

const when = (ms: number) => new Date(ms).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' })

function Pending({
  activity,
  client,
  onDone,
  onSessionLost,
}: {
  activity: ActivityView
  client: PopupClient
  onDone(): void
  onSessionLost(): void
}) {
  const action = useAction(onSessionLost)
  const label = activity.title
  const voteOn = (approve: boolean) =>
    void action.run(() => client.call(approve ? 'approveActivity' : 'rejectActivity', { fingerprint: activity.fingerprint }), onDone)
  return (
    <li class="pending" data-activity-id={activity.id}>
      <strong>{label}</strong>
      <span class="hint">{when(activity.createdAtMs)}</span>
      {activity.waitingFor && <span class="hint waiting-for">{activity.waitingFor}</span>}
      <div class="row">
        <button
          type="button"
          class="primary"
          disabled={action.busy || !activity.canApprove}
          onClick={() => voteOn(true)}
          aria-label={`Approve ${label}`}
        >
          Approve
        </button>
        <button type="button" disabled={action.busy || !activity.canReject} onClick={() => voteOn(false)} aria-label={`Reject ${label}`}>
          Reject
        </button>
      </div>
      <Busy busy={action.busy} label="Sending your vote…" />
      <ErrorLine error={action.error} />
    </li>
  )
}

/** Props of {@link Activity}. */
export type ActivityProps = { client: PopupClient; onSessionLost(): void }

/** The organization's activities (listActivities), read through `load` at once and on each `refresh`. */
export function useActivities(client: PopupClient, load: ReturnType<typeof useAction>) {
  const [items, setItems] = useState<ActivityView[] | null>(null)
  const { run } = load
  const refresh = useCallback(
    () =>
      void run(
        () => client.call('listActivities'),
        (r) => setItems(r.activities),
      ),
    [client, run],
  )
  useEffect(refresh, [refresh])
  return { items, refresh }
}

/** The activity screen. */
export function Activity({ client, onSessionLost }: ActivityProps) {
  const load = useAction(onSessionLost)
  const { items, refresh } = useActivities(client, load)
  const pending = (items ?? []).filter((a) => a.status === 'ACTIVITY_STATUS_CONSENSUS_NEEDED' && a.canApprove)
  return (
    <section aria-labelledby="activity-heading">
      <div class="row spread">
        <h2 id="activity-heading">Activity</h2>
        <button type="button" onClick={refresh} disabled={load.busy}>
          Refresh
        </button>
      </div>
      <Busy busy={load.busy} label="Loading activity…" />
      <ErrorLine error={load.error} />
      <h3 id="pending-heading">Waiting for your approval</h3>
      {items && pending.length === 0 && <p class="hint">Nothing to approve.</p>}
      <ul class="pending-list" aria-labelledby="pending-heading">
        {pending.map((a) => (
          <Pending key={a.id} activity={a} client={client} onDone={refresh} onSessionLost={onSessionLost} />
        ))}
      </ul>
      <h3 id="history-heading">History</h3>
      <ul class="history" aria-labelledby="history-heading">
        {(items ?? []).map((a) => (
          <li key={a.id} data-activity-id={a.id} data-status={a.status} {...(a.send ? { 'data-send-state': a.send.state } : {})}>
            <span class="activity-text">
              <span class="activity-title">{a.title}</span>
              <time class="hint" dateTime={new Date(a.createdAtMs).toISOString()}>
                {when(a.createdAtMs)}
              </time>
              {a.waitingFor && <span class="hint waiting-for">{a.waitingFor}</span>}
              {a.failure && <span class={a.send?.state === 'replaced' ? 'hint' : 'error'}>{a.failure}</span>}
            </span>
            <span class={`badge ${a.send ? `send-${a.send.state}` : a.status.toLowerCase()}`}>{a.statusText}</span>
          </li>
        ))}
      </ul>
    </section>
  )
}
