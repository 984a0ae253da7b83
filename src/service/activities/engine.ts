import { sha256 } from '@noble/hashes/sha2.js'
import type { ActivityStatus } from '../../api/enums.js'
import { fieldError, isSigilErrorCode, SigilError, type SigilErrorCode } from '../../api/errors.js'
import { createAppProof } from '../../crypto/appProof.js'
import { bytesToHex, utf8Decode } from '../../crypto/encoding.js'
import type { Principal } from '../auth/principal.js'
import { checkSessionScope } from '../policy/sessionScope.js'
import { applicableMfaPolicy, type MfaProof, proofNotNeeded, proofOf, progress } from '../policy/mfa.js'
import { getActivityMfa, insertActivityMfa, provenOf, setActivityMfaProven, stepsOf } from '../store/mfaPolicies.js'
import { claimOtpAttempt } from '../otp/consume.js'
import { storedResult } from './shared/storedResult.js'
import type { Runtime } from '../runtime.js'
import type { Transaction } from '../store/sql.js'
import {
  type ActivityRow,
  finishActivity,
  getActivityByFingerprint,
  insertActivity,
  insertVote,
  type KnownFacts,
  listVotes,
  lockActivityByFingerprint,
  recordActivity,
} from '../store/activities.js'
import type { UserWire } from '../store/users.js'
import { getQuorum } from '../store/organizations.js'
import { hasPolicyEvaluations } from '../store/policies.js'
import { getUser } from '../store/users.js'
import type { Decision } from '../policy/index.js'
import {
  createPolicyCache,
  evaluateActivity,
  evaluationRow,
  type PolicySet,
  isAllowed,
  isDenied,
  loadPolicies,
  policiesMayGovern,
  policyDenied,
  recordEvaluation,
  storePolicySet,
} from '../policy/gate.js'
import { gasStationsOf } from '../policy/context.js'
import { submitByType } from '../../api/registry.js'
import { hasSubscribers, queueActivityUpdate, withActivityUpdate } from '../webhooks/events.js'
import { toFieldViolations } from '../../api/validation.js'
import type { ActivityContext } from '../activityContext.js'
import { type ActivityHandler, type ActivityHandlerTable, callHandler, type ParametersOf, type SubmitType, type VoteType } from './types.js'

/** What the engine needs of an operation definition (src/api/registry). */
export type EngineOperation = {
  name: string
  type: string
  intentKey: string
  resultKey: string
}

export type SubmitInput = {
  principal: Principal
  /** The organization the activity acts in (after credential resolution). */
  organizationId: string
  type: string
  timestampMs: string
  generateAppProofs: boolean
  rawBody: Uint8Array
  /** The validated parameters: recorded as the intent and passed to the handler. */
  parameters: Record<string, unknown>
  operation: EngineOperation
}

export const STATUS = {
  CREATED: 'ACTIVITY_STATUS_CREATED',
  PENDING: 'ACTIVITY_STATUS_PENDING',
  COMPLETED: 'ACTIVITY_STATUS_COMPLETED',
  FAILED: 'ACTIVITY_STATUS_FAILED',
  CONSENSUS_NEEDED: 'ACTIVITY_STATUS_CONSENSUS_NEEDED',
  REJECTED: 'ACTIVITY_STATUS_REJECTED',
  /** An MFA policy of the submitter applies and a step is not proven yet (src/service/policy/mfa.ts). */
  AUTHENTICATORS_NEEDED: 'ACTIVITY_STATUS_AUTHENTICATORS_NEEDED',
} as const satisfies Record<string, ActivityStatus>

/** `"sha256:" + hex(sha256(raw body))` (wire-formats A2, B7). */
export function fingerprintOf(rawBody: Uint8Array): string {
  return `sha256:${bytesToHex(sha256(rawBody))}`
}

/** Activity types whose parameters may hold OIDC ID tokens (sign-up, OAuth providers, OAuth logins). */
const MAY_CARRY_OIDC_TOKENS = /OAUTH|SUB_ORGANIZATION|CREATE_USERS/

