/**
 * EIP-7702 through the official `@turnkey/viem` account (unmodified, over `@turnkey/http`):
 * `signAuthorization` (sign_raw_payload with PAYLOAD_ENCODING_EIP7702_AUTHORIZATION), verified by
 * viem; a type-4 transaction signed by sign_transaction and sent to the dev chain, after which the
 * account's code is the delegation designator of the Gas Station; `signMessage` / `signTypedData`;
 * and policies that allow delegation to one contract only (`eth.eip_7702_authorization`,
 * `eth.tx.authorization_list`).
 */
import { createAccount } from '@turnkey/viem'
import type { TurnkeyClient } from '@turnkey/http'
import { createPublicClient, type Hex, http, parseEther, verifyMessage, verifyTypedData } from 'viem'
import { recoverAuthorizationAddress } from 'viem/utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_GAS_STATION } from '../../src/chains/gasStation/dev.js'
import { type RunningEvmNode, startEvmNode } from '../../src/devchain/evm.js'
import { sendFromDevFunder } from './helpers/devchain.js'
import { type PolicyOrg, expectPolicyDenied, startPolicyOrg, withPolicies } from './helpers/policyOrg.js'
import { freePort } from './helpers/process.js'

const OTHER_DELEGATE = '0x1111111111111111111111111111111111111111'
const CHAIN_ID = 31337

let org: PolicyOrg<'alice'>
let node: RunningEvmNode
let publicClient: ReturnType<typeof createPublicClient>

/** The `@turnkey/viem` account of the org's Ethereum address, signing through `client`. */
async function accountOf(client: TurnkeyClient) {
  const account = await createAccount({
    // The same @turnkey/http client class, from the copy @turnkey/viem resolves.
    client: client as unknown as Parameters<typeof createAccount>[0]['client'],
    organizationId: org.root,
    signWith: org.address,
  })
  const { signAuthorization } = account
  if (!signAuthorization) throw new Error('the @turnkey/viem account cannot sign authorizations')
  return Object.assign(account, { signAuthorization })
}

/** An implicit deny (no policy allows it) for a user outside the root quorum: gRPC 7, nothing signed. */
async function expectNotAllowed(attempt: Promise<unknown>): Promise<void> {
  const e = await attempt.then(
    (ok) => {
      throw new Error(
        `signed, expected a denial: ${JSON.stringify(ok, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)).slice(0, 200)}`,
      )
    },
    (err: { message?: string }) => err,
  )
  // No policy allows it: it waits for the root quorum's consensus (the hosted service's answer), unsigned.
  expect(String(e.message)).toMatch(/requires consensus/i)
}

/** An explicit deny by the policy named `name`, as `@turnkey/viem` reports it: nothing signed. */
async function expectDeniedBy(attempt: Promise<unknown>, name: string): Promise<void> {
  const e = await attempt.then(
    () => {
      throw new Error('signed, expected a denial')
    },
    (err: { message?: string }) => err,
  )
  expect(String(e.message)).toContain('POLICY_DENIED')
  expect(String(e.message)).toContain(name)
}

async function type4(client: TurnkeyClient, delegate: string) {
  const account = await accountOf(client)
  const nonce = await publicClient.getTransactionCount({ address: account.address, blockTag: 'pending' })
  // The sender is the authority too: its authorization takes the nonce after the transaction's.
  const authorization = await account.signAuthorization({ chainId: CHAIN_ID, address: delegate as Hex, nonce: nonce + 1 })
  const fees = await publicClient.estimateFeesPerGas()
  return account.signTransaction({
    type: 'eip7702',
    chainId: CHAIN_ID,
    nonce,
    to: account.address,
    value: 0n,
    gas: 120_000n,
    maxFeePerGas: fees.maxFeePerGas * 2n,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    authorizationList: [authorization],
  })
}

beforeAll(async () => {
  org = await startPolicyOrg(['alice'], 'delegation wallet')
  node = await startEvmNode({ port: await freePort() })
  publicClient = createPublicClient({ transport: http(node.url) })
  await sendFromDevFunder(node.url, { to: org.address, value: `0x${parseEther('1').toString(16)}` })
}, 60_000)
afterAll(async () => {
  await node?.close()
  await org?.svc.stop()
})

describe('@turnkey/viem signAuthorization', () => {
  it('signs an EIP-7702 authorization that viem recovers to the account', async () => {
    const account = await accountOf(org.admin)
    const signed = await account.signAuthorization({ chainId: CHAIN_ID, address: DEV_GAS_STATION as Hex, nonce: 7 })
    expect(signed.yParity === 0 || signed.yParity === 1).toBe(true)
    const recovered = await recoverAuthorizationAddress({ authorization: signed })
    expect(recovered.toLowerCase()).toBe(org.address.toLowerCase())
  })

  it('a malformed authorization is refused naming the payload', async () => {
    const r = await org.svc.post('/public/v1/submit/sign_raw_payload', {
      type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
      timestampMs: String(Date.now()),
      organizationId: org.root,
      parameters: {
        signWith: org.address,
        payload: JSON.stringify({ address: '0x12', chainId: CHAIN_ID, nonce: 0 }),
        encoding: 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION',
        hashFunction: 'HASH_FUNCTION_NO_OP',
      },
    })
    expect(r.status).toBe(400)
    expect(r.json.message).toContain('parameters.payload')
    expect(r.json.message).toContain('payload.address')
  })
})

