import { evaluate, tryParseExpression } from '../policy/index.js'
import { listPolicies } from '../store/policies.js'
import type { QueryHandler } from './types.js'

/**
 * get_active_policies: `{organizationId}` → `{statuses, evaluatedAtMs}`, each policy's `time`
 * expression evaluated at the service's clock (the hosted "enclave's trusted timestamp"), the same
 * clock activities are decided with. A policy without `time` is active; one whose time expression
 * cannot be evaluated is reported inactive with the error, as the hosted types describe.
 */
export const handler: QueryHandler = async ({ sql, rt, organizationId }) => {
  const now = rt.now()
  const statuses = (await listPolicies(sql, organizationId)).map((row) => {
    const base = { organizationId, policyId: row.id }
    if (row.time_expr === null) return { ...base, active: true }
    const timeExpr = row.time_expr
    const parsed = tryParseExpression(timeExpr, 'time')
    if (!parsed.ok) return { ...base, active: false, timeExpr, error: parsed.error.description }
    if (parsed.expr === undefined) return { ...base, active: true, timeExpr }
    const r = evaluate(parsed.expr, { approvers: [], credentials: [], now: new Date(now) })
    return r.ok ? { ...base, active: r.value, timeExpr } : { ...base, active: false, timeExpr, error: r.error.message }
  })
  return { statuses, evaluatedAtMs: String(now) }
}
