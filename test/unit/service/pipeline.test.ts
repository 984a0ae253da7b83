/**
 * The request steps of the service's one pipeline that need no database (src/service/http/dispatch.ts):
 * operation lookup, I-JSON, `type` first, envelope, parameters. The service runs exactly these.
 */
import { describe, expect, it } from 'vitest'
import { SigilError } from '../../../src/api/errors.js'
import { readParameters, readQuery, readQueryRequest, readSubmit } from '../../../src/service/http/dispatch.js'
import { parseRequestJson } from '../../../src/service/http/json.js'
import { ORG, onRampParams, subOrgParams } from '../api/fixtures.js'

const enc = (v: unknown) => new TextEncoder().encode(typeof v === 'string' ? v : JSON.stringify(v))

function thrown(fn: () => unknown): SigilError {
  try {
    fn()
  } catch (e) {
    expect(e).toBeInstanceOf(SigilError)
    return e as SigilError
  }
  throw new Error('expected a SigilError')
}

const body = (type: string, parameters: Record<string, unknown>) => ({
  parameters,
  organizationId: ORG,
  timestampMs: '1767225600000',
  type,
})

describe('pipeline: submit', () => {
  it('resolves a type valid for the path', () => {
    const raw = (t: string) => enc(body(t, { otpId: 'o', otpCode: 'c' }))
    expect(readSubmit('/public/v1/submit/verify_otp', raw('ACTIVITY_TYPE_VERIFY_OTP')).definition.name).toBe('verify_otp_v1')
    expect(readSubmit('/public/v1/submit/verify_otp', raw('ACTIVITY_TYPE_VERIFY_OTP_V2')).definition.name).toBe('verify_otp')
  })

  it('rejects a type that belongs to another path, naming type', () => {
    const err = thrown(() => readSubmit('/public/v1/submit/create_wallet', enc(body('ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', {}))))
    expect(err.code).toBe('UNKNOWN_ACTIVITY_TYPE')
    expect(err.httpStatus).toBe(400)
    expect(err.message).toMatch(/^type: /)
    expect(err.fieldViolations[0]?.field).toBe('type')
  })

  it('rejects an unknown type, a missing one and a known type not accepted on the path', () => {
    const path = '/public/v1/submit/create_wallet'
    expect(thrown(() => readSubmit(path, enc(body('ACTIVITY_TYPE_NOPE', {})))).message).toBe('type: unknown activity type')
    expect(
      thrown(() => readSubmit('/public/v1/submit/create_sub_organization', enc(body('ACTIVITY_TYPE_CREATE_ORGANIZATION_V2', {})))).code,
    ).toBe('UNKNOWN_ACTIVITY_TYPE')
    expect(thrown(() => readSubmit(path, enc({ organizationId: ORG }))).message).toBe('type: required')
  })

  it('unknown paths are NOT_FOUND', () => {
    expect(thrown(() => readSubmit('/public/v1/submit/mint', enc(body('ACTIVITY_TYPE_CREATE_WALLET', {})))).code).toBe('NOT_FOUND')
    expect(thrown(() => readQuery('/public/v1/query/nope', enc({ organizationId: ORG }))).code).toBe('NOT_FOUND')
  })

  it('parses a full submit body; unknown parameter keys are stripped', () => {
    const raw = { ...subOrgParams(), futureField: 'kept' }
    const req = readSubmit('/public/v1/submit/create_sub_organization', enc(body('ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', raw)))
    expect(req.definition.intentKey).toBe('createSubOrganizationIntentV8')
    expect(req.envelope.parameters).toEqual(raw)
    expect(readParameters(req.definition, req.envelope)).not.toHaveProperty('futureField')
  })

  it('names parameters.<field> when parameters are invalid', () => {
    const p = onRampParams()
    delete p.countrySubdivisionCode
    const req = readSubmit('/public/v1/submit/init_fiat_on_ramp', enc(body('ACTIVITY_TYPE_INIT_FIAT_ON_RAMP', p)))
    expect(thrown(() => readParameters(req.definition, req.envelope)).message).toBe(
      'parameters.countrySubdivisionCode: required when countryCode is US',
    )
  })

  it('checks the type before the rest of the envelope, and rejects non-objects', () => {
    const path = '/public/v1/submit/create_wallet'
    expect(thrown(() => readSubmit(path, enc({ type: 'ACTIVITY_TYPE_X' }))).code).toBe('UNKNOWN_ACTIVITY_TYPE')
    const env = thrown(() => readSubmit(path, enc({ type: 'ACTIVITY_TYPE_CREATE_WALLET', parameters: {} })))
    expect(env.message).toMatch(/^(timestampMs|organizationId): required$/)
    expect(thrown(() => readSubmit(path, enc([]))).code).toBe('INVALID_ARGUMENT')
  })
})

