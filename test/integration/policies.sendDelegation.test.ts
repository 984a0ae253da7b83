/**
 * Policies see the EIP-7702 delegation of a batch send and of an undelegation, through the official
 * `@turnkey/http` client, for a user outside the root quorum, on the dev chain: a DENY of the Gas
 * Station (`eth.eip_7702_authorization.address`) denies a batch, and nothing is sent, while one plain
 * call is not denied by it; an ALLOW of the Gas Station only lets a batch through, and the
 * delegation in the landed transaction is the one the policy read; a DENY of the zero address
 * denies eth_undelegate_7702, and without it the undelegation lands with that delegate.
 */
import type { TurnkeyClient } from '@turnkey/http'
import { createPublicClient, type Hex, http, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_GAS_STATION } from '../../src/chains/gasStation/dev.js'
import { type Network, resolveNetworks } from '../../src/chains/networks.js'
import { type RunningEvmNode, startEvmNode } from '../../src/devchain/evm.js'
import { gasStationsOf, sendDelegation } from '../../src/service/policy/context.js'
import { Unreadable } from '../../src/service/policy/index.js'
import { sendFromDevFunder } from './helpers/devchain.js'
import { expectPolicyDenied, type PolicyOrg, startPolicyOrg, withPolicies } from './helpers/policyOrg.js'
import { freePort } from './helpers/process.js'

const CAIP2 = 'eip155:31337'
const ZERO = '0x0000000000000000000000000000000000000000'
const V2 = 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2'
const UNDELEGATE = 'ACTIVITY_TYPE_ETH_UNDELEGATE_7702'

let node: RunningEvmNode
let networks: Network[]
let org: PolicyOrg<'bob'>
let bob: TurnkeyClient
/** `delegating` runs the allowed batch and the undelegation; `plain` stays undelegated. */
let delegating: Hex
let plain: Hex

const evm = () => createPublicClient({ transport: http(node.url) })
const code = async (address: string) => (await evm().getCode({ address: address as Hex })) ?? '0x'
const fresh = () => `0x${crypto.getRandomValues(new Uint8Array(20)).reduce((s, b) => s + b.toString(16).padStart(2, '0'), '')}` as Hex
const now = () => String(Date.now())

/** The send's final status, read by the admin. */
async function settle(sendTransactionStatusId: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const status = await org.admin.getSendTransactionStatus({ organizationId: org.root, sendTransactionStatusId })
    if (status.txStatus === 'INCLUDED' || status.txStatus === 'FAILED' || Date.now() > deadline) return status
    await new Promise((r) => setTimeout(r, 50))
  }
}

const sendV2 = (parameters: Record<string, unknown>) =>
  bob.ethSendTransaction({
    type: V2,
    timestampMs: now(),
    organizationId: org.root,
    parameters: { caip2: CAIP2, ...parameters } as any,
  })
const undelegate = (from: string) =>
  bob.ethUndelegate7702({ type: UNDELEGATE, timestampMs: now(), organizationId: org.root, parameters: { from, caip2: CAIP2 as any } })

/** The delegation the landed transaction of `statusId` set (its one authorization). */
async function landedDelegation(statusId: string) {
  const status = await settle(statusId)
  expect(status.txStatus, JSON.stringify(status)).toBe('INCLUDED')
  const tx = await evm().getTransaction({ hash: status.eth?.txHash as Hex })
  expect(tx.type).toBe('eip7702')
  expect(tx.authorizationList).toHaveLength(1)
  const [auth] = tx.authorizationList ?? []
  return { address: auth?.address.toLowerCase(), chain_id: BigInt(auth?.chainId ?? -1) }
}

beforeAll(async () => {
  node = await startEvmNode({ port: await freePort() })
  networks = resolveNetworks(`${CAIP2}=${node.url}`)
  org = await startPolicyOrg(
    ['bob'],
    'delegations',
    [0, 1].map((i) => ({
      curve: 'CURVE_SECP256K1' as const,
      pathFormat: 'PATH_FORMAT_BIP32' as const,
      path: `m/44'/60'/0'/0/${i}`,
      addressFormat: 'ADDRESS_FORMAT_ETHEREUM' as const,
    })),
    { networks },
  )
  bob = org.clients.bob
  ;[delegating, plain] = org.addresses as [Hex, Hex]
  for (const a of [delegating, plain]) await sendFromDevFunder(node.url, { to: a, value: `0x${parseEther('5').toString(16)}` })
}, 60_000)
afterAll(async () => {
  await org?.svc.stop()
  await node?.close()
})