describe('@turnkey/viem signMessage and signTypedData', () => {
  it('signs a personal message that viem verifies', async () => {
    const account = await accountOf(org.admin)
    const message = 'Sigil signs this message'
    expect(await verifyMessage({ address: account.address, message, signature: await account.signMessage({ message }) })).toBe(true)
  })

  it('signs EIP-712 typed data that viem verifies', async () => {
    const account = await accountOf(org.admin)
    const typed = {
      domain: { name: 'Sigil Test', version: '1', chainId: BigInt(CHAIN_ID), verifyingContract: DEV_GAS_STATION as Hex },
      // @turnkey/viem serialises with viem's serializeTypedData, which sends the domain only when
      // the types declare EIP712Domain (without it the payload's domain is empty, here as hosted).
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
        Mail: [
          { name: 'to', type: 'address' },
          { name: 'contents', type: 'string' },
        ],
      },
      primaryType: 'Mail' as const,
      message: { to: OTHER_DELEGATE as Hex, contents: 'hello' },
    } as const
    const signature = await account.signTypedData(typed)
    expect(await verifyTypedData({ address: account.address, signature, ...typed })).toBe(true)
  })
})

describe('type-4 sign_transaction', () => {
  it('a signed type-4 transaction lands and delegates the account to the Gas Station', async () => {
    const signed = await type4(org.admin, DEV_GAS_STATION)
    const hash = await publicClient.sendRawTransaction({ serializedTransaction: signed })
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(receipt.type).toBe('eip7702')
    const code = await publicClient.getCode({ address: org.address as Hex })
    expect(code).toBe(`0xef0100${DEV_GAS_STATION.slice(2)}`)
  })
})

describe('policies on delegation targets', () => {
  it('eth.eip_7702_authorization: only the Gas Station may be authorised', async () => {
    const alice = await accountOf(org.clients.alice)
    await withPolicies(
      org,
      [
        {
          name: 'alice delegates to the gas station only',
          effect: 'EFFECT_ALLOW',
          consensus: `approvers.any(user, user.id == '${org.ids.alice}')`,
          condition: `activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2' && eth.eip_7702_authorization.address == '${DEV_GAS_STATION}' && eth.eip_7702_authorization.chain_id == ${CHAIN_ID}`,
        },
      ],
      async () => {
        const ok = await alice.signAuthorization({ chainId: CHAIN_ID, address: DEV_GAS_STATION as Hex, nonce: 1 })
        expect((await recoverAuthorizationAddress({ authorization: ok })).toLowerCase()).toBe(org.address.toLowerCase())
        await expectNotAllowed(alice.signAuthorization({ chainId: CHAIN_ID, address: OTHER_DELEGATE, nonce: 1 }))
        await expectNotAllowed(alice.signAuthorization({ chainId: 1, address: DEV_GAS_STATION as Hex, nonce: 1 }))
      },
    )
  })

  it('a DENY on other targets denies, and an unreadable authorization is denied by it', async () => {
    await withPolicies(
      org,
      [
        { name: 'anyone signs', effect: 'EFFECT_ALLOW', condition: 'true' },
        { name: 'no foreign delegates', effect: 'EFFECT_DENY', condition: `eth.eip_7702_authorization.address != '${DEV_GAS_STATION}'` },
      ],
      async () => {
        const alice = await accountOf(org.clients.alice)
        await expectDeniedBy(alice.signAuthorization({ chainId: CHAIN_ID, address: OTHER_DELEGATE, nonce: 0 }), 'no foreign delegates')
        await expectPolicyDenied(
          org.clients.alice.signRawPayload({
            type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
            timestampMs: String(Date.now()),
            organizationId: org.root,
            parameters: {
              signWith: org.address,
              payload: '{"address":"not an address","chainId":1,"nonce":0}',
              encoding: 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION',
              hashFunction: 'HASH_FUNCTION_NO_OP',
            },
          }),
          'no foreign delegates',
        )
      },
    )
  })

  it('eth.tx.authorization_list: a type-4 transaction is signed only when every delegation is to the Gas Station', async () => {
    await withPolicies(
      org,
      [
        {
          name: 'alice sends type-4 to the gas station only',
          effect: 'EFFECT_ALLOW',
          consensus: `approvers.any(user, user.id == '${org.ids.alice}')`,
          condition: `eth.tx.type == 'TYPE_4' && eth.tx.authorization_list.count() > 0 && eth.tx.authorization_list.all(a, a.address == '${DEV_GAS_STATION}')`,
        },
        {
          name: 'alice authorises the gas station',
          effect: 'EFFECT_ALLOW',
          consensus: `approvers.any(user, user.id == '${org.ids.alice}')`,
          condition: `eth.eip_7702_authorization.address == '${DEV_GAS_STATION}' || eth.eip_7702_authorization.address == '${OTHER_DELEGATE}'`,
        },
      ],
      async () => {
        const signed = await type4(org.clients.alice, DEV_GAS_STATION)
        expect(signed.startsWith('0x04')).toBe(true)
        await expectNotAllowed(type4(org.clients.alice, OTHER_DELEGATE))
      },
    )
  })
})
