import type { Sql } from './sql.js'
import { getQuorum } from './organizations.js'
import { type PageOptions, readPage } from './page.js'
import type { VoteEvaluation } from './policies.js'
import { CREDENTIAL_AGGREGATES, type CredentialAggregates, type UserRow, type UserWire, userWireById, userWireFromRow } from './users.js'
import { toTimestamp } from './time.js'

export type ActivityRow = {
  seq: number
  id: string
  organization_id: string
  quorum_org_id: string
  submitter_user_id: string
  submitter_org_id: string
  type: string
  status: string
  intent_key: string
  intent: Record<string, unknown>
  result_key: string
  result: Record<string, unknown> | null
  failure: { code: number; message: string; details: Array<Record<string, unknown>> } | null
  app_proofs: unknown[]
  generate_app_proofs: boolean
  fingerprint: string
  body: string
  timestamp_ms: string
  created_at: number
  updated_at: number
}

export type VoteRow = {
  id: string
  activity_id: string
  user_id: string
  selection: 'VOTE_SELECTION_APPROVED' | 'VOTE_SELECTION_REJECTED'
  message: string
  public_key: string
  signature: string
  scheme: string
  created_at: number
  /** Set when the organization's policies evaluated this vote (migration 012); its activity is then theirs to decide. */
  evaluation_id?: string | null
}

export async function getActivity(sql: Sql, id: string): Promise<ActivityRow | undefined> {
  const [row] = await sql.query<ActivityRow>('SELECT * FROM activities WHERE id = $1', [id])
  return row
}

export async function getActivityByFingerprint(sql: Sql, fingerprint: string): Promise<ActivityRow | undefined> {
  const [row] = await sql.query<ActivityRow>('SELECT * FROM activities WHERE fingerprint = $1', [fingerprint])
  return row
}

/**
 * The organization's activity with this fingerprint, its row locked until the transaction ends
 * (`FOR UPDATE`: concurrent votes on one activity run one after the other).
 */
export async function lockActivityByFingerprint(tx: Sql, orgId: string, fingerprint: string): Promise<ActivityRow | undefined> {
  const [row] = await tx.query<ActivityRow>('SELECT * FROM activities WHERE fingerprint = $1 AND organization_id = $2 FOR UPDATE', [
    fingerprint,
    orgId,
  ])
  return row
}

/** Inserts an activity and, in the same statement, the submitter's vote when there is one. */
const INSERT_ACTIVITY = `INSERT INTO activities (id, organization_id, quorum_org_id, submitter_user_id, submitter_org_id, type, status,
       intent_key, intent, result_key, result, failure, app_proofs, generate_app_proofs, fingerprint, body,
       timestamp_ms, created_at, updated_at)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19)`

function activityParams(a: Omit<ActivityRow, 'seq'>): unknown[] {
  return [
    a.id,
    a.organization_id,
    a.quorum_org_id,
    a.submitter_user_id,
    a.submitter_org_id,
    a.type,
    a.status,
    a.intent_key,
    JSON.stringify(a.intent),
    a.result_key,
    a.result === null ? null : JSON.stringify(a.result),
    a.failure === null ? null : JSON.stringify(a.failure),
    JSON.stringify(a.app_proofs),
    a.generate_app_proofs,
    a.fingerprint,
    a.body,
    a.timestamp_ms,
    a.created_at,
    a.updated_at,
  ]
}

/** The vote columns, and the evaluation's when there is one, from parameter `$20` on (after the activity's). */
function voteInsert(vote: VoteRow, evaluation: VoteEvaluation | undefined, params: unknown[]): string {
  params.push(vote.id, vote.user_id, vote.selection, vote.message, vote.public_key, vote.signature, vote.scheme, vote.created_at)
  if (!evaluation)
    return `INSERT INTO votes (id, activity_id, user_id, selection, message, public_key, signature, scheme, created_at)
     SELECT $20, a.id, $21, $22, $23, $24, $25, $26, $27 FROM a`
  params.push(evaluation.evaluation_id, evaluation.policy_set, evaluation.outcomes)
  return `INSERT INTO votes (id, activity_id, user_id, selection, message, public_key, signature, scheme, created_at, evaluation_id, policy_set, outcomes)
     SELECT $20, a.id, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30 FROM a`
}

/** Inserts an activity and, when there is one, the submitter's vote with what the policies decided for it. */
export async function insertActivity(sql: Sql, a: Omit<ActivityRow, 'seq'>, vote?: VoteRow, evaluation?: VoteEvaluation): Promise<void> {
  const params = activityParams(a)
  if (!vote) {
    await sql.query(INSERT_ACTIVITY, params)
    return
  }
  await sql.query(`WITH a AS (${INSERT_ACTIVITY} RETURNING id) ${voteInsert(vote, evaluation, params)}`, params)
}

/**
 * Inserts a finished activity (result, failure and proofs already set) and, when there is one,
 * the submitter's vote and what the organization's policies decided for it (`evaluation`, a
 * get_policy_evaluations record, on the vote); in the same statement reads the voter's wire User (null when the
 * user does not exist), which the submit response shows in the vote.
 */
export async function recordActivity(
  sql: Sql,
  a: Omit<ActivityRow, 'seq'>,
  vote?: VoteRow,
  evaluation?: VoteEvaluation,
): Promise<{ voter?: UserWire | null }> {
  if (!vote) {
    await insertActivity(sql, a)
    return {}
  }
  const params: unknown[] = activityParams(a)
  const [row] = await sql.query<UserRow & CredentialAggregates>(
    `WITH a AS (${INSERT_ACTIVITY} RETURNING id),
     v AS (${voteInsert(vote, evaluation, params)})
     SELECT u.*, ${CREDENTIAL_AGGREGATES} FROM users u WHERE u.id = $21`,
    params,
  )
  return { voter: row ? userWireFromRow(row) : null }
}

