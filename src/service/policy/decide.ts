/**
 * The engine rules (features/policies/overview, "Policy evaluation"):
 * 1. a root quorum acting → allow;
 * 2. else any applicable `EFFECT_DENY` → deny ("explicit deny");
 * 3. else any applicable `EFFECT_ALLOW` → allow;
 * 4. else deny ("implicit deny").
 * A policy applies when its `time` holds (else `OUTCOME_TIME_INACTIVE`), its `condition` holds and its
 * `consensus` holds over the approvers so far. An ALLOW policy whose condition holds but whose
 * consensus does not yet → `OUTCOME_REQUIRES_CONSENSUS` (the activity waits for votes). A policy
 * whose expression errors is `OUTCOME_ERROR`. An ALLOW that errors never allows. A DENY that errors
 * fails closed ("an evaluation error denies", never skipped), denying the activity, so a broken
 * or unreadable operand never lets through what the DENY forbids.
 * `MISSING_FIELD` (a field the activity does not carry at all: `eth.tx` for a sign_raw_payload, the
 * `parsed_instruction_data` of an instruction without an IDL) is where a DENY may not apply, but
 * only when the missing field matters: the language does not short circuit, so a DENY that ends in
 * `MISSING_FIELD` is evaluated again in three-valued logic (`evaluateThreeValued`: missing is
 * unknown, `false && ?` is false, `true || ?` true, `any(…)` true if an element is…). Definitely
 * true → the DENY applies; definitely false → it does not; unknown → it does not apply (the docs'
 * `wallet.id == … || private_key.id == …` that "always errors" when neither matches); any other
 * error met on the way (an unreadable field a missing one came before) → fail closed. The second
 * pass costs from the same step budget. A namespace the activity carries but that could not be
 * read is `UNREADABLE_FIELD`, not missing. An exhausted step budget denies whatever the effect: a
 * policy too costly to evaluate must not be skipped. ALLOW policies are evaluated once: an ALLOW
 * never allows on a missing field.
 */
import type { EvalError } from './errors.js'
import type { Expr } from './ast.js'
import { evaluate, evaluateThreeValued } from './evaluate.js'
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
  | 'DENY_POLICY_ERROR'

