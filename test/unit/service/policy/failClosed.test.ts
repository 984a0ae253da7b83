/**
 * What a policy evaluates is exactly what gets signed (one typed-data parse for
 * `eth.eip_712` and the signer), and an evaluation error on what a DENY policy reads denies.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { recoverTypedDataAddress } from 'viem'
import { privateKeyToAddress } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { SigilError } from '../../../../src/api/errors.js'
import { eip712FromPayload, readEip712 } from '../../../../src/chains/policy/eip712.js'
import { signRawPayload } from '../../../../src/chains/sign/raw.js'
import { readTypedData } from '../../../../src/chains/sign/typedData.js'
import { bytesToHex } from '../../../../src/crypto/encoding.js'
import { type DecisionPolicy, decide, parsePolicy, Unreadable } from '../../../../src/service/policy/index.js'
import type { PolicyContext } from '../../../../src/service/policy/types/namespaces.js'
import { MAIL_TYPED_DATA, usdcPermit } from '../../../helpers/typedData.js'

function policy(policyId: string, effect: 'EFFECT_ALLOW' | 'EFFECT_DENY', condition: string): DecisionPolicy {
  const r = parsePolicy({ condition })
  if (!r.ok) throw new Error(r.error.message)
  return { policyId, effect, parsed: r.policy }
}

const base: PolicyContext = {
  approvers: [{ id: 'bob', tags: [] }],
  credentials: [],
  activity: { type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', kind: 'SIGN_RAW_PAYLOAD', resource: 'PRIVATE_KEY', action: 'SIGN', params: {} },
  now: new Date('2026-03-10T15:00:00Z'),
}
const ALLOW_SIGN = policy('allow-sign', 'EFFECT_ALLOW', "activity.action == 'SIGN'")
const NO_PERMITS = policy('no-permits', 'EFFECT_DENY', "eth.eip_712.primary_type == 'Permit'")

const key = secp256k1.utils.randomSecretKey()
const owner = '0x88D3Ea1921950C2DD3084614FA8F989DBECcA371'
const permit = (value = (2n ** 256n - 1n).toString()) =>
  usdcPermit({ verifyingContract: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', owner, spender: owner, value, deadline: '1900000000' })
const sign = (payload: string) =>
  signRawPayload({
    privateKey: key,
    curve: 'CURVE_SECP256K1',
    payload,
    encoding: 'PAYLOAD_ENCODING_EIP712',
    hashFunction: 'HASH_FUNCTION_NO_OP',
  })

function nested(levels: number): unknown {
  let v: unknown = 'x'
  for (let i = 0; i < levels; i++) v = { junk: v }
  return v
}

/** The signer's answer: the signature, or the field its INVALID_ARGUMENT names. */
function signOrField(payload: string): string {
  try {
    const s = sign(payload)
    return `signed ${s.r}`
  } catch (e) {
    expect(e).toBeInstanceOf(SigilError)
    expect((e as SigilError).httpStatus).toBe(400)
    return `refused ${(e as SigilError).message.split(':')[0]}`
  }
}

describe('decide: a DENY policy that errs on what the activity carries denies', () => {
  it('a TYPE_MISMATCH in a DENY denies (OUTCOME_ERROR, DENY_POLICY_ERROR), even when an ALLOW applies', () => {
    const erring = policy('erring', 'EFFECT_DENY', "eth.eip_712.message['contents'] > 5")
    const ctx: PolicyContext = { ...base, eth: { eip_712: { primary_type: 'Mail', domain: {}, message: { contents: 'hi' } } } }
    const d = decide([ALLOW_SIGN, erring], ctx, { rootQuorum: false })
    expect(d).toMatchObject({ outcome: 'OUTCOME_ERROR', reason: 'DENY_POLICY_ERROR', policyIds: ['erring'] })
    expect(d.evaluations[1]).toMatchObject({ outcome: 'OUTCOME_ERROR', error: { code: 'TYPE_MISMATCH' } })
    // An ALLOW that errs the same way only does not allow.
    const allowErr = policy('allow-err', 'EFFECT_ALLOW', "eth.eip_712.message['contents'] > 5")
    expect(decide([allowErr], ctx, { rootQuorum: false }).outcome).toBe('OUTCOME_DENY_IMPLICIT')
  })

  it('an unreadable namespace is UNREADABLE_FIELD: a DENY reading it denies, an ALLOW reading it does not allow', () => {
    const ctx: PolicyContext = { ...base, eth: { eip_712: new Unreadable('does not parse') } }
    const d = decide([ALLOW_SIGN, NO_PERMITS], ctx, { rootQuorum: false })
    expect(d).toMatchObject({ outcome: 'OUTCOME_ERROR', reason: 'DENY_POLICY_ERROR', policyIds: ['no-permits'] })
    expect(d.evaluations[1]).toMatchObject({ outcome: 'OUTCOME_ERROR', error: { code: 'UNREADABLE_FIELD' } })
    const allowPermits = policy('allow-permits', 'EFFECT_ALLOW', "eth.eip_712.primary_type == 'Permit'")
    expect(decide([allowPermits], ctx, { rootQuorum: false }).outcome).toBe('OUTCOME_DENY_IMPLICIT')
    // Compared whole, it is unreadable too (never equal to anything by accident).
    expect(decide([ALLOW_SIGN, policy('whole', 'EFFECT_DENY', 'eth == eth')], ctx, { rootQuorum: false }).outcome).toBe('OUTCOME_ERROR')
  })

  it('a DENY over a namespace the activity does not carry (MISSING_FIELD) does not apply', () => {
    const d = decide([ALLOW_SIGN, NO_PERMITS], base, { rootQuorum: false })
    expect(d).toMatchObject({ outcome: 'OUTCOME_ALLOW', reason: 'POLICY_ALLOW' })
    expect(d.evaluations[1]).toMatchObject({ outcome: 'OUTCOME_ERROR', error: { code: 'MISSING_FIELD' } })
  })

  it('an explicit deny still names the denying policy first', () => {
    const erring = policy('erring', 'EFFECT_DENY', "eth.eip_712.message['contents'] > 5")
    const ctx: PolicyContext = { ...base, eth: { eip_712: { primary_type: 'Permit', domain: {}, message: { contents: 'hi' } } } }
    expect(decide([NO_PERMITS, erring], ctx, { rootQuorum: false })).toMatchObject({
      outcome: 'OUTCOME_DENY_EXPLICIT',
      policyIds: ['no-permits'],
    })
  })
})

