/** Every policy example of the hosted service's docs parses, applies to its `match` context and not to its `miss`. */
import { describe, expect, it } from 'vitest'
import { type DecisionPolicy, decide, evaluatePolicy, parsePolicy } from '../../../../src/service/policy/index.js'
import type { PolicyContext } from '../../../../src/service/policy/types/namespaces.js'
import { POLICY_EXAMPLES, type PolicyExample } from '../../../vectors/policy-examples.js'

/** Apply dotted-path replacements to a deep copy of a context. */
function patch(base: PolicyContext, changes: Record<string, unknown>): PolicyContext {
  const out = structuredClone(base) as unknown as Record<string, unknown>
  for (const [path, value] of Object.entries(changes)) {
    const keys = path.split('.')
    let node = out as Record<string, unknown>
    for (const k of keys.slice(0, -1)) {
      const next = node[k]
      if (typeof next !== 'object' || next === null) throw new Error(`fixture path ${path}: ${k} is not an object`)
      node = next as Record<string, unknown>
    }
    const last = keys[keys.length - 1] as string
    if (!(last in node)) throw new Error(`fixture path ${path}: ${last} does not exist`)
    node[last] = value
  }
  return out as unknown as PolicyContext
}

function policyOf(ex: PolicyExample, i: number): DecisionPolicy {
  const parsed = parsePolicy({ condition: ex.condition, consensus: ex.consensus, time: ex.time })
  if (!parsed.ok) throw new Error(`example ${i} (${ex.name}) does not parse: ${parsed.error.message}`)
  return { policyId: `example-${i}`, effect: ex.effect, parsed: parsed.policy }
}

const applied = (ex: PolicyExample) => (ex.effect === 'EFFECT_ALLOW' ? 'OUTCOME_ALLOW' : 'OUTCOME_DENY_EXPLICIT')

describe('policy examples from the docs', () => {
  it('covers every page', () => {
    const pages = new Set(POLICY_EXAMPLES.flatMap((e) => e.pages))
    for (const p of [
      'features/policies/quickstart',
      'features/policies/language',
      'features/policies/examples/access-control',
      'features/policies/examples/ethereum',
      'features/policies/examples/solana',
      'features/policies/examples/signing-control',
      'snippets/shared/policy-engine',
    ]) {
      expect(pages).toContain(p)
    }
    expect(POLICY_EXAMPLES.length).toBeGreaterThanOrEqual(90)
  })

  POLICY_EXAMPLES.forEach((ex, i) => {
    describe(`${i}: ${ex.name} (${ex.pages[0]})`, () => {
      it('parses', () => {
        const r = parsePolicy({ condition: ex.condition, consensus: ex.consensus, time: ex.time })
        expect(r.ok ? 'ok' : r.error.message).toBe('ok')
      })
      it('applies to its matching context', () => {
        const record = evaluatePolicy(policyOf(ex, i), ex.match, 100_000)
        expect(record).toMatchObject({ outcome: applied(ex) })
        const d = decide([policyOf(ex, i)], ex.match, { rootQuorum: false })
        expect(d.outcome).toBe(applied(ex))
      })
      it('does not apply to its non-matching context', () => {
        const record = evaluatePolicy(policyOf(ex, i), patch(ex.match, ex.miss), 100_000)
        expect(record.outcome).not.toBe(applied(ex))
        expect(record.outcome).not.toBe('OUTCOME_ERROR')
      })
    })
  })
})
