/**
 * Activity history and votes (wire-formats A2): list_activities with status, and
 * approve_activity / reject_activity by fingerprint for activities in CONSENSUS_NEEDED. Policies:
 * a denial reads "Denied by policy 'name'", an activity waiting for approvals
 * says who must approve, and one whose policies name the logged-in user waits for their vote.
 */
import type { SigilClient } from '../../../api/client'
import type { Activity, PolicyEvaluationRecord } from '../../../api/common'
import { siteName } from './activitySites'
import { type AccountNames, activityStatusText, activityTitle } from './activityText'
import type { ActiveSession } from '../core'
import { deniedByPolicyText, isPolicyDenied, type WaitingFacts, waitingFor } from './policyText'
import { readSend, sendOf, type SendView, sendStateText } from './sendState'

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
  /** Who the activity waits for, in words (CONSENSUS_NEEDED only). */
  waitingFor?: string
  /** The send a completed send activity started; its state is the activity's status. */
  send?: SendView
}

function ms(t: Activity['createdAt']): number {
  return typeof t === 'string' ? Number(t) : Number(t.seconds) * 1000 + Math.floor(Number(t.nanos) / 1e6)
}

/**
 * Map a wire activity to {@link ActivityView}; `sites` names the dApps that asked for activities
 * (activitySites.ts), `names` the user's accounts (wallet/accountBook.ts).
 */
export function activityView(a: Activity, sites?: ReadonlyMap<string, string>, names?: AccountNames): ActivityView {
  const origin = sites?.get(a.id)
  return {
    id: a.id,
    type: a.type,
    title: activityTitle(a, origin === undefined ? undefined : siteName(origin), names),
    ...(origin !== undefined ? { origin } : {}),
    status: a.status,
    statusText: activityStatusText(a.status),
    fingerprint: a.fingerprint,
    canApprove: a.canApprove,
    canReject: a.canReject,
    createdAtMs: ms(a.createdAt),
    ...(a.failure ? { failure: isPolicyDenied(a.failure) ? deniedByPolicyText(a.failure.message) : a.failure.message } : {}),
  }
}

const WAITING = 'ACTIVITY_STATUS_CONSENSUS_NEEDED'

/** A read the logged-in user may not be allowed (or able) to make: undefined instead of a failure. */
async function maybe<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read()
  } catch {
    return undefined
  }
}

/**
 * Says who each waiting activity waits for, and lets the logged-in user vote on one whose waiting
 * policies name them (the service's `canApprove` covers the root quorum only). Reads the policies,
 * users and each waiting activity's evaluations only when something waits.
 */
async function withWaiting(client: SigilClient, session: ActiveSession, activities: Activity[], views: ActivityView[]) {
  const waiting = activities.filter((a) => a.status === WAITING)
  if (waiting.length === 0) return views
  const organizationId = session.record.organizationId
  const [policies, users, evaluations] = await Promise.all([
    maybe(() => client.listPolicies({ organizationId })),
    maybe(() => client.listUsers({ organizationId })),
    Promise.all(
      waiting.map((a) =>
        maybe(() => client.getPolicyEvaluations({ organizationId, activityId: a.id })).then((r): [string, PolicyEvaluationRecord[]] => [
          a.id,
          r?.policyEvaluations ?? [],
        ]),
      ),
    ),
  ])
  const me = session.record.userId
  const facts: WaitingFacts = {
    me,
    ...(policies ? { policies: policies.policies } : {}),
    ...(users ? { userNames: new Map(users.users.map((u) => [u.userId, u.userName])) } : {}),
  }
  const byId = new Map(evaluations)
  return views.map((v, i) => {
    const a = activities[i] as Activity
    if (a.status !== WAITING) return v
    const w = waitingFor(byId.get(a.id) ?? [], facts)
    const named = w.userIds.includes(me) && !a.votes.some((x) => x.userId === me)
    return { ...v, waitingFor: w.text, canApprove: v.canApprove || named, canReject: v.canReject || named }
  })
}

/** The latest activities of the session's organization, newest first, each with the site that asked for it (`sites`) and account names (`names`). */
export async function listActivities(
  client: SigilClient,
  session: ActiveSession,
  sites?: ReadonlyMap<string, string>,
  names?: AccountNames,
): Promise<{ activities: ActivityView[] }> {
  const { activities } = await client.listActivities({
    organizationId: session.record.organizationId,
    paginationOptions: { limit: '50' },
  })
  const views = await withWaiting(
    client,
    session,
    activities,
    activities.map((a) => activityView(a, sites, names)),
  )
  const withSends = await Promise.all(
    views.map(async (v, i) => {
      const started = (activities[i] as Activity).status === 'ACTIVITY_STATUS_COMPLETED' ? sendOf(activities[i] as Activity) : undefined
      if (!started) return v
      const send = await readSend(client, session.record.organizationId, started)
      return { ...v, send, statusText: sendStateText(send.state), ...(send.reason ? { failure: send.reason } : {}) }
    }),
  )
  return { activities: withSends.sort((a, b) => b.createdAtMs - a.createdAtMs) }
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