/** The outcome for the activity, with the policies that decided it and every policy's record. */
export type Decision = {
  readonly outcome: 'OUTCOME_ALLOW' | 'OUTCOME_DENY_EXPLICIT' | 'OUTCOME_DENY_IMPLICIT' | 'OUTCOME_REQUIRES_CONSENSUS' | 'OUTCOME_ERROR'
  readonly reason: DecisionReason
  /** The deciding policies: the denying ones, the erring DENY ones, the allowing ones, the ones awaiting consensus, the one over budget. */
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

/** The ids of the evaluations with this outcome. */
function idsWith(evaluations: readonly PolicyEvaluation[], outcome: PolicyOutcome): string[] {
  const out: string[] = []
  for (const e of evaluations) if (e.outcome === outcome) out.push(e.policyId)
  return out
}

/** Evaluate every policy of the organization for one vote and apply the engine rules. Never throws. */
export function decide(policies: readonly DecisionPolicy[], context: PolicyContext, options: DecideOptions): Decision {
  if (options.rootQuorum) return { outcome: 'OUTCOME_ALLOW', reason: 'ROOT_QUORUM', policyIds: [], evaluations: [] }
  const perExpression = options.stepBudget ?? DEFAULT_STEP_BUDGET
  let remaining = options.totalStepBudget ?? perExpression * 10
  const evaluations: PolicyEvaluation[] = []
  const erringDenies: string[] = []
  for (const p of policies) {
    const record = evaluatePolicy(p, context, Math.max(0, Math.min(perExpression, remaining)))
    remaining -= record.steps
    evaluations.push(record)
    if (record.error?.code === 'EVALUATION_BUDGET_EXCEEDED') {
      return { outcome: 'OUTCOME_ERROR', reason: 'EVALUATION_BUDGET_EXCEEDED', policyIds: [p.policyId], evaluations }
    }
    if (p.effect === 'EFFECT_DENY' && record.error !== undefined && record.error.code !== 'MISSING_FIELD') erringDenies.push(p.policyId)
  }
  const denied = idsWith(evaluations, 'OUTCOME_DENY_EXPLICIT')
  if (denied.length > 0) return { outcome: 'OUTCOME_DENY_EXPLICIT', reason: 'EXPLICIT_DENY', policyIds: denied, evaluations }
  if (erringDenies.length > 0) return { outcome: 'OUTCOME_ERROR', reason: 'DENY_POLICY_ERROR', policyIds: erringDenies, evaluations }
  const allowed = idsWith(evaluations, 'OUTCOME_ALLOW')
  if (allowed.length > 0) return { outcome: 'OUTCOME_ALLOW', reason: 'POLICY_ALLOW', policyIds: allowed, evaluations }
  const waiting = idsWith(evaluations, 'OUTCOME_REQUIRES_CONSENSUS')
  if (waiting.length > 0) return { outcome: 'OUTCOME_REQUIRES_CONSENSUS', reason: 'CONSENSUS_NEEDED', policyIds: waiting, evaluations }
  return { outcome: 'OUTCOME_DENY_IMPLICIT', reason: 'IMPLICIT_DENY', policyIds: [], evaluations }
}

/** A failed expression's record. */
function failed(policyId: string, expression: 'condition' | 'consensus' | 'time', error: EvalError, steps: number): PolicyEvaluation {
  return {
    policyId,
    outcome: 'OUTCOME_ERROR',
    error: { code: error.code, offset: error.offset, message: error.message, expression },
    steps,
  }
}

/**
 * Evaluate one policy within `budget` steps: time, then condition, then consensus. A DENY whose
 * evaluation ends in `MISSING_FIELD` is decided again in three-valued logic (`denyThreeValued`),
 * from the same budget. No closures here: this runs once per policy per activity, and the
 * service's loader names each closure it creates (a property definition per call).
 */
export function evaluatePolicy(policy: DecisionPolicy, context: PolicyContext, budget: number): PolicyEvaluation {
  const record = evaluateTwoValued(policy, context, budget)
  if (policy.effect !== 'EFFECT_DENY' || record.error?.code !== 'MISSING_FIELD') return record
  return denyThreeValued(policy, context, budget, record)
}

/**
 * A DENY whose evaluation (`first`) ended in `MISSING_FIELD`, decided in three-valued logic from the
 * expression that failed on (those before it held): time, condition, consensus, each true, false
 * or unknown. One false → the policy does not apply (`OUTCOME_TIME_INACTIVE` / `_DENY_IMPLICIT`, as
 * for a two-valued false); all true → `OUTCOME_DENY_EXPLICIT`; else unknown → `first` (the
 * `MISSING_FIELD` record: does not apply). Any other error → that error (the DENY fails closed).
 */
function denyThreeValued(policy: DecisionPolicy, context: PolicyContext, budget: number, first: PolicyEvaluation): PolicyEvaluation {
  const id = policy.policyId
  const failedOn = first.error?.expression
  let steps = first.steps
  let unknown = false
  const exprs: Array<['time' | 'condition' | 'consensus', Expr | undefined]> = [
    ['time', policy.parsed.time],
    ['condition', policy.parsed.condition],
    ['consensus', policy.parsed.consensus],
  ]
  let reached = false
  for (const [which, expr] of exprs) {
    reached ||= which === failedOn
    if (!reached || expr === undefined) continue
    const r = evaluateThreeValued(expr, context, { stepBudget: Math.max(0, budget - steps) })
    steps += r.steps
    if (!r.ok) return failed(id, which, r.error, steps)
    if (r.value === false) return { policyId: id, outcome: which === 'time' ? 'OUTCOME_TIME_INACTIVE' : 'OUTCOME_DENY_IMPLICIT', steps }
    if (r.value === 'unknown') unknown = true
  }
  return unknown ? { ...first, steps } : { policyId: id, outcome: 'OUTCOME_DENY_EXPLICIT', steps }
}

/** `evaluatePolicy` in the language's own (two-valued, no short circuit) semantics. */
function evaluateTwoValued(policy: DecisionPolicy, context: PolicyContext, budget: number): PolicyEvaluation {
  const { time: timeExpr, condition: conditionExpr, consensus: consensusExpr } = policy.parsed
  const id = policy.policyId
  let steps = 0
  if (timeExpr !== undefined) {
    const time = evaluate(timeExpr, context, { stepBudget: Math.max(0, budget - steps) })
    steps += time.steps
    if (!time.ok) return failed(id, 'time', time.error, steps)
    if (!time.value) return { policyId: id, outcome: 'OUTCOME_TIME_INACTIVE', steps }
  }
  if (conditionExpr !== undefined) {
    const condition = evaluate(conditionExpr, context, { stepBudget: Math.max(0, budget - steps) })
    steps += condition.steps
    if (!condition.ok) return failed(id, 'condition', condition.error, steps)
    if (!condition.value) return { policyId: id, outcome: 'OUTCOME_DENY_IMPLICIT', steps }
  }
  let agreed = true
  if (consensusExpr !== undefined) {
    const consensus = evaluate(consensusExpr, context, { stepBudget: Math.max(0, budget - steps) })
    steps += consensus.steps
    if (!consensus.ok) return failed(id, 'consensus', consensus.error, steps)
    agreed = consensus.value
  }
  const deny = policy.effect === 'EFFECT_DENY'
  const outcome: PolicyOutcome = agreed
    ? deny
      ? 'OUTCOME_DENY_EXPLICIT'
      : 'OUTCOME_ALLOW'
    : deny
      ? 'OUTCOME_DENY_IMPLICIT'
      : 'OUTCOME_REQUIRES_CONSENSUS'
  return { policyId: id, outcome, steps }
}