describe('policies over the delegation of a send', () => {
  it('the network of the test has the dev Gas Station', () => {
    expect(networks.find((n) => n.caip2 === CAIP2)?.gasStation).toBe(DEV_GAS_STATION)
  })

  it('a DENY of the Gas Station denies a batch (nothing is sent) but not one plain call', async () => {
    await withPolicies(
      org,
      [
        { name: 'sends', effect: 'EFFECT_ALLOW', condition: `activity.type == '${V2}'` },
        { name: 'no gas station', effect: 'EFFECT_DENY', condition: `eth.eip_7702_authorization.address == '${DEV_GAS_STATION}'` },
      ],
      async () => {
        const [a, b] = [fresh(), fresh()]
        await expectPolicyDenied(
          sendV2({
            from: plain,
            calls: [
              { to: a, value: '1000' },
              { to: b, value: '2000' },
            ],
          }),
          'no gas station',
        )
        // A sponsored single call goes through the Gas Station too.
        await expectPolicyDenied(sendV2({ from: plain, sponsor: true, calls: [{ to: a, value: '1' }] }), 'no gas station')
        expect(await code(plain)).toBe('0x')
        expect(await evm().getBalance({ address: a })).toBe(0n)

        const single = await sendV2({ from: plain, calls: [{ to: a, value: '3000' }] })
        expect(single.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
        const status = await settle(single.activity.result.ethSendTransactionResultV2?.sendTransactionStatusId as string)
        expect(status.txStatus, JSON.stringify(status)).toBe('INCLUDED')
        expect((await evm().getTransaction({ hash: status.eth?.txHash as Hex })).type).toBe('eip1559')
        expect(await evm().getBalance({ address: a })).toBe(3000n)
        expect(await code(plain)).toBe('0x')
      },
    )
  })

  it('an ALLOW of the Gas Station only lets a batch through; the landed delegation is the one the policy read', async () => {
    await withPolicies(
      org,
      [
        {
          name: 'batches through the gas station',
          effect: 'EFFECT_ALLOW',
          condition: `activity.type == '${V2}' && eth.eip_7702_authorization.address == '${DEV_GAS_STATION}' && eth.tx.authorization_list.all(x, x.address == '${DEV_GAS_STATION}')`,
        },
      ],
      async () => {
        const [a, b] = [fresh(), fresh()]
        const parameters = {
          from: delegating,
          calls: [
            { to: a, value: '1000' },
            { to: b, value: '2000' },
          ],
        }
        const fact = sendDelegation(V2, { caip2: CAIP2, ...parameters }, gasStationsOf(networks))
        expect(fact).toEqual({ address: DEV_GAS_STATION, chain_id: 31337n })
        const res = await sendV2(parameters)
        expect(res.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
        const landed = await landedDelegation(res.activity.result.ethSendTransactionResultV2?.sendTransactionStatusId as string)
        expect(fact).not.toBeInstanceOf(Unreadable)
        expect(landed).toEqual(fact)
        expect(await code(delegating)).toBe(`0xef0100${DEV_GAS_STATION.slice(2)}`)
        expect(await evm().getBalance({ address: a })).toBe(1000n)
        expect(await evm().getBalance({ address: b })).toBe(2000n)

        // One plain call makes no delegation: this ALLOW does not allow it, so it waits for the root quorum.
        const single = await sendV2({ from: plain, calls: [{ to: a, value: '1' }] })
        expect(single.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
        expect(single.activity.result.ethSendTransactionResultV2).toBeUndefined()
        expect(await evm().getBalance({ address: a })).toBe(1000n)
      },
    )
  })

  it('a DENY of the zero address denies eth_undelegate_7702; without it the undelegation lands with that delegate', async () => {
    expect(await code(delegating)).toBe(`0xef0100${DEV_GAS_STATION.slice(2)}`)
    const allow = { name: 'undelegations', effect: 'EFFECT_ALLOW' as const, condition: `activity.type == '${UNDELEGATE}'` }
    await withPolicies(
      org,
      [allow, { name: 'keep delegations', effect: 'EFFECT_DENY', condition: `eth.eip_7702_authorization.address == '${ZERO}'` }],
      async () => {
        await expectPolicyDenied(undelegate(delegating), 'keep delegations')
        expect(await code(delegating)).toBe(`0xef0100${DEV_GAS_STATION.slice(2)}`)
      },
    )
    await withPolicies(org, [allow], async () => {
      const fact = sendDelegation(UNDELEGATE, { from: delegating, caip2: CAIP2 }, gasStationsOf(networks))
      expect(fact).toEqual({ address: ZERO, chain_id: 31337n })
      const res = await undelegate(delegating)
      expect(res.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
      expect(await landedDelegation(res.activity.result.ethUndelegate7702Result?.sendTransactionStatusId as string)).toEqual(fact)
      expect(await code(delegating)).toBe('0x')
    })
  })
})
