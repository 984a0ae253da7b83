/**
 * The EIP-7702 delegation a send may make, as policies see it (src/service/policy/context.ts): a
 * batch eth_send_transaction (several calls, or `sponsor: true`) carries its network's Gas Station
 * as `eth.eip_7702_authorization` and as `eth.tx.authorization_list` on every per-call context; an
 * eth_undelegate_7702 carries the zero address; one unsponsored call carries neither. The nonce is
 * there only when the intent fixes it, and a policy reading an absent one does not apply.
 */
import { describe, expect, it } from 'vitest'
import { gasStationsOf, resourceContexts, sendDelegation } from '../../../../src/service/policy/context'
import { type DecisionPolicy, decide, parsePolicy, Unreadable } from '../../../../src/service/policy/index'
import type { PolicyContext } from '../../../../src/service/policy/types/namespaces'
import type { Sql } from '../../../../src/service/store/sql'
import type { Network } from '../../../../src/chains/networks'

const GAS_STATION = '0x5fbdb2315678afecb367f032d93f642f64180aa3'
const FROM = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const A = '0x1111111111111111111111111111111111111111'
const B = '0x2222222222222222222222222222222222222222'
const ZERO = '0x0000000000000000000000000000000000000000'
const CAIP2 = 'eip155:31337'
/** A configured network without a Gas Station. */
const BARE = 'eip155:5'

const networks = [
  { caip2: CAIP2, family: 'evm', gasStation: GAS_STATION },
  { caip2: BARE, family: 'evm' },
] as unknown as Network[]
const gasStationOf = gasStationsOf(networks)

/** A database with no accounts, wallets or uploaded interfaces (every query answers no rows). */
const empty: Sql = { query: async () => [] } as unknown as Sql

const send = (type: string, p: Record<string, unknown>) => resourceContexts(empty, 'org', type, p, new Set(['eth']), gasStationOf)
const V2 = 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2'
const V1 = 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION'
const UNDELEGATE = 'ACTIVITY_TYPE_ETH_UNDELEGATE_7702'

function policy(policyId: string, effect: DecisionPolicy['effect'], condition: string): DecisionPolicy {
  const r = parsePolicy({ condition })
  if (!r.ok) throw new Error(r.error.message)
  return { policyId, effect, parsed: r.policy }
}

/** The strictest decision over the contexts, as gate.ts keeps it. */
function outcome(policies: DecisionPolicy[], contexts: Awaited<ReturnType<typeof send>>): string {
  const order = ['OUTCOME_ALLOW', 'OUTCOME_REQUIRES_CONSENSUS', 'OUTCOME_DENY_IMPLICIT', 'OUTCOME_ERROR', 'OUTCOME_DENY_EXPLICIT']
  let worst = 0
  for (const c of contexts) {
    const ctx: PolicyContext = { approvers: [], credentials: [], now: new Date(0), ...c }
    worst = Math.max(worst, order.indexOf(decide(policies, ctx, { rootQuorum: false }).outcome))
  }
  return order[worst] as string
}

