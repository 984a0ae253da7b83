/**
 * Gas sponsorship limits: upsert_gas_usage_config / get_gas_usage through the unmodified
 * `@turnkey/http` client, the development default, and the admission of sponsored sends against
 * the limits on the real store (admitSponsoredSend / settleSponsoredFee, as the send handlers and
 * the tracker call them), concurrent admissions at the edge included.
 */
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SigilError } from '../../src/api/errors.js'
import { DEV_EVM_CAIP2, DEV_NETWORKS } from '../../src/chains/networks.js'
import type { ActivityContext } from '../../src/service/activityContext.js'
import { admitSponsoredSend, gasUsageOf, settleSponsoredFee } from '../../src/service/sponsorship/limits.js'
import { newApiKey } from './helpers/keys.js'
import { adminTurnkeyClient, startTestService, submitBody, type TestService } from './helpers/service.js'

let svc: TestService
let client: TurnkeyClient
let root: string
const subs: Array<{ id: string; client: TurnkeyClient }> = []

const devEvm = DEV_NETWORKS.find((n) => n.caip2 === DEV_EVM_CAIP2)!
/** The dev chain as the service knows it: 18 decimals, 2000 USD per ETH. */
const network = { ...devEvm, nativeUsd: '2000' }
/** Wei that cost `usd` at 2000 USD per ETH. */
const weiOfUsd = (usd: number) => (BigInt(Math.round(usd * 1e6)) * 10n ** 18n) / 2000n / 1_000_000n

async function upsert(c: TurnkeyClient, organizationId: string, parameters: Record<string, unknown>) {
  return (await c.request(
    '/public/v1/submit/upsert_gas_usage_config',
    submitBody('ACTIVITY_TYPE_UPSERT_GAS_USAGE_CONFIG', organizationId, parameters),
  )) as any
}
const usageOf = (c: TurnkeyClient, organizationId: string) => c.getGasUsage({ organizationId })

let sendSeq = 0
/** Runs admitSponsoredSend in its own transaction of the service's store, as a send activity does. */
async function admit(organizationId: string, estimateWei: bigint, net: typeof network | typeof devEvm = network): Promise<string> {
  const sendId = `send-${++sendSeq}`
  await svc.rt.db.transaction(async (tx) => {
    const ctx = { tx, rt: svc.rt, now: Date.now(), organizationId } as unknown as ActivityContext
    await admitSponsoredSend(ctx, net, sendId, estimateWei)
  })
  return sendId
}
async function refusal(p: Promise<unknown>): Promise<SigilError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  )
  expect(e).toBeInstanceOf(SigilError)
  return e as SigilError
}
/** The response is 400 and names `field` in the message and in a BadRequest field violation. */
function expectFieldError(r: { status: number; json: any }, field: string) {
  expect(r.status, JSON.stringify(r.json)).toBe(400)
  expect(r.json.message).toContain(field)
  const bad = r.json.details.find((d: any) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest')
  expect(bad?.fieldViolations.map((v: any) => v.field)).toContain(field)
}

beforeAll(async () => {
  svc = await startTestService()
  root = svc.admin.organizationId
  client = adminTurnkeyClient(svc)
  for (const name of ['sponsored sub A', 'sponsored sub B']) {
    const key = newApiKey(name)
    const r = await client.createSubOrganization({
      type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
      timestampMs: String(Date.now()),
      organizationId: root,
      parameters: {
        subOrganizationName: name,
        rootUsers: [{ userName: `${name} root`, apiKeys: [key.param], authenticators: [], oauthProviders: [] }],
        rootQuorumThreshold: 1,
      },
    })
    const id = r.activity.result.createSubOrganizationResultV8?.subOrganizationId as string
    subs.push({
      id,
      client: new TurnkeyClient({ baseUrl: svc.url }, new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKeyHex })),
    })
  }
}, 60_000)
afterAll(async () => {
  await svc?.stop()
})

