/**
 * What a policy evaluates is exactly what gets signed, and an evaluation error
 * on what a DENY policy reads denies. Through the official `@turnkey/http` client, a user outside
 * the root quorum whose policies allow signing but deny `eth.eip_712.primary_type == 'Permit'`:
 * a Permit carrying a junk member nested 40 levels deep (beside `types`, or inside `message`), or a
 * value only the signer would read, is never signed; a DENY that errors on typed data the activity
 * carries denies, while a DENY over a namespace the activity does not carry still does not apply.
 */
import type { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAIL_TYPED_DATA, usdcPermit } from '../helpers/typedData.js'
import { type PolicyOrg, policyOutcome, startPolicyOrg, type TestPolicy, withPolicies } from './helpers/policyOrg.js'
import { submitBody, type TestService } from './helpers/service.js'

let org: PolicyOrg<'bob'>
let svc: TestService
let bob: TurnkeyClient
let bobId: string
let root: string
let eth: string
let bobKey: PolicyOrg<'bob'>['keys']['bob']

const SPENDER = '0x52908400098527886E0F7030069857D2E4169EE7'
const USDC = '0xA0b86991c6218b36c1d19d4a2e9eB0cE3606eB48'
const MAX_UINT256 = (2n ** 256n - 1n).toString()
const now = () => String(Date.now())

beforeAll(async () => {
  org = await startPolicyOrg(['bob'], 'signer')
  ;({ svc, root } = org)
  bob = org.clients.bob
  bobId = org.ids.bob
  bobKey = org.keys.bob
  eth = org.address
})
afterAll(async () => {
  await svc?.stop()
})

type Policy = TestPolicy

/** Bob may sign anything. */
const BOB_SIGNS = (): Policy => ({
  name: 'bob signs',
  effect: 'EFFECT_ALLOW',
  condition: "activity.action == 'SIGN'",
  consensus: `approvers.any(u, u.id == '${bobId}')`,
})

/** Bob may sign anything; typed data whose primary type is Permit is denied. */
const SIGNING_AND_NO_PERMITS = (): Policy[] => [
  BOB_SIGNS(),
  { name: 'no permits', effect: 'EFFECT_DENY', condition: "eth.eip_712.primary_type == 'Permit'" },
]

const permit = (value = MAX_UINT256) => usdcPermit({ verifyingContract: USDC, owner: eth, spender: SPENDER, value, deadline: '1900000000' })

/** `{"junk": {"junk": … 'x' …}}`, `levels` objects deep. */
function nested(levels: number): unknown {
  let v: unknown = 'x'
  for (let i = 0; i < levels; i++) v = { junk: v }
  return v
}

const signTyped = (payload: string) =>
  bob.signRawPayload({
    type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
    timestampMs: now(),
    organizationId: root,
    parameters: { signWith: eth, payload, encoding: 'PAYLOAD_ENCODING_EIP712', hashFunction: 'HASH_FUNCTION_NO_OP' },
  })

/**
 * Submits the payload as Bob (raw request through his stamp, so the refusal's body can be read)
 * and expects it refused: 403 POLICY_DENIED, or 400 INVALID_ARGUMENT naming `field`. Never a
 * signature, never a 500.
 */
async function expectRefused(type: string, parameters: Record<string, unknown>, field: string) {
  const path = type === 'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS' ? 'sign_raw_payloads' : 'sign_raw_payload'
  const r = await svc.post(`/public/v1/submit/${path}`, submitBody(type, root, parameters), bobKey.stamper)
  expect(r.status, JSON.stringify(r.json).slice(0, 400)).not.toBe(200)
  expect(r.status).not.toBe(500)
  expect(JSON.stringify(r.json)).not.toMatch(/"r":"[0-9a-f]{64}"/)
  const reasons = (r.json.details ?? []).map((d: { reason?: string }) => d.reason).filter(Boolean)
  if (r.status === 403) {
    expect(reasons).toContain('POLICY_DENIED')
  } else {
    expect(r.status).toBe(400)
    expect(reasons).toContain('INVALID_ARGUMENT')
    expect(String(r.json.message)).toContain(field)
  }
  return r
}