describe('one typed-data parse: the policy facts and the signer agree', () => {
  it('a junk member nested 40 levels deep (beside types or in message) is refused by both, naming the payload', () => {
    for (const doc of [
      { ...permit(), junk: nested(40) },
      { ...permit(), message: { ...permit().message, junk: nested(40) } },
      { ...permit(), domain: { ...permit().domain, junk: nested(40) } },
    ]) {
      const payload = JSON.stringify(doc)
      expect(eip712FromPayload(payload)).toBeUndefined()
      expect(readEip712(payload)).toMatchObject({ ok: false, problem: expect.stringContaining('nested deeper than 32') })
      expect(signOrField(payload)).toBe('refused payload')
    }
  })

  it('a shallow member beside the four is dropped: evaluated as, and signed as, the plain typed data', async () => {
    const plain = JSON.stringify(permit())
    const extra = JSON.stringify({ ...permit(), junk: nested(3), primaryTypeAlias: 'Mail' })
    expect(eip712FromPayload(extra)).toEqual(eip712FromPayload(plain))
    expect(eip712FromPayload(extra)?.primary_type).toBe('Permit')
    const sig = sign(extra)
    expect(sig).toEqual(sign(plain))
    const signature = `0x${sig.r}${sig.s}${(27 + Number.parseInt(sig.v, 16)).toString(16)}` as `0x${string}`
    expect(await recoverTypedDataAddress({ ...(permit() as unknown as Parameters<typeof recoverTypedDataAddress>[0]), signature })).toBe(
      privateKeyToAddress(`0x${bytesToHex(key)}`),
    )
  })

  it('a value only a lenient reader takes is refused by both (the facts never miss what is signed)', () => {
    const cases: Array<[string, unknown]> = [
      ['spaces around an integer', ` ${(2n ** 256n - 1n).toString()} `],
      ['a binary literal', '0b1111'],
      ['an exponent', '1e30'],
      ['an unsafe JSON number', 1e30],
      ['an integer out of range', (2n ** 256n).toString()],
      ['a negative uint', '-1'],
      ['a boolean for an integer', true],
    ]
    for (const [what, value] of cases) {
      const payload = JSON.stringify({ ...permit(), message: { ...permit().message, value } })
      expect(eip712FromPayload(payload), what).toBeUndefined()
      expect(signOrField(payload), what).toBe('refused payload')
    }
    // A member the type does not declare, or a declared member that is missing, is refused by both.
    const undeclared = JSON.stringify({ ...permit(), message: { ...permit().message, extra: 1 } })
    const { deadline: _d, ...withoutDeadline } = permit().message
    const missing = JSON.stringify({ ...permit(), message: withoutDeadline })
    for (const payload of [undeclared, missing]) {
      expect(eip712FromPayload(payload)).toBeUndefined()
      expect(signOrField(payload)).toBe('refused payload')
    }
  })

  it('what the facts read is the canonical object the signer hashes (integers as bigints, hex lower case)', () => {
    const r = readTypedData(JSON.stringify(permit('0x0f4240')))
    if (!r.ok) throw new Error(r.problem)
    expect(r.value.typed.message).toMatchObject({ value: 1_000_000n, owner: owner.toLowerCase(), nonce: 0n })
    expect(r.value.facts.message).toMatchObject({ value: 1_000_000n, owner: owner.toLowerCase() })
    expect(Object.keys(r.value.typed)).toEqual(['types', 'primaryType', 'domain', 'message'])
    // The same value written another way is the same signature.
    expect(sign(JSON.stringify(permit('0x0f4240')))).toEqual(sign(JSON.stringify(permit('1000000'))))
    expect(signOrField(JSON.stringify(MAIL_TYPED_DATA))).toMatch(/^signed [0-9a-f]{64}$/)
  })
})
