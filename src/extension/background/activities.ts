/**
 * Activity history and votes (issue 7; wire-formats A2): list_activities with status, and
 * approve_activity / reject_activity by fingerprint for activities in CONSENSUS_NEEDED.
 */
import type { SigilClient } from '../../api/client'
import type { Activity } from '../../api/common'
import { activityStatusText, activityTitle } from './activityText'
import type { ActiveSession } from './core'

/** An activity as the popup shows it. */
export type ActivityView = {
  id: string
  type: string
  /** What happened, in words (activityText.ts). */
  title: string
  status: string
  /** The status in words. */
  statusText: string
  fingerprint: string
  canApprove: boolean
  canReject: boolean
  createdAtMs: number
  failure?: string
}

function ms(t: Activity['createdAt']): number {
  return typeof t === 'string' ? Number(t) : Number(t.seconds) * 1000 + Math.floor(Number(t.nanos) / 1e6)
}

/** Map a wire activity to {@link ActivityView}. */
export function activityView(a: Activity): ActivityView {
  return {
    id: a.id,
    type: a.type,
    title: activityTitle(a),
    status: a.status,
    statusText: activityStatusText(a.status),
    fingerprint: a.fingerprint,
    canApprove: a.canApprove,
    canReject: a.canReject,
    createdAtMs: ms(a.createdAt),
    ...(a.failure ? { failure: a.failure.message } : {}),
  }
}

/** The latest activities of the session's organization, newest first. */
export async function listActivities(client: SigilClient, session: ActiveSession): Promise<{ activities: ActivityView[] }> {
  const { activities } = await client.listActivities({
    organizationId: session.record.organizationId,
    paginationOptions: { limit: '50' },
  })
  return { activities: activities.map(activityView).sort((a, b) => b.createdAtMs - a.createdAtMs) }
}

/** Vote on an activity by fingerprint; returns the activity after the vote. */
export async function vote(
  client: SigilClient,
  session: ActiveSession,
  p: { fingerprint: string; approve: boolean },
): Promise<ActivityView> {
  const input = { organizationId: session.record.organizationId, fingerprint: p.fingerprint }
  const res = p.approve ? await client.approveActivity(input) : await client.rejectActivity(input)
  return activityView(res.activity)
}