/** A detail naming the activity that failed, for the error body (A2). */
export function activityDetail(a: Pick<ActivityRow, 'id' | 'status' | 'type'>) {
  return { '@type': 'type.googleapis.com/sigil.ActivityInfo', activityId: a.id, status: a.status, activityType: a.type }
}

function isUniqueViolation(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === '23505'
}

function failureOf(e: SigilError): NonNullable<ActivityRow['failure']> {
  const wire = e.toWire()
  return { code: wire.code, message: wire.message, details: wire.details }
}

/** Handlers need JSON-safe results; this also drops `undefined`. */
function plain(v: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(v)) as Record<string, unknown>
}

/** A submitted activity, with what is already known for its response (saves queries). */
export type SubmitOutcome = {
  activity: ActivityRow
  known?: KnownFacts | undefined
}

/** The savepoint an approved activity runs after: its failure undoes its effects, not the vote. */
const CONSENSUS_SAVEPOINT = 'consensus_execute'

/** Types whose effects change a root quorum (their response re-reads it). */
const QUORUM_TYPES = new Set(['ACTIVITY_TYPE_UPDATE_ROOT_QUORUM', 'ACTIVITY_TYPE_DELETE_USERS'])

/** The handlers the engine runs: every declared type but the votes, which are the engine's own. */
export type EngineHandlers = ActivityHandlerTable<Exclude<SubmitType, VoteType>>

/**
 * The activity engine (wire-formats A2): fingerprints and idempotent replays, root-quorum
 * consensus, policy evaluation for users outside the root quorum (policy/gate.ts),
 * execution of an activity with all its effects in one transaction, FAILED records for
 * execution errors.
 */