export async function finishActivity(
  sql: Sql,
  id: string,
  f: { status: string; result: Record<string, unknown> | null; failure: ActivityRow['failure']; appProofs: unknown[]; now: number },
): Promise<void> {
  await sql.query('UPDATE activities SET status = $2, result = $3, failure = $4, app_proofs = $5, updated_at = $6 WHERE id = $1', [
    id,
    f.status,
    f.result === null ? null : JSON.stringify(f.result),
    f.failure === null ? null : JSON.stringify(f.failure),
    JSON.stringify(f.appProofs),
    f.now,
  ])
}

export async function insertVote(sql: Sql, v: VoteRow): Promise<void> {
  await sql.query(
    `INSERT INTO votes (id, activity_id, user_id, selection, message, public_key, signature, scheme, created_at)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)`,
    [v.id, v.activity_id, v.user_id, v.selection, v.message, v.public_key, v.signature, v.scheme, v.created_at],
  )
}

export async function listVotes(sql: Sql, activityId: string): Promise<VoteRow[]> {
  return sql.query<VoteRow>('SELECT * FROM votes WHERE activity_id = $1 ORDER BY created_at, id', [activityId])
}

export type ListActivitiesFilter = {
  organizationId: string
  statuses?: string[] | undefined
  types?: string[] | undefined
  /** Newest first; `after`/`before` are activity ids (older / newer ones), see `page.ts`. */
  page?: PageOptions | undefined
}

/** A page of the organization's activities, newest first, optionally of some statuses and types. */
export async function listActivities(sql: Sql, f: ListActivitiesFilter): Promise<ActivityRow[]> {
  const where = ['organization_id = $1']
  const params: unknown[] = [f.organizationId]
  if (f.statuses?.length) {
    params.push(f.statuses)
    where.push(`status = ANY($${params.length}::text[])`)
  }
  if (f.types?.length) {
    params.push(f.types)
    where.push(`type = ANY($${params.length}::text[])`)
  }
  return readPage<ActivityRow>(
    sql,
    { select: 'SELECT * FROM activities', where, params },
    {
      columns: ['seq'],
      order: 'DESC',
      noun: 'activity',
      keyOf: async (id) => {
        const [row] = await sql.query<{ seq: number }>('SELECT seq FROM activities WHERE id = $1 AND organization_id = $2', [
          id,
          f.organizationId,
        ])
        return row && [row.seq]
      },
    },
    f.page,
  )
}

export type TimestampStyle = 'submit' | 'query'

/**
 * What the engine already knows of a fresh activity (saves the response its queries): its votes,
 * its quorum, and the wire User of voters it has read (null: no such user).
 */
export type KnownFacts = {
  votes: VoteRow[]
  quorum: { threshold: number; userIds: string[] }
  voters?: ReadonlyMap<string, UserWire | null> | undefined
}

/**
 * The wire activity object (service-interface "Activity object", wire-formats A1).
 * `canApprove`/`canReject` are computed for `callerUserId`.
 */
export async function activityToWire(
  sql: Sql,
  a: ActivityRow,
  callerUserId: string | undefined,
  style: TimestampStyle,
  known?: KnownFacts,
) {
  const votes = known?.votes ?? (await listVotes(sql, a.id))
  const quorum = known?.quorum ?? (await getQuorum(sql, a.quorum_org_id))
  const canVote =
    a.status === 'ACTIVITY_STATUS_CONSENSUS_NEEDED' &&
    callerUserId !== undefined &&
    quorum.userIds.includes(callerUserId) &&
    !votes.some((v) => v.user_id === callerUserId)
  const ts = (ms: number) => (style === 'submit' ? String(ms) : toTimestamp(ms))
  const wireVotes = []
  for (const v of votes) {
    const user = known?.voters?.has(v.user_id) ? (known.voters.get(v.user_id) ?? undefined) : await userWireById(sql, v.user_id)
    wireVotes.push({
      id: v.id,
      userId: v.user_id,
      ...(user ? { user } : {}),
      activityId: v.activity_id,
      selection: v.selection,
      message: v.message,
      publicKey: v.public_key,
      signature: v.signature,
      scheme: v.scheme,
      createdAt: toTimestamp(Number(v.created_at)),
    })
  }
  const base = {
    id: a.id,
    organizationId: a.organization_id,
    status: a.status,
    type: a.type,
    intent: { [a.intent_key]: a.intent },
    result: a.result ? { [a.result_key]: a.result } : {},
    votes: wireVotes,
    appProofs: a.app_proofs,
    fingerprint: a.fingerprint,
    canApprove: canVote,
    canReject: canVote,
    createdAt: ts(Number(a.created_at)),
    updatedAt: ts(Number(a.updated_at)),
    ...(a.failure ? { failure: a.failure } : {}),
  }
  return base
}

/** The submit response `{activity}` (A1): top level plus `result.activity` nested. */
export async function submitResponse(sql: Sql, a: ActivityRow, callerUserId: string | undefined, known?: KnownFacts) {
  const nested = await activityToWire(sql, a, callerUserId, 'submit', known)
  return {
    activity: {
      ...nested,
      timestampMs: a.timestamp_ms,
      result: { ...nested.result, activity: nested },
    },
  }
}