describe('typed data a DENY policy reads cannot be hidden from it', () => {
  it('a plain Permit is denied and a Mail is signed (the policies work)', async () => {
    await withPolicies(org, SIGNING_AND_NO_PERMITS(), async ([, deny]) => {
      const denied = await signTyped(JSON.stringify(permit())).catch((e) => e)
      expect(denied).toMatchObject({ code: 7 })
      expect(String(denied.message)).toContain('no permits')
      const mail = await signTyped(JSON.stringify(MAIL_TYPED_DATA))
      expect(mail.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
      expect(mail.activity.result.signRawPayloadResult?.r).toMatch(/^[0-9a-f]{64}$/)
      expect(await policyOutcome(org, mail.activity.id, deny as string)).toBe('OUTCOME_DENY_IMPLICIT')
    })
  })

  it('a Permit with a junk member 40 levels deep beside types is refused, never signed', async () => {
    await withPolicies(org, SIGNING_AND_NO_PERMITS(), async () => {
      const payload = JSON.stringify({ ...permit(), junk: nested(40) })
      const viaClient = await signTyped(payload).catch((e) => e)
      expect(viaClient.activity?.result?.signRawPayloadResult).toBeUndefined()
      expect([3, 7]).toContain(viaClient.code)
      await expectRefused(
        'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
        { signWith: eth, payload, encoding: 'PAYLOAD_ENCODING_EIP712', hashFunction: 'HASH_FUNCTION_NO_OP' },
        'parameters.payload',
      )
    })
  })

  it('a Permit with a junk member 40 levels deep inside message, or in a batch, is refused, never signed', async () => {
    await withPolicies(org, SIGNING_AND_NO_PERMITS(), async () => {
      const p = permit()
      const inMessage = JSON.stringify({ ...p, message: { ...p.message, junk: nested(40) } })
      await expectRefused(
        'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
        { signWith: eth, payload: inMessage, encoding: 'PAYLOAD_ENCODING_EIP712', hashFunction: 'HASH_FUNCTION_NO_OP' },
        'parameters.payload',
      )
      const beside = JSON.stringify({ ...p, junk: nested(40) })
      await expectRefused(
        'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS',
        {
          signWith: eth,
          payloads: [JSON.stringify(MAIL_TYPED_DATA), beside],
          encoding: 'PAYLOAD_ENCODING_EIP712',
          hashFunction: 'HASH_FUNCTION_NO_OP',
        },
        'parameters.payloads[1]',
      )
    })
  })

  it('a Permit whose amount only the signer would read (an integer with spaces) is refused, never signed', async () => {
    const condition = "eth.eip_712.primary_type == 'Permit' && eth.eip_712.message['value'] > 1000000"
    await withPolicies(org, [BOB_SIGNS(), { name: 'permits up to 1 USDC', effect: 'EFFECT_DENY', condition }], async () => {
      // The limit applies to a plain Permit…
      const big = await signTyped(JSON.stringify(permit())).catch((e) => e)
      expect(big).toMatchObject({ code: 7 })
      expect((await signTyped(JSON.stringify(permit('1000')))).activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
      // …and to one whose value is written so that only a lenient reader takes it.
      await expectRefused(
        'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
        {
          signWith: eth,
          payload: JSON.stringify(permit(` ${MAX_UINT256} `)),
          encoding: 'PAYLOAD_ENCODING_EIP712',
          hashFunction: 'HASH_FUNCTION_NO_OP',
        },
        'parameters.payload',
      )
    })
  })
})

describe('an evaluation error on what a DENY policy reads denies (fail closed)', () => {
  it('a DENY comparing a typed-data member of another type errors and denies; the ALLOW still allows what it does not read', async () => {
    // `contents` is a string in the Ether Mail: ordering it against an int is a TYPE_MISMATCH.
    const condition = "eth.eip_712.message['contents'] > 5"
    await withPolicies(org, [BOB_SIGNS(), { name: 'erroring deny', effect: 'EFFECT_DENY', condition }], async ([allow, deny]) => {
      const r = await svc.post(
        '/public/v1/submit/sign_raw_payload',
        submitBody('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', root, {
          signWith: eth,
          payload: JSON.stringify(MAIL_TYPED_DATA),
          encoding: 'PAYLOAD_ENCODING_EIP712',
          hashFunction: 'HASH_FUNCTION_NO_OP',
        }),
        bobKey.stamper,
      )
      expect(r.status).toBe(403)
      expect(JSON.stringify(r.json)).toContain('POLICY_DENIED')
      expect(String(r.json.message)).toContain('erroring deny')
      const activity = r.json.details.find((d: { '@type': string }) => d['@type'] === 'type.googleapis.com/sigil.ActivityInfo')
      expect(activity.status).toBe('ACTIVITY_STATUS_FAILED')
      expect(await policyOutcome(org, activity.activityId, deny as string)).toBe('OUTCOME_ERROR')
      expect(await policyOutcome(org, activity.activityId, allow as string)).toBe('OUTCOME_ALLOW')
      // A hex payload does not carry eth.eip_712 at all: the DENY does not apply to it (MISSING_FIELD).
      const hex = await bob.signRawPayload({
        type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
        timestampMs: now(),
        organizationId: root,
        parameters: {
          signWith: eth,
          payload: 'ab'.repeat(32),
          encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
          hashFunction: 'HASH_FUNCTION_NO_OP',
        },
      })
      expect(hex.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
      expect(await policyOutcome(org, hex.activity.id, deny as string)).toBe('OUTCOME_ERROR')
    })
  })

  it('typed data the policy reader cannot read denies under a DENY reading eth.eip_712, with no 500', async () => {
    await withPolicies(org, SIGNING_AND_NO_PERMITS(), async ([, deny]) => {
      // Too deep for the reader even as a Mail (no Permit in sight): refused, not signed.
      const mail = JSON.stringify({ ...MAIL_TYPED_DATA, extra: nested(40) })
      const r = await expectRefused(
        'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
        { signWith: eth, payload: mail, encoding: 'PAYLOAD_ENCODING_EIP712', hashFunction: 'HASH_FUNCTION_NO_OP' },
        'parameters.payload',
      )
      if (r.status === 403) {
        const activity = r.json.details.find((d: { '@type': string }) => d['@type'] === 'type.googleapis.com/sigil.ActivityInfo')
        expect(await policyOutcome(org, activity.activityId, deny as string)).toBe('OUTCOME_ERROR')
      }
    })
  })
})