export function createEngine(rt: Runtime, handlers: EngineHandlers) {
  const table: ActivityHandlerTable = {
    ...handlers,
    ACTIVITY_TYPE_APPROVE_ACTIVITY: voteHandler('VOTE_SELECTION_APPROVED'),
    ACTIVITY_TYPE_REJECT_ACTIVITY: voteHandler('VOTE_SELECTION_REJECTED'),
  }
  // Parsed policies of this instance, checked against the organization's version on each use.
  const policyCache = createPolicyCache()
  // The delegate a batch send may set, from the network configuration its handler reads (read at each call).
  const gasStationOf = (caip2: string) => gasStationsOf(rt.config.networks)(caip2)

  /**
   * Runs the handler of `a.type` and checks its result against the operation's result schema: a
   * result that does not match is a bug of this service, failed (INTERNAL) before anything commits.
   */
  async function runHandler(
    tx: Transaction,
    a: Pick<ActivityRow, 'id' | 'type' | 'organization_id' | 'submitter_user_id' | 'submitter_org_id' | 'body'>,
    parameters: Record<string, unknown>,
    now: number,
    principal: Principal | undefined,
  ) {
    const ctx: ActivityContext = {
      principal,
      tx,
      rt,
      now,
      activityId: a.id,
      body: a.body,
      type: a.type,
      organizationId: a.organization_id,
      submitter: { userId: a.submitter_user_id, organizationId: a.submitter_org_id },
    }
    const definition = submitByType.get(a.type as SubmitType)
    if (!definition || !Object.hasOwn(table, a.type)) throw new SigilError('INTERNAL', `no handler for ${a.type}`)
    const result = plain(await callHandler(table[a.type as SubmitType], ctx, parameters))
    const checked = definition.result.safeParse(result)
    if (!checked.success) {
      const violations = toFieldViolations(checked.error.issues, definition.resultKey)
      rt.log.error('activity result does not match its schema', {
        activityType: a.type,
        activityId: a.id,
        violations: JSON.stringify(violations.slice(0, 5)),
      })
      throw new SigilError('INTERNAL', 'internal error', { cause: checked.error })
    }
    return result
  }

  function proofs(a: Pick<ActivityRow, 'id' | 'type' | 'organization_id' | 'generate_app_proofs'>, intent: unknown, result: unknown) {
    if (!a.generate_app_proofs) return []
    return [
      createAppProof({
        activityId: a.id,
        type: a.type,
        organizationId: a.organization_id,
        intent,
        result,
        signerPrivateKey: rt.keys.appProof.privateKey,
        encryptionPublicKey: rt.keys.signer.publicKey,
        nowMs: rt.now(),
      }),
    ]
  }

  /**
   * Submits an activity. Returns the stored activity row (possibly an earlier one with the
   * same fingerprint). Throws a SigilError carrying the activity id when execution failed.
   */
  async function submit(input: SubmitInput): Promise<SubmitOutcome> {
    const fingerprint = fingerprintOf(input.rawBody)
    const now = rt.now()
    const quorumOrgId = input.principal.organizationId
    // Read with the credential (same statement) when the authentication path could.
    const quorum = input.principal.quorum ?? (await getQuorum(rt.db, quorumOrgId))
    const isMember = quorum.userIds.includes(input.principal.userId)
    const isVote = input.type === 'ACTIVITY_TYPE_APPROVE_ACTIVITY' || input.type === 'ACTIVITY_TYPE_REJECT_ACTIVITY'
    // A session issued under a session profile runs only what the profile's scope allows.
    if (input.principal.sessionScope) {
      await checkSessionScope(rt.db, input.principal.sessionScope, {
        orgId: quorumOrgId,
        type: input.type,
        intent: input.parameters,
        userId: input.principal.userId,
        publicKey: input.principal.publicKey,
        now,
        gasStationOf,
      })
    }
    // A user outside the root quorum, in an organization with policies: the policies decide.
    // Without policies (or for root-only types) the activity waits for the root quorum, as before.
    let gate: { set: PolicySet; decision: Decision } | undefined
    if (!isMember && policiesMayGovern(input.type)) {
      const set = await loadPolicies(rt.db, quorumOrgId, policyCache, input.principal.policiesVersion)
      if (set.policies.length > 0) {
        const decision = await evaluateActivity(rt.db, set.policies, {
          orgId: quorumOrgId,
          type: input.type,
          intent: input.parameters,
          approverIds: [input.principal.userId],
          votes: [{ userId: input.principal.userId, publicKey: input.principal.publicKey }],
          now,
          gasStationOf,
          // The submitter's tags and email came with the credential (API keys): no second read.
          ...(input.principal.user ? { known: [{ id: input.principal.userId, ...input.principal.user }] } : {}),
        })
        gate = { set, decision }
        // The evaluation names its policy set: recorded once per version, committed on its own.
        await storePolicySet(rt.db, quorumOrgId, set, now, true)
      }
    }
    const needsConsensus = gate ? !isAllowed(gate.decision) && !isDenied(gate.decision) : !isVote && (isMember ? 1 : 0) < quorum.threshold
    // An MFA policy of the submitter that applies: the activity waits until each of its steps is proven.
    let mfa: { id: string; steps: ReturnType<typeof stepsOf>; proven: MfaProof[] } | undefined
    if (!isVote && !(gate && isDenied(gate.decision))) {
      const policy = await applicableMfaPolicy(rt.db, {
        orgId: quorumOrgId,
        userId: input.principal.userId,
        publicKey: input.principal.publicKey,
        type: input.type,
        intent: input.parameters,
        now,
        gasStationOf,
        known: input.principal.mfaPolicies,
      })
      const proven = [proofOf(input.principal)]
      if (policy && !progress(policy.steps, proven).done) mfa = { ...policy, proven }
    }

    const row: Omit<ActivityRow, 'seq'> = {
      id: crypto.randomUUID(),
      organization_id: input.organizationId,
      quorum_org_id: quorumOrgId,
      submitter_user_id: input.principal.userId,
      submitter_org_id: input.principal.organizationId,
      type: input.type,
      status: mfa ? STATUS.AUTHENTICATORS_NEEDED : needsConsensus ? STATUS.CONSENSUS_NEEDED : STATUS.PENDING,
      intent_key: input.operation.intentKey,
      intent: input.parameters,
      result_key: input.operation.resultKey,
      result: null,
      failure: null,
      app_proofs: [],
      generate_app_proofs: input.generateAppProofs,
      fingerprint,
      body: utf8Decode(input.rawBody),
      timestamp_ms: input.timestampMs,
      created_at: now,
      updated_at: now,
    }
    // The submitter's request is their vote; outside the root quorum it is recorded when policies decide.
    const vote =
      isMember || gate
        ? {
            id: crypto.randomUUID(),
            activity_id: row.id,
            user_id: input.principal.userId,
            selection: 'VOTE_SELECTION_APPROVED' as const,
            message: row.body,
            public_key: input.principal.publicKey,
            signature: input.principal.signature,
            scheme: input.principal.scheme,
            created_at: now,
          }
        : undefined

    // What policies decided for the submitter's vote, recorded on it (get_policy_evaluations).
    const evaluated =
      gate && vote ? evaluationRow({ orgId: quorumOrgId, voteId: vote.id, set: gate.set, decision: gate.decision, now }) : undefined
    const knownWith = (voter: UserWire | null | undefined): KnownFacts => ({
      votes: vote ? [vote] : [],
      quorum,
      ...(vote && voter !== undefined ? { voters: new Map([[vote.user_id, voter]]) } : {}),
    })
    try {
      if (gate && isDenied(gate.decision)) throw policyDenied(gate.decision, gate.set.policies)
      if (mfa) {
        // Recorded before the activity (a twin's conflict on the activity leaves an unreachable row).
        await insertActivityMfa(rt.db, {
          activityId: row.id,
          organizationId: quorumOrgId,
          userId: input.principal.userId,
          mfaPolicyId: mfa.id,
          steps: mfa.steps,
          proven: mfa.proven,
          now,
        })
      }
      if (needsConsensus || mfa) {
        // Nothing runs before the quorum (or the policies' consensus) approves.
        // One statement records the activity, the vote and what the policies decided for it.
        // Webhooks: the ACTIVITY_UPDATES event commits with the record (src/service/webhooks).
        const { voter } = await withActivityUpdate(rt, row, (sql) => recordActivity(sql, row, vote, evaluated))
        return { activity: { ...row, seq: 0 }, known: knownWith(voter) }
      }
      // OIDC tokens' signing keys are fetched before the transaction, never while it holds the database.
      if (MAY_CARRY_OIDC_TOKENS.test(input.type)) await rt.oidc.prefetch(input.parameters)
      // An OTP's attempt is counted in a statement of its own, before the transaction: a wrong code
      // rolls the transaction back, the count stays, so wrong guesses are never free.
      await claimOtpAttempt(rt.db, { type: input.type, submitterOrgId: quorumOrgId, parameters: input.parameters, now })
      // Without an ACTIVITY_UPDATES subscriber the finished activity is the transaction's last
      // statement (`Transaction.last`): after a handler that only read, it runs alone.
      const quiet = !(await hasSubscribers(rt, row.organization_id, 'ACTIVITY_UPDATES'))
      return await rt.db.transaction(async (tx) => {
        const result = await runHandler(tx, row, input.parameters, now, input.principal)
        const appProofs = proofs(row, input.parameters, result)
        const activity = { ...row, status: STATUS.COMPLETED, result, app_proofs: appProofs }
        // What is stored (and served again, and sent to webhooks) keeps no bearer secret.
        const stored = { ...activity, result: storedResult(row.type, result) }
        // The finished activity is the transaction's last statement: a byte-identical resubmission
        // (or a concurrent twin) conflicts on the unique fingerprint here, every effect of this run
        // rolls back and the stored activity is replayed below, so it is never executed twice.
        const { voter } = await recordActivity(quiet ? { query: tx.last } : tx, stored, vote, evaluated)
        if (!quiet) await queueActivityUpdate(rt, tx, stored, knownWith(voter))
        // An activity that changed the quorum or its members must not answer with the old one.
        return { activity: { ...activity, seq: 0 }, known: QUORUM_TYPES.has(row.type) ? undefined : knownWith(voter) }
      })
    } catch (caught) {
      let e = caught
      if (isUniqueViolation(e)) {
        const twin = await replayTwin(fingerprint, input.organizationId)
        if (twin) return twin
        // A handler's own uniqueness constraint: a conflict, not a crash.
        e = new SigilError('ALREADY_EXISTS', 'a record with the same identity already exists', { cause: e })
      }
      if (!(e instanceof SigilError)) throw e
      // The database went away: not an outcome of the activity. Nothing is recorded, so a retry of the
      // same bytes runs it (or, when the lost COMMIT did land, replays it) instead of replaying a failure.
      if (e.code === 'UNAVAILABLE') throw e
      // Execution failed: nothing of it stays, but the attempt is recorded as FAILED (A2), in one statement.
      const failed = { ...row, status: STATUS.FAILED, failure: failureOf(e) }
      try {
        await withActivityUpdate(rt, failed, (sql) => insertActivity(sql, failed, vote, evaluated))
      } catch (recordError) {
        if (!isUniqueViolation(recordError)) throw recordError
        // A resubmission whose run failed (e.g. on the effects of the first run): replay that one.
        const twin = await replayTwin(fingerprint, input.organizationId)
        if (twin) return twin
      }
      throw withActivity(e, failed)
    }
  }

  /** The stored activity with this fingerprint, replayed; undefined when there is none. */
  async function replayTwin(fingerprint: string, organizationId: string): Promise<SubmitOutcome | undefined> {
    const stored = await getActivityByFingerprint(rt.db, fingerprint)
    if (!stored) return undefined
    // The same bytes can resolve to another organization (a body naming a parent, stamped by a
    // credential of another sub-organization): that activity is not this caller's to see.
    if (stored.organization_id !== organizationId) {
      throw new SigilError('ALREADY_EXISTS', 'an activity with this fingerprint already exists in another organization')
    }
    return { activity: replay(stored) }
  }

  /** A byte-identical resubmission: the stored activity again, never a second execution. */
  function replay(a: ActivityRow): ActivityRow {
    if (a.status === STATUS.FAILED && a.failure) {
      throw new SigilError(codeOfFailure(a), a.failure.message, { details: [activityDetail(a)] })
    }
    return a
  }

  /**
   * approve_activity / reject_activity handler: one vote from a root quorum member (A2), or, on an
   * activity the organization's policies decided, from any user of the organization.
   */
  function voteHandler(
    selection: 'VOTE_SELECTION_APPROVED' | 'VOTE_SELECTION_REJECTED',
  ): ActivityHandler<ParametersOf<'ACTIVITY_TYPE_APPROVE_ACTIVITY'>> {
    return async (ctx, params) => {
      const { tx, now } = ctx
      const target = await lockActivityByFingerprint(tx, ctx.organizationId, params.fingerprint)
      if (!target) {
        throw fieldError('NOT_FOUND', 'fingerprint', 'no activity with this fingerprint in the organization')
      }
      // Waiting for its submitter's second factor: only that user's stamps count (src/service/policy/mfa.ts).
      const mfaWait = target.status === STATUS.AUTHENTICATORS_NEEDED
      if (mfaWait && (ctx.submitter.userId !== target.submitter_user_id || ctx.submitter.organizationId !== target.submitter_org_id)) {
        throw new SigilError('PERMISSION_DENIED', 'only the user who submitted this activity can prove their second factor for it')
      }
      if (!mfaWait && target.status !== STATUS.CONSENSUS_NEEDED) {
        throw new SigilError('VOTE_NOT_ALLOWED', `activity ${target.id} is ${target.status}, not waiting for votes`)
      }
      const quorum = await getQuorum(tx, target.quorum_org_id)
      const isRoot = quorum.userIds.includes(ctx.submitter.userId)
      // An activity the policies decided (it has evaluations) takes votes from any user of its
      // organization: the policies' consensus names them. Any other takes root quorum votes only.
      const governed = await hasPolicyEvaluations(tx, target.id)
      if (!mfaWait && !isRoot && !(governed && (await getUser(tx, target.quorum_org_id, ctx.submitter.userId)))) {
        throw new SigilError('PERMISSION_DENIED', 'only members of the root quorum can vote on this activity')
      }
      const votes = await listVotes(tx, target.id)
      if (!mfaWait && votes.some((v) => v.user_id === ctx.submitter.userId)) {
        throw new SigilError('VOTE_NOT_ALLOWED', 'this user has already voted on the activity')
      }
      const voteId = crypto.randomUUID()
      if (!mfaWait)
        await insertVote(tx, {
          id: voteId,
          activity_id: target.id,
          user_id: ctx.submitter.userId,
          selection,
          message: ctx.body,
          public_key: ctx.principal?.publicKey ?? '',
          signature: ctx.principal?.signature ?? '',
          scheme: ctx.principal?.scheme ?? '',
          created_at: now,
        })

      /** Records the target's new status with its ACTIVITY_UPDATES event (webhooks). */
      const finishTarget = async (f: Parameters<typeof finishActivity>[2]) => {
        await finishActivity(tx, target.id, f)
        await queueActivityUpdate(rt, tx, {
          ...target,
          status: f.status,
          result: f.result,
          failure: f.failure,
          app_proofs: f.appProofs,
          updated_at: f.now,
        })
      }

      /** Runs the approved activity; its failure undoes its effects, not the vote. */
      const execute = async () => {
        // An OTP's attempt is counted before the savepoint: a wrong code's rollback keeps it.
        try {
          await claimOtpAttempt(tx, { type: target.type, submitterOrgId: target.submitter_org_id, parameters: target.intent, now })
        } catch (e) {
          if (!(e instanceof SigilError) || e.code === 'UNAVAILABLE') throw e
          await finishTarget({ status: STATUS.FAILED, result: null, failure: failureOf(e), appProofs: [], now })
          return
        }
        // Rolling back to it also drops the after-commit work registered since (mail, sends, webhooks).
        await tx.savepoint(CONSENSUS_SAVEPOINT)
        try {
          const result = await runHandler(tx, target, target.intent, now, undefined)
          const appProofs = proofs(target, target.intent, result)
          await finishTarget({ status: STATUS.COMPLETED, result: storedResult(target.type, result), failure: null, appProofs, now })
        } catch (e) {
          if (!(e instanceof SigilError) || e.code === 'UNAVAILABLE') throw e
          await tx.rollbackTo(CONSENSUS_SAVEPOINT)
          await finishTarget({ status: STATUS.FAILED, result: null, failure: failureOf(e), appProofs: [], now })
        }
      }
      const reject = () => finishTarget({ status: STATUS.REJECTED, result: null, failure: null, appProofs: [], now })

      if (mfaWait) {
        if (selection === 'VOTE_SELECTION_REJECTED') {
          await reject()
          return { activityId: target.id }
        }
        const held = await getActivityMfa(tx, target.id)
        if (!held || !ctx.principal) throw new SigilError('INTERNAL', `activity ${target.id} waits for MFA without its record`)
        const steps = stepsOf(held.required_methods)
        const before = provenOf(held.proven) as MfaProof[]
        const proof = proofOf(ctx.principal)
        const proven = [...before, proof]
        const was = progress(steps, before)
        const now_ = progress(steps, proven)
        if (now_.satisfied.length === was.satisfied.length) {
          throw proofNotNeeded(
            proof,
            before.some((p) => p.credentialId === proof.credentialId),
          )
        }
        await setActivityMfaProven(tx, target.id, proven)
        if (!now_.done) return { activityId: target.id }
        // Every step proven: the activity goes on as if just submitted — the policies' or the root
        // quorum's consensus when it needs one (the submitter's own vote stands), else it runs.
        if (governed) {
          const set = await loadPolicies(tx, target.quorum_org_id, policyCache)
          const decision = await evaluateActivity(tx, set.policies, {
            orgId: target.quorum_org_id,
            type: target.type,
            intent: target.intent,
            approverIds: votes.filter((v) => v.selection === 'VOTE_SELECTION_APPROVED').map((v) => v.user_id),
            votes: votes.map((v) => ({ userId: v.user_id, publicKey: v.public_key })),
            now,
            gasStationOf,
          })
          if (isAllowed(decision)) await execute()
          else if (isDenied(decision)) {
            await finishTarget({
              status: STATUS.FAILED,
              result: null,
              failure: failureOf(policyDenied(decision, set.policies)),
              appProofs: [],
              now,
            })
          } else await finishTarget({ status: STATUS.CONSENSUS_NEEDED, result: null, failure: null, appProofs: [], now })
          return { activityId: target.id }
        }
        const rootApprovals = votes.filter((v) => v.selection === 'VOTE_SELECTION_APPROVED' && quorum.userIds.includes(v.user_id)).length
        if (rootApprovals >= quorum.threshold) await execute()
        else await finishTarget({ status: STATUS.CONSENSUS_NEEDED, result: null, failure: null, appProofs: [], now })
        return { activityId: target.id }
      }

      if (governed) {
        // Rule 1: a root quorum approving allows; a rejection ends it; else the policies decide again
        // over every approver so far, and the evaluation is recorded for this vote.
        if (selection === 'VOTE_SELECTION_REJECTED') {
          await reject()
          return { activityId: target.id }
        }
        const all = [
          ...votes.map((v) => ({ user_id: v.user_id, selection: v.selection, public_key: v.public_key })),
          { user_id: ctx.submitter.userId, selection, public_key: ctx.principal?.publicKey ?? '' },
        ]
        const approved = all.filter((v) => v.selection === 'VOTE_SELECTION_APPROVED')
        const approverIds = approved.map((v) => v.user_id)
        const rootApprovals = approverIds.filter((id) => quorum.userIds.includes(id)).length
        if (rootApprovals >= quorum.threshold) {
          await execute()
          return { activityId: target.id }
        }
        const set = await loadPolicies(tx, target.quorum_org_id, policyCache)
        const decision = await evaluateActivity(tx, set.policies, {
          orgId: target.quorum_org_id,
          type: target.type,
          intent: target.intent,
          approverIds,
          votes: approved.map((v) => ({ userId: v.user_id, publicKey: v.public_key })),
          now,
          gasStationOf,
        })
        await recordEvaluation(tx, { orgId: target.quorum_org_id, voteId, set, decision, now })
        if (isAllowed(decision)) await execute()
        else if (isDenied(decision)) {
          await finishTarget({
            status: STATUS.FAILED,
            result: null,
            failure: failureOf(policyDenied(decision, set.policies)),
            appProofs: [],
            now,
          })
        }
        return { activityId: target.id }
      }

      const approvals =
        votes.filter((v) => v.selection === 'VOTE_SELECTION_APPROVED').length + (selection === 'VOTE_SELECTION_APPROVED' ? 1 : 0)
      const rejections =
        votes.filter((v) => v.selection === 'VOTE_SELECTION_REJECTED').length + (selection === 'VOTE_SELECTION_REJECTED' ? 1 : 0)

      if (approvals >= quorum.threshold) await execute()
      else if (quorum.userIds.length - rejections < quorum.threshold) await reject()
      return { activityId: target.id }
    }
  }

  return { submit }
}

export type Engine = ReturnType<typeof createEngine>

function withActivity(e: SigilError, a: Pick<ActivityRow, 'id' | 'status' | 'type'>): SigilError {
  return new SigilError(e.code, e.message, {
    fieldViolations: e.fieldViolations,
    details: [...e.details, activityDetail(a)],
    cause: e,
  })
}

function codeOfFailure(a: ActivityRow): SigilErrorCode {
  const info = a.failure?.details.find((d) => d['@type'] === 'type.googleapis.com/sigil.ErrorInfo')
  const reason = info?.reason
  return isSigilErrorCode(reason) ? reason : 'INTERNAL'
}