describe('pipeline: query', () => {
  it('parses query bodies', () => {
    const q = readQuery('/public/v1/query/get_activity', enc({ organizationId: ORG, activityId: 'a1' }))
    expect(readQueryRequest(q.definition, q.json)).toEqual({ organizationId: ORG, activityId: 'a1' })
    const missing = readQuery('/public/v1/query/get_activity', enc({ organizationId: ORG }))
    expect(thrown(() => readQueryRequest(missing.definition, missing.json)).message).toBe('activityId: required')
  })
})

describe('I-JSON request bodies (RFC 7493)', () => {
  const refused = (raw: Uint8Array | string) => thrown(() => parseRequestJson(typeof raw === 'string' ? enc(raw) : raw))

  it('refuses duplicate member names, naming the member, at any depth', () => {
    const top = refused('{"organizationId":"a","organizationId":"b"}')
    expect([top.code, top.httpStatus, top.fieldViolations[0]?.field]).toEqual(['INVALID_JSON', 400, 'organizationId'])
    const deep = refused('{"parameters":{"users":[{"userName":"a","userName":"b"}]}}')
    expect(deep.fieldViolations[0]?.field).toBe('parameters.users[0].userName')
    // The same name in two different objects is fine.
    expect(parseRequestJson(enc('{"a":{"x":1},"b":{"x":2}}'))).toEqual({ a: { x: 1 }, b: { x: 2 } })
  })

  it('refuses a leading byte order mark, invalid UTF-8 and NUL', () => {
    expect(refused(new Uint8Array([0xef, 0xbb, 0xbf, ...enc('{}')])).message).toMatch(/byte order mark/)
    expect(refused(new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d])).message).toMatch(/UTF-8/)
    expect(refused('{"a":"x\\u0000"}').fieldViolations[0]?.field).toBe('a')
  })

  it('refuses lone surrogates in values and member names; a pair (an emoji) is fine', () => {
    const v = refused('{"parameters":{"walletName":"w\\ud800"}}')
    expect([v.code, v.fieldViolations[0]?.field]).toEqual(['INVALID_JSON', 'parameters.walletName'])
    expect(refused('{"ids":["ok","\\udfff"]}').fieldViolations[0]?.field).toBe('ids[1]')
    expect(refused('{"\\ud800":1}').code).toBe('INVALID_JSON')
    expect(parseRequestJson(enc('{"walletName":"w\\ud83d\\ude00"}'))).toEqual({ walletName: 'w😀' })
  })

  it('refuses what JSON does not allow, without quoting the body', () => {
    for (const bad of ['', '{', '{"a":1,}', "{'a':1}", '{"a":"x\ty"}', 'NaN', '{"secret":"abcdef" x}']) {
      const e = refused(bad)
      expect(e.code).toBe('INVALID_JSON')
      expect(e.message).not.toContain('abcdef')
    }
  })

  it('refuses nesting deeper than the parser reads, as a 400', () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`
    expect(refused(deep).code).toBe('INVALID_JSON')
  })

  it('keeps __proto__ as an ordinary member', () => {
    const v = parseRequestJson(enc('{"__proto__":{"polluted":true}}')) as Record<string, unknown>
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.keys(v)).toEqual(['__proto__'])
  })
})
