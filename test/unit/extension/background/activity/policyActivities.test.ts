/**
 * Policies in the popup's background: a denial by policy reads "Denied by policy
 * 'name'" (from the service's own message, service/policy/gate.ts `policyDenied`), an activity waiting for
 * approvals says who must approve, and one whose waiting policy names the logged-in user is theirs
 * to vote on.
 */
import { describe, expect, it } from 'vitest'
import type { SigilClient } from '@/src/api/client'
import { SigilRequestError } from '@/src/api/errors'
import { listActivities } from '@/src/extension/background/activity/activities'
import type { ActiveSession } from '@/src/extension/background/core'
import { toPopupFailure } from '@/src/extension/background/failures'
import { deniedByPolicyText, stringLiterals, waitingFor } from '@/src/extension/background/activity/policyText'
import { type GatePolicy, policyDenied } from '@/src/service/policy/gate'
import type { Decision } from '@/src/service/policy/index'

const P1 = '11111111-1111-4111-8111-111111111111'
const P2 = '22222222-2222-4222-8222-222222222222'
const gate = (id: string, name: string) => ({ policyId: id, name, effect: 'EFFECT_DENY' }) as GatePolicy
const denial = (ids: string[]): Decision => ({ outcome: 'OUTCOME_DENY_EXPLICIT', reason: 'EXPLICIT_DENY', policyIds: ids, evaluations: [] })
const serviceMessage = (ids: string[]) => policyDenied(denial(ids), [gate(P1, 'no exports'), gate(P2, "bob's limit (daily)")]).message
const errorInfo = (reason: string) => ({ '@type': 'type.googleapis.com/sigil.ErrorInfo', reason })

describe('Denied by policy', () => {
  it("names the policies of the service's denial message", () => {
    expect(deniedByPolicyText(serviceMessage([P1]))).toBe("Denied by policy 'no exports'.")
    expect(deniedByPolicyText(serviceMessage([P1, P2]))).toBe("Denied by policies 'no exports' and 'bob's limit (daily)'.")
    expect(deniedByPolicyText('activity denied by policy: OUTCOME_ERROR, a policy could not be evaluated within its budget')).toBe(
      'Denied by policy.',
    )
  })

  it('a 403 POLICY_DENIED from the service is the popup failure POLICY_DENIED with the policy name', () => {
    const err = new SigilRequestError(403, { code: 7, message: serviceMessage([P2]), details: [errorInfo('POLICY_DENIED')] })
    expect(toPopupFailure(err)).toEqual({ code: 'POLICY_DENIED', message: "Denied by policy 'bob's limit (daily)'." })
    const other = new SigilRequestError(403, { code: 7, message: 'no', details: [errorInfo('PERMISSION_DENIED')] })
    expect(toPopupFailure(other).code).toBe('REQUEST_FAILED')
  })
})

describe('who an activity waits for', () => {
  const evaluation = (outcomes: Array<[string, string]>) => ({
    id: 'e',
    activityId: 'a',
    organizationId: 'o',
    voteId: 'v',
    policyEvaluations: outcomes.map(([policyId, outcome]) => ({ policyId, outcome })),
    createdAt: { seconds: '1', nanos: '0' },
  })
  const policies = [
    { policyId: P1, policyName: 'two of three', consensus: "approvers.filter(u, u.id in ['u-carol', 'u-dave', 'u-x\\'y']).count() >= 2" },
  ]
  const userNames = new Map([
    ['u-carol', 'carol'],
    ['u-dave', 'dave'],
  ])

  it('reads string literals with their escapes', () => {
    expect(stringLiterals("a == 'x' && b in ['y\\'z', '\\\\']")).toEqual(['x', "y'z", '\\'])
  })

  it('names the users of the waiting policies, else the organization or its root quorum', () => {
    const e = [evaluation([[P1, 'OUTCOME_REQUIRES_CONSENSUS']])] as never
    expect(waitingFor(e, { policies, userNames })).toEqual({
      text: "Waiting for approval by carol or dave (policy 'two of three').",
      userIds: ['u-carol', 'u-dave'],
    })
    expect(waitingFor(e, { policies, userNames, me: 'u-dave' }).text).toBe("Waiting for approval by carol or you (policy 'two of three').")
    expect(waitingFor(e, {}).text).toBe('Waiting for approval by the organization.')
    expect(waitingFor(e, { policies }).text).toBe("Waiting for approval by the approvers it names (policy 'two of three').")
    expect(waitingFor([], { policies, userNames }).text).toBe('Waiting for approval by the organization’s root quorum.')
    expect(waitingFor([evaluation([[P1, 'OUTCOME_DENY_IMPLICIT']])] as never, { policies, userNames }).text).toBe(
      'Waiting for approval by the organization’s root quorum (no policy allows it).',
    )
  })
})