describe('sendDelegation', () => {
  it('a batch of several calls delegates to its network Gas Station, without a nonce', () => {
    const d = sendDelegation(V2, { from: FROM, caip2: CAIP2, calls: [{ to: A }, { to: B }] }, gasStationOf)
    expect(d).toEqual({ address: GAS_STATION, chain_id: 31337n })
    expect(d).not.toHaveProperty('nonce')
  })

  it('a sponsored single call is a batch too (V1 and V2); its nonce is never the intent one', () => {
    expect(sendDelegation(V1, { from: FROM, caip2: CAIP2, to: A, sponsor: true, nonce: '4' }, gasStationOf)).toEqual({
      address: GAS_STATION,
      chain_id: 31337n,
    })
    expect(sendDelegation(V2, { from: FROM, caip2: CAIP2, calls: [{ to: A }], sponsor: true }, gasStationOf)).toEqual({
      address: GAS_STATION,
      chain_id: 31337n,
    })
  })

  it('an unsponsored batch sent at the intent nonce authorizes at the next one', () => {
    expect(sendDelegation(V2, { caip2: CAIP2, nonce: '0x9', calls: [{ to: A }, { to: B }] }, gasStationOf)).toEqual({
      address: GAS_STATION,
      chain_id: 31337n,
      nonce: 10n,
    })
  })

  it('one unsponsored call, a network without a Gas Station, and other activities make none', () => {
    expect(sendDelegation(V2, { caip2: CAIP2, calls: [{ to: A }] }, gasStationOf)).toBeUndefined()
    expect(sendDelegation(V1, { caip2: CAIP2, to: A }, gasStationOf)).toBeUndefined()
    expect(sendDelegation(V2, { caip2: BARE, calls: [{ to: A }, { to: B }] }, gasStationOf)).toBeUndefined()
    expect(sendDelegation(V2, { caip2: 'eip155:999', calls: [{ to: A }, { to: B }] }, gasStationOf)).toBeUndefined()
    expect(sendDelegation('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { caip2: CAIP2 }, gasStationOf)).toBeUndefined()
  })

  it('an undelegation delegates to the zero address, with the nonce after an intent one', () => {
    expect(sendDelegation(UNDELEGATE, { from: FROM, caip2: CAIP2 }, undefined)).toEqual({ address: ZERO, chain_id: 31337n })
    expect(sendDelegation(UNDELEGATE, { from: FROM, caip2: CAIP2, nonce: '3' }, undefined)).toEqual({
      address: ZERO,
      chain_id: 31337n,
      nonce: 4n,
    })
  })

  it('is unreadable, never absent, when the delegate or its chain cannot be known', () => {
    expect(sendDelegation(V2, { caip2: CAIP2, calls: [{ to: A }, { to: B }] }, undefined)).toBeInstanceOf(Unreadable)
    expect(sendDelegation(UNDELEGATE, { from: FROM, caip2: 'solana:x' }, undefined)).toBeInstanceOf(Unreadable)
  })
})

describe('the contexts of a send', () => {
  it('every call of a batch carries the delegation in eth.eip_7702_authorization and eth.tx.authorization_list', async () => {
    const contexts = await send(V2, { from: FROM, caip2: CAIP2, calls: [{ to: A, value: '1' }, { to: B }] })
    expect(contexts).toHaveLength(2)
    for (const [i, c] of contexts.entries()) {
      expect(c.eth?.eip_7702_authorization).toEqual({ address: GAS_STATION, chain_id: 31337n })
      expect(c.eth?.tx).toMatchObject({
        to: [A, B][i],
        type: 'TYPE_4',
        authorization_list: [{ address: GAS_STATION, chain_id: 31337n }],
      })
    }
  })

  it('one unsponsored call is a type-2 transaction with no delegation', async () => {
    const [c, ...rest] = await send(V2, { from: FROM, caip2: CAIP2, calls: [{ to: A, value: '1' }] })
    expect(rest).toEqual([])
    expect(c?.eth?.eip_7702_authorization).toBeUndefined()
    expect(c?.eth?.tx).toMatchObject({ to: A, type: 'TYPE_2' })
    expect(c?.eth?.tx).not.toHaveProperty('authorization_list')
  })

  it('an undelegation is a type-4 transaction to the account itself, delegating to the zero address', async () => {
    const [c] = await send(UNDELEGATE, { from: FROM, caip2: CAIP2 })
    expect(c?.eth?.eip_7702_authorization).toEqual({ address: ZERO, chain_id: 31337n })
    expect(c?.eth?.tx).toMatchObject({ from: FROM, to: FROM, type: 'TYPE_4', authorization_list: [{ address: ZERO, chain_id: 31337n }] })
  })

  it('without the network lookup, a batch is unreadable: a DENY on its delegate denies', async () => {
    const contexts = await resourceContexts(empty, 'org', V2, { from: FROM, caip2: CAIP2, calls: [{ to: A }, { to: B }] }, new Set(['eth']))
    expect(contexts[0]?.eth?.eip_7702_authorization).toBeInstanceOf(Unreadable)
    expect(contexts[0]?.eth?.tx).toBeInstanceOf(Unreadable)
    const deny = policy('d', 'EFFECT_DENY', `eth.eip_7702_authorization.address == '${GAS_STATION}'`)
    expect(outcome([deny], contexts)).not.toBe('OUTCOME_ALLOW')
    expect(['OUTCOME_DENY_EXPLICIT', 'OUTCOME_ERROR']).toContain(outcome([deny], contexts))
  })
})

describe('policies over the delegation of a send', () => {
  const batch = { from: FROM, caip2: CAIP2, calls: [{ to: A }, { to: B }] }
  const single = { from: FROM, caip2: CAIP2, calls: [{ to: A }] }
  const denyGasStation = policy('deny-gs', 'EFFECT_DENY', `eth.eip_7702_authorization.address == '${GAS_STATION}'`)
  const allowAll = policy('allow', 'EFFECT_ALLOW', 'true')

  it('a DENY of the Gas Station denies a batch and a sponsored call, not one plain call', async () => {
    expect(outcome([allowAll, denyGasStation], await send(V2, batch))).toBe('OUTCOME_DENY_EXPLICIT')
    expect(outcome([allowAll, denyGasStation], await send(V1, { from: FROM, caip2: CAIP2, to: A, sponsor: true }))).toBe(
      'OUTCOME_DENY_EXPLICIT',
    )
    expect(outcome([allowAll, denyGasStation], await send(V2, single))).toBe('OUTCOME_ALLOW')
  })

  it('a DENY on eth.tx.authorization_list sees the same delegate', async () => {
    const deny = policy('deny-list', 'EFFECT_DENY', `eth.tx.authorization_list.any(a, a.address == '${GAS_STATION}')`)
    expect(outcome([allowAll, deny], await send(V2, batch))).toBe('OUTCOME_DENY_EXPLICIT')
    expect(outcome([allowAll, deny], await send(V2, single))).toBe('OUTCOME_ALLOW')
  })

  it('an ALLOW of the Gas Station only lets a batch through, and not a batch to another delegate', async () => {
    const allowGs = policy('allow-gs', 'EFFECT_ALLOW', `eth.eip_7702_authorization.address == '${GAS_STATION}'`)
    expect(outcome([allowGs], await send(V2, batch))).toBe('OUTCOME_ALLOW')
    const elsewhere = gasStationsOf([{ caip2: CAIP2, family: 'evm', gasStation: A }] as unknown as Network[])
    const other = await resourceContexts(empty, 'org', V2, batch, new Set(['eth']), elsewhere)
    expect(outcome([allowGs], other)).toBe('OUTCOME_DENY_IMPLICIT')
  })

  it('a DENY of the zero address denies an undelegation, not a batch', async () => {
    const denyZero = policy('deny-zero', 'EFFECT_DENY', `eth.eip_7702_authorization.address == '${ZERO}'`)
    expect(outcome([allowAll, denyZero], await send(UNDELEGATE, { from: FROM, caip2: CAIP2 }))).toBe('OUTCOME_DENY_EXPLICIT')
    expect(outcome([allowAll, denyZero], await send(V2, batch))).toBe('OUTCOME_ALLOW')
  })

  it('a policy reading the absent nonce: a DENY does not apply, an ALLOW does not allow', async () => {
    const denyNonce = policy('deny-nonce', 'EFFECT_DENY', 'eth.eip_7702_authorization.nonce == 0')
    const allowNonce = policy('allow-nonce', 'EFFECT_ALLOW', 'eth.eip_7702_authorization.nonce >= 0')
    expect(outcome([allowAll, denyNonce], await send(V2, batch))).toBe('OUTCOME_ALLOW')
    expect(outcome([allowNonce], await send(V2, batch))).not.toBe('OUTCOME_ALLOW')
    // A nonce the intent fixes is read.
    const pinned = await send(V2, { ...batch, nonce: '0' })
    expect(pinned[0]?.eth?.eip_7702_authorization).toEqual({ address: GAS_STATION, chain_id: 31337n, nonce: 1n })
    expect(outcome([allowNonce], pinned)).toBe('OUTCOME_ALLOW')
  })
})
