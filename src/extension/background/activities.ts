/**
 * Activity history and votes (issue 7; wire-formats A2): list_activities with status, and
 * approve_activity / reject_activity by fingerprint for activities in CONSENSUS_NEEDED.
 */
import type { SigilClient } from '../../api/client'
import type { Activity } from '../../api/common'
import { siteName } from './activitySites'
import { activityStatusText, activityTitle } from './activityText'
import type { ActiveSession } from './core'

/** An activity as the popup shows it. */
export type ActivityView = {
  id: string
  type: string
  /** What happened, in words (activityText.ts). */
  title: string
  /** The dApp that asked for it, when one did. */
  origin?: string
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

/** Map a wire activity to {@link ActivityView}; `sites` names the dApps that asked for activities (activitySites.ts). */
export function activityView(a: Activity, sites?: ReadonlyMap<string, string>): ActivityView {
  const origin = sites?.get(a.id)
  return {
    id: a.id,
    type: a.type,
    title: activityTitle(a, origin === undefined ? undefined : siteName(origin)),
    ...(origin !== undefined ? { origin } : {}),
    status: a.status,
    statusText: activityStatusText(a.status),
    fingerprint: a.fingerprint,
    canApprove: a.canApprove,
    canReject: a.canReject,
    createdAtMs: ms(a.createdAt),
    ...(a.failure ? { failure: a.failure.message } : {}),
  }
}

/** The latest activities of the session's organization, newest first, each with the site that asked for it (`sites`). */
export async function listActivities(
  client: SigilClient,
  session: ActiveSession,
  sites?: ReadonlyMap<string, string>,
): Promise<{ activities: ActivityView[] }> {
  const { activities } = await client.listActivities({
    organizationId: session.record.organizationId,
    paginationOptions: { limit: '50' },
  })
  return { activities: activities.map((a) => activityView(a, sites)).sort((a, b) => b.createdAtMs - a.createdAtMs) }
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