describe('listActivities with policies', () => {
  const ts = { seconds: '1700000000', nanos: '0' }
  const activity = (id: string, status: string, extra: Record<string, unknown> = {}) => ({
    id,
    organizationId: 'o',
    status,
    type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
    intent: {
      signRawPayloadIntentV2: {
        signWith: '0xabc',
        payload: 'ab',
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_NO_OP',
      },
    },
    result: {},
    votes: [{ userId: 'u-bob' }],
    fingerprint: `sha256:${id}`,
    canApprove: false,
    canReject: false,
    createdAt: ts,
    updatedAt: ts,
    ...extra,
  })
  const session = (userId: string) => ({ record: { organizationId: 'o', userId } }) as unknown as ActiveSession
  function client(opts: { policiesReadable: boolean }) {
    const calls: string[] = []
    const c = {
      listActivities: async () => ({
        activities: [
          activity('waiting', 'ACTIVITY_STATUS_CONSENSUS_NEEDED'),
          activity('denied', 'ACTIVITY_STATUS_FAILED', {
            failure: { code: 7, message: serviceMessage([P2]), details: [errorInfo('POLICY_DENIED')] },
          }),
          activity('done', 'ACTIVITY_STATUS_COMPLETED'),
        ],
      }),
      listPolicies: async () => {
        calls.push('listPolicies')
        if (!opts.policiesReadable) throw new SigilRequestError(403, { code: 7, message: 'no', details: [] })
        return { policies: [{ policyId: P1, policyName: 'carol co-signs', consensus: "approvers.any(u, u.id == 'u-carol')" }] }
      },
      listUsers: async () => ({ users: [{ userId: 'u-carol', userName: 'carol' }] }),
      getPolicyEvaluations: async ({ activityId }: { activityId: string }) => {
        calls.push(`getPolicyEvaluations ${activityId}`)
        return {
          policyEvaluations: [
            {
              id: 'e',
              activityId,
              organizationId: 'o',
              voteId: 'v',
              policyEvaluations: [{ policyId: P1, outcome: 'OUTCOME_REQUIRES_CONSENSUS' }],
              createdAt: ts,
            },
          ],
        }
      },
    }
    return { client: c as unknown as SigilClient, calls }
  }

  it('lets the user the waiting policy names vote, says who must approve, and names the denying policy', async () => {
    const { client: c, calls } = client({ policiesReadable: true })
    const { activities } = await listActivities(c, session('u-carol'))
    const byId = Object.fromEntries(activities.map((a) => [a.id, a]))
    expect(byId.waiting).toMatchObject({
      canApprove: true,
      canReject: true,
      waitingFor: "Waiting for approval by you (policy 'carol co-signs').",
    })
    expect(byId.denied?.failure).toBe("Denied by policy 'bob's limit (daily)'.")
    expect(byId.done?.waitingFor).toBeUndefined()
    // Evaluations are read for the waiting activity only.
    expect(calls.filter((x) => x.startsWith('getPolicyEvaluations'))).toEqual(['getPolicyEvaluations waiting'])
  })

  it('a user the policy does not name, or who already voted, is not asked; unreadable policies say "the organization"', async () => {
    const bob = await listActivities(client({ policiesReadable: true }).client, session('u-bob'))
    expect(bob.activities.find((a) => a.id === 'waiting')).toMatchObject({
      canApprove: false,
      waitingFor: "Waiting for approval by carol (policy 'carol co-signs').",
    })
    const carol = await listActivities(client({ policiesReadable: false }).client, session('u-carol'))
    expect(carol.activities.find((a) => a.id === 'waiting')).toMatchObject({
      canApprove: false,
      waitingFor: 'Waiting for approval by the organization.',
    })
  })
})