describe('gas usage config', () => {
  it('a development service sponsors by default: 100 USD a day in all, 5 USD a day per sub-organization', async () => {
    expect(await usageOf(client, root)).toEqual({ windowDurationMinutes: 1440, windowLimitUsd: '100', usageUsd: '0' })
    expect(await usageOf(subs[0]!.client, subs[0]!.id)).toEqual({ windowDurationMinutes: 1440, windowLimitUsd: '5', usageUsd: '0' })
  })

  it('upsert_gas_usage_config sets the limits get_gas_usage reports (same config id on update)', async () => {
    const first = await upsert(client, root, { orgWindowLimitUsd: '12.5', subOrgWindowLimitUsd: '3', windowDurationMinutes: '60' })
    expect(first.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    const id = first.activity.result.upsertGasUsageConfigResult.gasUsageConfigId
    expect(id).toMatch(/.{8,}/)
    expect(await usageOf(client, root)).toEqual({ windowDurationMinutes: 60, windowLimitUsd: '12.5', usageUsd: '0' })
    expect(await usageOf(subs[1]!.client, subs[1]!.id)).toEqual({ windowDurationMinutes: 60, windowLimitUsd: '3', usageUsd: '0' })
    const second = await upsert(client, root, {
      orgWindowLimitUsd: '6',
      subOrgWindowLimitUsd: '2.5',
      windowDurationMinutes: '120',
      enabled: true,
    })
    expect(second.activity.result.upsertGasUsageConfigResult.gasUsageConfigId).toBe(id)
    expect(await usageOf(client, root)).toEqual({ windowDurationMinutes: 120, windowLimitUsd: '6', usageUsd: '0' })
  })

  it.each([
    ['orgWindowLimitUsd', { orgWindowLimitUsd: '-1' }],
    ['orgWindowLimitUsd', { orgWindowLimitUsd: 'ten' }],
    ['orgWindowLimitUsd', { orgWindowLimitUsd: '1.0000001' }],
    ['subOrgWindowLimitUsd', { subOrgWindowLimitUsd: '-0.5' }],
    ['windowDurationMinutes', { windowDurationMinutes: '0' }],
    ['windowDurationMinutes', { windowDurationMinutes: '43201' }],
    ['windowDurationMinutes', { windowDurationMinutes: '1.5' }],
  ])('a bad %s (%j) is refused naming it, and the config is unchanged', async (field, bad) => {
    const r = await svc.post(
      '/public/v1/submit/upsert_gas_usage_config',
      submitBody('ACTIVITY_TYPE_UPSERT_GAS_USAGE_CONFIG', root, {
        orgWindowLimitUsd: '50',
        subOrgWindowLimitUsd: '1',
        windowDurationMinutes: '30',
        ...bad,
      }),
    )
    expectFieldError(r, `parameters.${field}`)
    expect(await usageOf(client, root)).toEqual({ windowDurationMinutes: 120, windowLimitUsd: '6', usageUsd: '0' })
  })

  it('a sub-organization cannot raise its own limit: its own config governs its sub-organizations only', async () => {
    const r = await upsert(subs[0]!.client, subs[0]!.id, {
      orgWindowLimitUsd: '1000',
      subOrgWindowLimitUsd: '1000',
      windowDurationMinutes: '43200',
    })
    expect(r.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(await usageOf(subs[0]!.client, subs[0]!.id)).toEqual({ windowDurationMinutes: 120, windowLimitUsd: '2.5', usageUsd: '0' })
  })
})

describe('admission of sponsored sends', () => {
  it('admits estimates within the sub-organization limit, refuses past it, and counts settled fees instead of estimates', async () => {
    const a = subs[0]!
    const first = await admit(a.id, weiOfUsd(2))
    expect(await usageOf(a.client, a.id)).toMatchObject({ usageUsd: '2' })
    const e = await refusal(admit(a.id, weiOfUsd(1)))
    expect(e.code).toBe('RESOURCE_EXHAUSTED')
    expect(e.message).toContain('parameters.sponsor')
    expect(e.message).toContain('sub-organization gas sponsorship limit of 2.5 USD per 2 h')
    expect(e.message).toContain('2 USD used')
    // Nothing was recorded for the refused send.
    expect(await usageOf(a.client, a.id)).toMatchObject({ usageUsd: '2' })
    // The sponsor paid 0.4 USD for the first: that counts now, and 1 USD fits again.
    await settleSponsoredFee(svc.rt.db, first, weiOfUsd(0.4), Date.now())
    expect(await usageOf(a.client, a.id)).toMatchObject({ usageUsd: '0.4' })
    await admit(a.id, weiOfUsd(1))
    expect(await usageOf(a.client, a.id)).toMatchObject({ usageUsd: '1.4' })
    // Settling twice changes nothing.
    await settleSponsoredFee(svc.rt.db, first, weiOfUsd(2), Date.now())
    expect(await usageOf(a.client, a.id)).toMatchObject({ usageUsd: '1.4' })
    // The billing organization sees everything billed to it.
    expect(await usageOf(client, root)).toMatchObject({ windowLimitUsd: '6', usageUsd: '1.4' })
    // Past the window, nothing counts.
    const later = await gasUsageOf(svc.rt.db, a.id, Date.now() + 121 * 60_000)
    expect(later?.usageMicroUsd).toBe(0n)
  })

  it('the organization limit caps its sub-organizations together', async () => {
    const b = subs[1]!
    await admit(b.id, weiOfUsd(2.5)) // B's own limit, total 3.9
    await admit(root, weiOfUsd(2)) // the root's own send, total 5.9
    const e = await refusal(admit(b.id, weiOfUsd(0)))
    expect(e.code).toBe('RESOURCE_EXHAUSTED')
    expect(e.message).toContain('sub-organization')
    const f = await refusal(admit(root, weiOfUsd(0.2)))
    expect(f.code).toBe('RESOURCE_EXHAUSTED')
    expect(f.message).toContain('the organization gas sponsorship limit of 6 USD per 2 h')
    expect(await usageOf(client, root)).toMatchObject({ usageUsd: '5.9' })
  })

  it('of two concurrent admissions that fit only one at a time, one is refused', async () => {
    await upsert(client, root, { orgWindowLimitUsd: '100', subOrgWindowLimitUsd: '100', windowDurationMinutes: '1' })
    const base = (await gasUsageOf(svc.rt.db, root, Date.now()))!.usageMicroUsd
    // Room for exactly one of two 30 USD sends above what the last minute used.
    const room = 100 - Number(base) / 1e6
    const each = Math.floor((room / 2 + 1) * 100) / 100
    const results = await Promise.allSettled([admit(root, weiOfUsd(each)), admit(subs[0]!.id, weiOfUsd(each))])
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult
    expect((refused.reason as SigilError).code).toBe('RESOURCE_EXHAUSTED')
  })

  it('a network without a USD price cannot be sponsored', async () => {
    const { nativeUsd: _, ...unpriced } = network
    const e = await refusal(admit(root, 1n, unpriced))
    expect(e.code).toBe('FAILED_PRECONDITION')
    expect(e.message).toContain(DEV_EVM_CAIP2)
    expect(e.message).toContain('SIGIL_NATIVE_USD')
  })

  it('disabled, or without any config, sponsorship is refused', async () => {
    await upsert(client, root, { orgWindowLimitUsd: '100', subOrgWindowLimitUsd: '100', windowDurationMinutes: '60', enabled: false })
    const e = await refusal(admit(subs[1]!.id, 1n))
    expect(e.code).toBe('FAILED_PRECONDITION')
    expect(e.message).toContain(
      'gas sponsorship is not enabled for this organization; its operator enables it with upsert_gas_usage_config',
    )
    await svc.rt.db.query('DELETE FROM gas_usage_configs WHERE organization_id = $1', [root])
    expect((await refusal(admit(subs[1]!.id, 1n))).code).toBe('FAILED_PRECONDITION')
    const r = await svc.post('/public/v1/query/get_gas_usage', { organizationId: root })
    expect(r.status).toBe(412)
    expect(r.json.message).toContain('gas sponsorship is not enabled')
  })
})
