/**
 * The reservation of a built sponsored transaction against the gas budget, on the real store
 * (reserveSponsoredFee, as the tracker calls it in the transaction that stores the signed
 * transaction): the most a send can cost counts until its fee is settled, a reservation that does
 * not fit beside the settled fees and the other reservations is refused naming the limit, the usage
 * and the window and reserves nothing, and the settled fee replaces the reservation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TurnkeyClient } from '@turnkey/http'
import { DEV_EVM_CAIP2, DEV_NETWORKS } from '../../src/chains/networks.js'
import type { ActivityContext } from '../../src/service/activityContext.js'
import { admitSponsoredSend, reserveSponsoredFee, settleSponsoredFee } from '../../src/service/sponsorship/limits.js'
import { adminTurnkeyClient, startTestService, submitBody, type TestService } from './helpers/service.js'

let svc: TestService
let client: TurnkeyClient
let root: string

const network = { ...DEV_NETWORKS.find((n) => n.caip2 === DEV_EVM_CAIP2)!, nativeUsd: '2000' }
/** Wei that cost `usd` at 2000 USD per ETH. */
const weiOfUsd = (usd: number) => (BigInt(Math.round(usd * 1e6)) * 10n ** 18n) / 2000n / 1_000_000n

let seq = 0
/** Admits a sponsored send of `organizationId` at submit (no estimate yet), as eth_send_transaction does. */
async function admit(organizationId: string): Promise<string> {
  const sendId = `reserve-${++seq}`
  await svc.rt.db.transaction(async (tx) => {
    const ctx = { tx, rt: svc.rt, now: Date.now(), organizationId } as unknown as ActivityContext
    await admitSponsoredSend(ctx, network, sendId)
  })
  return sendId
}
const reserve = (sendId: string, usd: number) => svc.rt.db.transaction((tx) => reserveSponsoredFee(tx, sendId, weiOfUsd(usd), Date.now()))
const usage = async () => (await client.getGasUsage({ organizationId: root })).usageUsd
const limits = (parameters: Record<string, unknown>) =>
  svc.post(
    '/public/v1/submit/upsert_gas_usage_config',
    submitBody('ACTIVITY_TYPE_UPSERT_GAS_USAGE_CONFIG', root, { windowDurationMinutes: '60', ...parameters }),
  )

beforeAll(async () => {
  svc = await startTestService()
  root = svc.admin.organizationId
  client = adminTurnkeyClient(svc)
  expect((await limits({ orgWindowLimitUsd: '5', subOrgWindowLimitUsd: '5' })).status).toBe(200)
}, 60_000)
afterAll(async () => {
  await svc?.stop()
})

describe('reservation of built sponsored transactions', () => {
  it('holds the most a send can cost, refuses one that does not fit (reserving nothing), and counts the settled fee instead', async () => {
    const first = await admit(root)
    const second = await admit(root)
    // Admitted at submit with nothing held yet.
    expect(await usage()).toBe('0')
    expect(await reserve(first, 3)).toBeUndefined()
    expect(await usage()).toBe('3')
    // 3 + 3 > 5: refused, naming the limit, the usage and the window; nothing reserved.
    const refused = await reserve(second, 3)
    expect(refused?.code).toBe('RESOURCE_EXHAUSTED')
    expect(refused?.message).toBe(
      'parameters.sponsor: the organization gas sponsorship limit of 5 USD per 1 h is used up (3 USD used or reserved in the window, this send can cost up to 3 USD)',
    )
    expect(await usage()).toBe('3')
    // The first landed for 1.25 USD: that counts instead of its reservation, and the second fits now.
    await settleSponsoredFee(svc.rt.db, first, weiOfUsd(1.25), Date.now())
    expect(await usage()).toBe('1.25')
    expect(await reserve(second, 3)).toBeUndefined()
    expect(await usage()).toBe('4.25')
    // A send built again replaces its own reservation rather than adding to it.
    expect(await reserve(second, 3.5)).toBeUndefined()
    expect(await usage()).toBe('4.75')
    // Exactly up to the limit fits; a micro-USD past it does not.
    const third = await admit(root)
    expect((await reserve(third, 0.250001))?.code).toBe('RESOURCE_EXHAUSTED')
    expect(await reserve(third, 0.25)).toBeUndefined()
    expect(await usage()).toBe('5')
  })

  it('a send never admitted, or whose organization turned sponsorship off since, is refused with FAILED_PRECONDITION', async () => {
    const unknown = await reserve('never-admitted', 0.01)
    expect(unknown?.code).toBe('FAILED_PRECONDITION')
    expect(unknown?.message).toContain('parameters.sponsor')
    expect((await limits({ orgWindowLimitUsd: '500', subOrgWindowLimitUsd: '500' })).status).toBe(200)
    const admitted = await admit(root)
    expect((await limits({ orgWindowLimitUsd: '500', subOrgWindowLimitUsd: '500', enabled: false })).status).toBe(200)
    const off = await reserve(admitted, 0.01)
    expect(off?.code).toBe('FAILED_PRECONDITION')
    expect(off?.message).toContain('not enabled')
  })
})
