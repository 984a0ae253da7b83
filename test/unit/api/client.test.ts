import { describe, expect, it } from 'vitest'
import { DEFAULT_CLIENT_VERSION, camelCase, createClient, stampRequest, type SigilClient } from '../../../src/api/client.js'
import { SigilError, SigilRequestError } from '../../../src/api/errors.js'
import { createWallet } from '../../../src/api/operations/create_wallet.js'
import { whoami } from '../../../src/api/operations/whoami.js'
import { QUERY_OPERATIONS, SUBMIT_OPERATIONS } from '../../../src/api/registry.js'
import type { Stamp, Stamper } from '../../../src/api/stamper.js'
import { ORG, completedActivity, initOtpAuthParams, subOrgParams, ts } from './fixtures.js'

type Call = { url: string; init: RequestInit }
type SubOrgParams = Omit<Parameters<SigilClient['createSubOrganization']>[0], 'organizationId'>

function recordingStamper(): Stamper & { stamped: string[] } {
  const stamped: string[] = []
  return {
    stamped,
    async stamp(body: string): Promise<Stamp> {
      stamped.push(body)
      return { stampHeaderName: 'X-Stamp', stampHeaderValue: `stamp-${stamped.length}` }
    },
  }
}

function fakeFetch(respond: (call: Call) => Response): typeof fetch & { calls: Call[] } {
  const calls: Call[] = []
  const f = async (input: RequestInfo | URL, init?: RequestInit) => {
    const call = { url: String(input), init: init ?? {} }
    calls.push(call)
    return respond(call)
  }
  return Object.assign(f, { calls }) as typeof fetch & { calls: Call[] }
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

function setup(respond: (call: Call) => Response): {
  client: SigilClient
  stamper: ReturnType<typeof recordingStamper>
  fetch: ReturnType<typeof fakeFetch>
} {
  const stamper = recordingStamper()
  const fetch = fakeFetch(respond)
  const client = createClient({ baseUrl: 'http://127.0.0.1:8787/', stamper, fetch, now: () => 1767225600000 })
  return { client, stamper, fetch }
}

const header = (call: Call | undefined, name: string) => (call?.init.headers as Record<string, string>)[name]

describe('client: submits', () => {
  const walletParams = {
    walletName: 'Default Wallet',
    accounts: [
      {
        curve: 'CURVE_SECP256K1' as const,
        pathFormat: 'PATH_FORMAT_BIP32' as const,
        path: "m/44'/60'/0'/0/0",
        addressFormat: 'ADDRESS_FORMAT_ETHEREUM' as const,
      },
    ],
  }

  it('sends exactly the stamped body in sdk-server key order with headers', async () => {
    const { client, stamper, fetch } = setup(() =>
      json(
        200,
        completedActivity(
          'ACTIVITY_TYPE_CREATE_WALLET',
          { createWalletIntent: walletParams },
          {
            createWalletResult: { walletId: 'w1', addresses: ['0xabc'] },
          },
        ),
      ),
    )
    const out = await client.createWallet({ organizationId: ORG, ...walletParams })
    const call = fetch.calls[0]
    expect(fetch.calls).toHaveLength(1)
    expect(call?.url).toBe('http://127.0.0.1:8787/public/v1/submit/create_wallet')
    expect(call?.init.method).toBe('POST')
    expect(call?.init.body).toBe(stamper.stamped[0])
    const body = String(call?.init.body)
    expect(Object.keys(JSON.parse(body))).toEqual(['parameters', 'organizationId', 'timestampMs', 'type'])
    expect(body).toBe(
      JSON.stringify({ parameters: walletParams, organizationId: ORG, timestampMs: '1767225600000', type: 'ACTIVITY_TYPE_CREATE_WALLET' }),
    )
    expect(header(call, 'Content-Type')).toBe('application/json')
    expect(header(call, 'X-Client-Version')).toBe(DEFAULT_CLIENT_VERSION)
    expect(header(call, 'X-Stamp')).toBe('stamp-1')
    // result parsed via the schema, spread next to the activity
    expect(out.walletId).toBe('w1')
    expect(out.addresses).toEqual(['0xabc'])
    expect(out.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
  })

  it('puts generateAppProofs before type only when given, and honours timestampMs', async () => {
    const { client, stamper } = setup(() =>
      json(200, completedActivity('ACTIVITY_TYPE_INIT_OTP_AUTH_V3', {}, { initOtpAuthResultV2: { otpId: 'otp-1' } })),
    )
    const out = await client.initOtpAuth({
      organizationId: ORG,
      timestampMs: '1767225600123',
      generateAppProofs: true,
      ...(initOtpAuthParams() as { otpType: 'OTP_TYPE_EMAIL'; contact: string; appName: string }),
    })
    expect(out.otpId).toBe('otp-1')
    const sent = JSON.parse(stamper.stamped[0]!)
    expect(Object.keys(sent)).toEqual(['parameters', 'organizationId', 'timestampMs', 'generateAppProofs', 'type'])
    expect(sent.timestampMs).toBe('1767225600123')
    expect(sent.type).toBe('ACTIVITY_TYPE_INIT_OTP_AUTH_V3')
    expect(sent.parameters).not.toHaveProperty('organizationId')
  })

  it('returns a non-completed activity without result fields', async () => {
    const pending = completedActivity('ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', {}, {})
    pending.activity.status = 'ACTIVITY_STATUS_CONSENSUS_NEEDED'
    const { client } = setup(() => json(200, pending))
    const out = await client.createSubOrganization({ organizationId: ORG, ...(subOrgParams() as unknown as SubOrgParams) })
    expect(out.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    expect(out).not.toHaveProperty('subOrganizationId')
  })

  it('rejects a completed activity whose result does not match the schema', async () => {
    const { client } = setup(() => json(200, completedActivity('ACTIVITY_TYPE_CREATE_WALLET', {}, { createWalletResult: { walletId: 7 } })))
    const err = await client.createWallet({ organizationId: ORG, ...walletParams }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(SigilError)
    expect((err as SigilError).code).toBe('BAD_RESPONSE')
    expect((err as SigilError).message).toContain('activity.result.createWalletResult.walletId')
  })

  it('approve_activity returns the voted-on activity', async () => {
    const { client, stamper } = setup(() =>
      json(200, completedActivity('ACTIVITY_TYPE_CREATE_WALLET', {}, { createWalletResult: { walletId: 'w1', addresses: [] } })),
    )
    const out = await client.approveActivity({ organizationId: ORG, fingerprint: 'sha256:00' })
    expect(out.activity.type).toBe('ACTIVITY_TYPE_CREATE_WALLET')
    expect(JSON.parse(stamper.stamped[0]!).type).toBe('ACTIVITY_TYPE_APPROVE_ACTIVITY')
  })

  it('v1 and v2 of verify_otp send their own type to the same path', async () => {
    const { client, fetch } = setup(() =>
      json(200, completedActivity('ACTIVITY_TYPE_VERIFY_OTP', {}, { verifyOtpResult: { verificationToken: 'jwt' } })),
    )
    await client.verifyOtpV1({ organizationId: ORG, otpId: 'o', otpCode: '123456' })
    await client.verifyOtp({ organizationId: ORG, otpId: 'o', encryptedOtpBundle: '{}' })
    expect(fetch.calls.map((c) => c.url)).toEqual([
      'http://127.0.0.1:8787/public/v1/submit/verify_otp',
      'http://127.0.0.1:8787/public/v1/submit/verify_otp',
    ])
    expect(fetch.calls.map((c) => JSON.parse(String(c.init.body)).type)).toEqual([
      'ACTIVITY_TYPE_VERIFY_OTP',
      'ACTIVITY_TYPE_VERIFY_OTP_V2',
    ])
  })
})

describe('client: queries', () => {
  it('sends the request as the body and parses the response', async () => {
    const { client, stamper, fetch } = setup(() =>
      json(200, { organizationId: ORG, organizationName: 'Root', userId: 'u1', username: 'root', extra: true }),
    )
    const out = await client.whoami({ organizationId: ORG })
    expect(fetch.calls[0]?.url).toBe('http://127.0.0.1:8787/public/v1/query/whoami')
    expect(fetch.calls[0]?.init.body).toBe(JSON.stringify({ organizationId: ORG }))
    expect(stamper.stamped).toEqual([JSON.stringify({ organizationId: ORG })])
    expect(out).toEqual({ organizationId: ORG, organizationName: 'Root', userId: 'u1', username: 'root' })
  })

  it('parses list_wallet_accounts records', async () => {
    const account = {
      walletAccountId: 'wa1',
      organizationId: ORG,
      walletId: 'w1',
      curve: 'CURVE_SECP256K1',
      pathFormat: 'PATH_FORMAT_BIP32',
      path: "m/44'/60'/0'/0/0",
      addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
      address: '0xabc',
      createdAt: ts(1),
      updatedAt: ts(2),
    }
    const { client } = setup(() => json(200, { accounts: [account] }))
    const out = await client.listWalletAccounts({ organizationId: ORG, walletId: 'w1', paginationOptions: { limit: '100' } })
    expect(out.accounts[0]?.updatedAt).toEqual({ seconds: '0', nanos: '2000000' })
  })
})

describe('client: errors', () => {
  it('throws SigilRequestError with code, message and details on a JSON error', async () => {
    const wire = {
      code: 16,
      message: 'could not find public key in organization or its parent organization',
      details: [{ '@type': 'type.googleapis.com/sigil.ErrorInfo', reason: 'STAMP_KEY_UNKNOWN' }],
    }
    const { client } = setup(() => json(401, wire))
    const err = await client.whoami({ organizationId: ORG }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(SigilRequestError)
    const e = err as SigilRequestError
    expect([e.status, e.grpcCode, e.code, e.message]).toEqual([401, 16, 'STAMP_KEY_UNKNOWN', wire.message])
    expect(e.details).toEqual(wire.details)
    expect(e.toWire()).toEqual(wire)
  })

  it('non-JSON error bodies become code 13 with "status statusText"', async () => {
    const { client } = setup(() => new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }))
    const err = (await client.whoami({ organizationId: ORG }).catch((e: unknown) => e)) as SigilRequestError
    expect(err).toBeInstanceOf(SigilRequestError)
    expect([err.status, err.grpcCode, err.code, err.message]).toEqual([502, 13, 'INTERNAL', '502 Bad Gateway'])
  })

  it('network failures become SigilError NETWORK', async () => {
    const stamper = recordingStamper()
    const client = createClient({
      baseUrl: 'http://127.0.0.1:1',
      stamper,
      fetch: async () => {
        throw new TypeError('fetch failed')
      },
    })
    const err = (await client.whoami({ organizationId: ORG }).catch((e: unknown) => e)) as SigilError
    expect(err).toBeInstanceOf(SigilError)
    expect(err.code).toBe('NETWORK')
  })

  it('a 2xx body that does not match the schema is BAD_RESPONSE', async () => {
    const { client } = setup(() => json(200, { organizationId: ORG }))
    const err = (await client.whoami({ organizationId: ORG }).catch((e: unknown) => e)) as SigilError
    expect(err.code).toBe('BAD_RESPONSE')
  })
})

describe('client: lower level', () => {
  it('stampRequest returns url, body and stamp without sending', async () => {
    const { client, fetch, stamper } = setup(() => json(500, {}))
    const signed = await client.stampRequest(createWallet, { organizationId: ORG, walletName: 'w', accounts: [] })
    expect(fetch.calls).toHaveLength(0)
    expect(signed.url).toBe('http://127.0.0.1:8787/public/v1/submit/create_wallet')
    expect(signed.body).toBe(stamper.stamped[0])
    expect(signed.stamp).toEqual({ stampHeaderName: 'X-Stamp', stampHeaderValue: 'stamp-1' })
    const q = await client.stampRequest(whoami, { organizationId: ORG })
    expect(q.body).toBe(JSON.stringify({ organizationId: ORG }))
  })

  it('sendSigned sends a request stamped elsewhere under its header', async () => {
    const { client, fetch } = setup(() => json(200, { organizationId: ORG, organizationName: 'Root', userId: 'u1', username: 'root' }))
    const body = JSON.stringify({ organizationId: ORG })
    const stamp: Stamp = { stampHeaderName: 'X-Stamp-Webauthn', stampHeaderValue: '{"credentialId":"x"}' }
    const out = await client.sendSigned(whoami, { url: 'http://127.0.0.1:8787/public/v1/query/whoami', body, stamp })
    expect(out.userId).toBe('u1')
    expect(header(fetch.calls[0], 'X-Stamp-Webauthn')).toBe('{"credentialId":"x"}')
    expect(fetch.calls[0]?.init.body).toBe(body)
  })

  it('submit/query accept definitions directly and every operation has a method', async () => {
    const { client } = setup(() => json(200, { organizationId: ORG, organizationName: 'Root', userId: 'u1', username: 'root' }))
    expect((await client.query(whoami, { organizationId: ORG })).username).toBe('root')
    const methods = client as unknown as Record<string, unknown>
    for (const d of [...SUBMIT_OPERATIONS, ...QUERY_OPERATIONS]) expect(typeof methods[camelCase(d.name)]).toBe('function')
    expect(camelCase('verify_otp_v1')).toBe('verifyOtpV1')
  })
})

describe('standalone stampRequest', () => {
  it('stamps a submit with the injected clock', async () => {
    const stamper = recordingStamper()
    const signed = await stampRequest({ baseUrl: 'https://api.example.test', stamper, now: () => 42 }, whoami, {
      organizationId: ORG,
    })
    expect(signed.url).toBe('https://api.example.test/public/v1/query/whoami')
    const sub = await stampRequest({ baseUrl: 'https://api.example.test/', stamper, now: () => 42 }, createWallet, {
      organizationId: ORG,
      walletName: 'w',
      accounts: [],
    })
    expect(JSON.parse(sub.body).timestampMs).toBe('42')
    expect(stamper.stamped).toEqual([signed.body, sub.body])
  })
})
