/**
 * Policy engine micro-benchmark: µs per evaluation of an organization's policies for one
 * activity (`decide`) with 1, 10 and 100 policies, plus the parse cost of one policy. The policies are
 * the docs' kinds: an `eth.tx.to` allow-list with a consensus, explicit denies that do not apply, a
 * 2-of-3 approvers consensus, tag checks. Run directly: `npx tsx bench/policy.ts`.
 */
import { type DecisionPolicy, decide, parsePolicy } from '../src/service/policy/index.js'
import type { PolicyContext } from '../src/service/policy/types/namespaces.js'
import { type BenchResult, formatTable, measure } from './timing.js'

const ADDRESSES = Array.from({ length: 20 }, (_, i) => `'0x${(i + 1).toString(16).padStart(40, '0')}'`)

/** Policy number `i` of a synthetic organization: four shapes, rotating. */
function policyAt(i: number): { effect: 'EFFECT_ALLOW' | 'EFFECT_DENY'; condition: string; consensus?: string } {
  switch (i % 4) {
    case 0:
      return {
        effect: 'EFFECT_ALLOW',
        condition: `activity.kind == 'SIGN_TRANSACTION' && eth.tx.to in [${ADDRESSES.join(', ')}] && eth.tx.value < 1000000000000000000000`,
        consensus: `approvers.any(user, user.id == 'user-${i}')`,
      }
    case 1:
      return { effect: 'EFFECT_DENY', condition: `activity.action == 'EXPORT' && wallet_account.address == '0xdead${i}'` }
    case 2:
      return {
        effect: 'EFFECT_ALLOW',
        condition: "activity.resource == 'PRIVATE_KEY' && activity.action == 'SIGN' && eth.tx.chain_id == 1",
        consensus: `approvers.filter(user, user.id in ['user-${i}', 'user-b', 'user-c']).count() >= 2`,
      }
    default:
      return {
        effect: 'EFFECT_DENY',
        condition: `activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2' && eth.tx.data[0..10] == '0x095ea7b3'`,
        consensus: `approvers.any(user, user.tags.contains('tag-${i}'))`,
      }
  }
}

function organization(n: number): DecisionPolicy[] {
  return Array.from({ length: n }, (_, i) => {
    const p = policyAt(i)
    const r = parsePolicy(p)
    if (!r.ok) throw new Error(r.error.message)
    return { policyId: `policy-${i}`, effect: p.effect, parsed: r.policy }
  })
}

const CONTEXT: PolicyContext = {
  approvers: [{ id: 'user-0', tags: ['ops'] }],
  credentials: [{ id: 'cred', user_id: 'user-0', type: 'CREDENTIAL_TYPE_API_KEY_P256', public_key: '02aa' }],
  activity: {
    type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
    kind: 'SIGN_TRANSACTION',
    resource: 'PRIVATE_KEY',
    action: 'SIGN',
    params: { type: 'TRANSACTION_TYPE_ETHEREUM' },
  },
  eth: {
    tx: {
      from: '0x00000000000000000000000000000000000000aa',
      to: '0x0000000000000000000000000000000000000014',
      value: 10n ** 17n,
      data: '0xa9059cbb',
      chain_id: 1n,
      nonce: 3n,
      gas: 21_000n,
    },
  },
  wallet_account: { address: '0x00000000000000000000000000000000000000aa' },
  now: new Date('2026-03-10T15:00:00Z'),
}

/** µs per `decide` with 1, 10 and 100 policies, and per `parsePolicy` of one; `minMs` per case (default 300 ms). */
export async function benchPolicy(opts: { minMs?: number } = {}): Promise<BenchResult[]> {
  const minMs = opts.minMs ?? 300
  const results: BenchResult[] = []
  for (const n of [1, 10, 100]) {
    const policies = organization(n)
    const expected = decide(policies, CONTEXT, { rootQuorum: false })
    if (expected.outcome !== 'OUTCOME_ALLOW') throw new Error(`bench organization of ${n} should allow, got ${expected.outcome}`)
    results.push(
      await measure(
        `policy decide, ${n} ${n === 1 ? 'policy' : 'policies'}`,
        () => {
          if (decide(policies, CONTEXT, { rootQuorum: false }).outcome !== 'OUTCOME_ALLOW') throw new Error('decide')
        },
        { minMs },
      ),
    )
  }
  const one = policyAt(0)
  results.push(
    await measure(
      'policy parse (allow-list of 20 + consensus)',
      () => {
        if (!parsePolicy(one).ok) throw new Error('parse')
      },
      { minMs },
    ),
  )
  return results
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(formatTable(await benchPolicy()))
}
