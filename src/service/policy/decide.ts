/**
 * The engine rules (features/policies/overview, "Policy evaluation"):
 * 1. a root quorum acting → allow;
 * 2. else any applicable `EFFECT_DENY` → deny ("explicit deny");
 * 3. else any applicable `EFFECT_ALLOW` → allow;
 * 4. else deny ("implicit deny").
 * A policy applies when its `time` holds (else `OUTCOME_TIME_INACTIVE`), its `condition` holds and its
 * `consensus` holds over the approvers so far. An ALLOW policy whose condition holds but whose
 * consensus does not yet → `OUTCOME_REQUIRES_CONSENSUS` (the activity waits for votes). A policy
 * whose expression errors (a missing field, a type mismatch) is `OUTCOME_ERROR` and does not apply
 * (the docs' `wallet.id == … || private_key.id == …` "always errors"), except that an exhausted step
 * budget denies the activity: a policy too costly to evaluate must not be skipped.
 */
import type { EvalError } from './errors.js'
import { type EvalResult, evaluate } from './evaluate.js'
import { DEFAULT_STEP_BUDGET } from './limits.js'
import type { ParsedPolicy } from './policy.js'
import type { PolicyContext } from './types/namespaces.js'

/** One policy as the engine sees it. */
export type DecisionPolicy = { readonly policyId: string; readonly effect: 'EFFECT_ALLOW' | 'EFFECT_DENY'; readonly parsed: ParsedPolicy }

/** The wire outcomes (v1Outcome) a policy evaluation records. */
export type PolicyOutcome =
  | 'OUTCOME_ALLOW'
  | 'OUTCOME_DENY_EXPLICIT'
  | 'OUTCOME_DENY_IMPLICIT'
  | 'OUTCOME_REQUIRES_CONSENSUS'
  | 'OUTCOME_ERROR'
  | 'OUTCOME_TIME_INACTIVE'

/** The record of one policy's evaluation (served by get_policy_evaluations as `{policyId, outcome}`). */
export type PolicyEvaluation = {
  readonly policyId: string
  readonly outcome: PolicyOutcome
  /** Which expression failed and how, for `OUTCOME_ERROR`. */
  readonly error?: EvalError & { readonly expression: 'condition' | 'consensus' | 'time' }
  readonly steps: number
}

/** Why the decision was reached. */
export type DecisionReason =
  | 'ROOT_QUORUM'
  | 'EXPLICIT_DENY'
  | 'POLICY_ALLOW'
  | 'CONSENSUS_NEEDED'
  | 'IMPLICIT_DENY'
  | 'EVALUATION_BUDGET_EXCEEDED'

/** The outcome for the activity, with the policies that decided it and every policy's record. */
export type Decision = {
  readonly outcome: 'OUTCOME_ALLOW' | 'OUTCOME_DENY_EXPLICIT' | 'OUTCOME_DENY_IMPLICIT' | 'OUTCOME_REQUIRES_CONSENSUS' | 'OUTCOME_ERROR'
  readonly reason: DecisionReason
  /** The deciding policies: the denying one, the allowing one, the ones awaiting consensus, the one over budget. */
  readonly policyIds: readonly string[]
  readonly evaluations: readonly PolicyEvaluation[]
}

export type DecideOptions = {
  /** A root quorum took the action: allowed without evaluating policies. */
  readonly rootQuorum: boolean
  /** Steps per expression (default `DEFAULT_STEP_BUDGET`). */
  readonly stepBudget?: number
  /** Steps for all policies together (default 10 × the per-expression budget). */
  readonly totalStepBudget?: number
}

/** Evaluate every policy of the organization for one vote and apply the engine rules. Never throws. */
export function decide(policies: readonly DecisionPolicy[], context: PolicyContext, options: DecideOptions): Decision {
  if (options.rootQuorum) return { outcome: 'OUTCOME_ALLOW', reason: 'ROOT_QUORUM', policyIds: [], evaluations: [] }
  const perExpression = options.stepBudget ?? DEFAULT_STEP_BUDGET
  let remaining = options.totalStepBudget ?? perExpression * 10
  const evaluations: PolicyEvaluation[] = []
  for (const p of policies) {
    const record = evaluatePolicy(p, context, () => Math.max(0, Math.min(perExpression, remaining)))
    remaining -= record.steps
    evaluations.push(record)
    if (record.error?.code === 'EVALUATION_BUDGET_EXCEEDED') {
      return { outcome: 'OUTCOME_ERROR', reason: 'EVALUATION_BUDGET_EXCEEDED', policyIds: [p.policyId], evaluations }
    }
  }
  const ids = (outcome: PolicyOutcome): string[] => evaluations.filter((e) => e.outcome === outcome).map((e) => e.policyId)
  const denied = ids('OUTCOME_DENY_EXPLICIT')
  if (denied.length > 0) return { outcome: 'OUTCOME_DENY_EXPLICIT', reason: 'EXPLICIT_DENY', policyIds: denied, evaluations }
  const allowed = ids('OUTCOME_ALLOW')
  if (allowed.length > 0) return { outcome: 'OUTCOME_ALLOW', reason: 'POLICY_ALLOW', policyIds: allowed, evaluations }
  const waiting = ids('OUTCOME_REQUIRES_CONSENSUS')
  if (waiting.length > 0) return { outcome: 'OUTCOME_REQUIRES_CONSENSUS', reason: 'CONSENSUS_NEEDED', policyIds: waiting, evaluations }
  return { outcome: 'OUTCOME_DENY_IMPLICIT', reason: 'IMPLICIT_DENY', policyIds: [], evaluations }
}

/** Evaluate one policy: time, then condition, then consensus. */
export function evaluatePolicy(policy: DecisionPolicy, context: PolicyContext, budget: () => number): PolicyEvaluation {
  let steps = 0
  const run = (expression: 'condition' | 'consensus' | 'time'): EvalResult | undefined => {
    const expr = policy.parsed[expression]
    if (expr === undefined) return undefined
    const r = evaluate(expr, context, { stepBudget: Math.max(0, budget() - steps) })
    steps += r.steps
    return r
  }
  const fail = (expression: 'condition' | 'consensus' | 'time', error: EvalError): PolicyEvaluation => ({
    policyId: policy.policyId,
    outcome: 'OUTCOME_ERROR',
    error: { ...error, expression },
    steps,
  })
  const time = run('time')
  if (time !== undefined && !time.ok) return fail('time', time.error)
  if (time !== undefined && !time.value) return { policyId: policy.policyId, outcome: 'OUTCOME_TIME_INACTIVE', steps }
  const condition = run('condition')
  if (condition !== undefined && !condition.ok) return fail('condition', condition.error)
  const applies = condition === undefined || condition.value
  if (!applies) return { policyId: policy.policyId, outcome: 'OUTCOME_DENY_IMPLICIT', steps }
  const consensus = run('consensus')
  if (consensus !== undefined && !consensus.ok) return fail('consensus', consensus.error)
  const agreed = consensus === undefined || consensus.value
  const deny = policy.effect === 'EFFECT_DENY'
  const outcome: PolicyOutcome = agreed
    ? deny
      ? 'OUTCOME_DENY_EXPLICIT'
      : 'OUTCOME_ALLOW'
    : deny
      ? 'OUTCOME_DENY_IMPLICIT'
      : 'OUTCOME_REQUIRES_CONSENSUS'
  return { policyId: policy.policyId, outcome, steps }
}
