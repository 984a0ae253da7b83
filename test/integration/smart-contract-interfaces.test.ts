/**
 * Smart-contract interfaces: create, get, list and delete through the official
 * `@turnkey/http` client, unmodified; organizations see only their own; bad input is a 400 naming
 * the field with nothing stored; and a send that reverts with a custom error is decoded with the
 * organization's ABI, against the real dev EVM chain (the contract is deployed from the committed
 * bytecode of test/fixtures/contracts/Denier.json, nothing is compiled here).
 */
import { readFileSync } from 'node:fs'
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { TurnkeyClient } from '@turnkey/http'
import { type Abi, createPublicClient, encodeFunctionData, getAddress, type Hex, http, toFunctionSelector } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_SMART_CONTRACT_INTERFACES } from '../../src/api/limits.js'
import { resolveNetworks } from '../../src/chains/networks.js'
import { type RunningEvmNode, startEvmNode } from '../../src/devchain/evm.js'
import { newApiKey, rootUser } from './helpers/keys.js'
import { freePort } from './helpers/process.js'
import { sendFromDevFunder } from './helpers/devchain.js'
import { adminTurnkeyClient, startTestService, submitBody, type TestService } from './helpers/service.js'

const DENIER = JSON.parse(readFileSync(new URL('../fixtures/contracts/Denier.json', import.meta.url), 'utf8')) as {
  abi: Abi
  bytecode: Hex
}
const ABI = JSON.stringify(DENIER.abi)
const DENIED_SELECTOR = toFunctionSelector('Denied(address,uint256)')
const ETH = 'SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM' as const
const SOL = 'SMART_CONTRACT_INTERFACE_TYPE_SOLANA' as const
const IDL = JSON.stringify({
  address: 'Fg6PaFpoGXkYsidMpWTK6W2BeZ7FEfcYkg476zPFsLnS',
  metadata: { name: 'counter', version: '0.1.0', spec: '0.1.0' },
  instructions: [
    {
      name: 'increment',
      discriminator: [11, 18, 104, 9, 104, 174, 59, 33],
      accounts: [{ name: 'counter', writable: true }],
      args: [{ name: 'by', type: 'u64' }],
    },
  ],
})
const PROGRAM_ID = 'Fg6PaFpoGXkYsidMpWTK6W2BeZ7FEfcYkg476zPFsLnS'

let node: RunningEvmNode
let svc: TestService
let client: TurnkeyClient
let root: string

beforeAll(async () => {
  node = await startEvmNode({ port: await freePort() })
  svc = await startTestService({ networks: resolveNetworks(`eip155:31337=${node.url}`) })
  root = svc.admin.organizationId
  client = adminTurnkeyClient(svc)
})
afterAll(async () => {
  await svc?.stop()
  await node?.close()
})

const now = () => String(Date.now())

/** Creates an interface with the official client; answers its id. */
async function create(
  parameters: {
    smartContractAddress: string
    smartContractInterface: string
    type: typeof ETH | typeof SOL
    label: string
    notes?: string
  },
  c = client,
  organizationId = root,
): Promise<string> {
  const res = await c.createSmartContractInterface({
    type: 'ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE',
    timestampMs: now(),
    organizationId,
    parameters,
  })
  expect(res.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
  return res.activity.result.createSmartContractInterfaceResult?.smartContractInterfaceId as string
}

/** A 4xx response naming `field` (status, message and the BadRequest violation). */
function expectRefused(r: { status: number; json: any }, field: string, status = 400) {
  expect(r.status, JSON.stringify(r.json)).toBe(status)
  expect(r.json.message).toContain(field)
  const bad = r.json.details.find((d: any) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest')
  expect(bad.fieldViolations.map((v: any) => v.field)).toContain(field)
}

async function countRows(sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await svc.rt.db.query<{ n: string | number }>(sql, params)
  return Number(row?.n)
}

/** A sub-organization of the root with one API key: its id, the official client on that key, and Sigil's stamper. */
async function subOrganization(name: string) {
  const key = newApiKey(name)
  const res = await client.createSubOrganization({
    type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
    timestampMs: now(),
    organizationId: root,
    parameters: { subOrganizationName: name, rootUsers: [rootUser(name, [key.param])], rootQuorumThreshold: 1 },
  })
  const id = res.activity.result.createSubOrganizationResultV8?.subOrganizationId as string
  const subClient = new TurnkeyClient(
    { baseUrl: svc.url },
    new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKeyHex }),
  )
  return { id, client: subClient, stamper: key.stamper }
}

describe('smart-contract interfaces through the official client', () => {
  it('creates, gets, lists and deletes an ABI and an IDL; records as the hosted OpenAPI types them', async () => {
    const address = getAddress('0x5fbdb2315678afecb367f032d93f642f64180aa3')
    const before = (await client.getSmartContractInterfaces({ organizationId: root })).smartContractInterfaces.length

    const res = await client.createSmartContractInterface({
      type: 'ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE',
      timestampMs: now(),
      organizationId: root,
      parameters: { smartContractAddress: address, smartContractInterface: ABI, type: ETH, label: 'Denier', notes: 'always reverts' },
    })
    expect(res.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(res.activity.type).toBe('ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE')
    expect(res.activity.intent.createSmartContractInterfaceIntent).toMatchObject({
      smartContractAddress: address,
      type: ETH,
      label: 'Denier',
    })
    const abiId = res.activity.result.createSmartContractInterfaceResult?.smartContractInterfaceId as string
    expect(abiId).toMatch(/^[0-9a-f-]{36}$/)
    const idlId = await create({ smartContractAddress: PROGRAM_ID, smartContractInterface: IDL, type: SOL, label: 'counter' })

    const { smartContractInterface: got } = await client.getSmartContractInterface({
      organizationId: root,
      smartContractInterfaceId: abiId,
    })
    expect(got).toEqual({
      organizationId: root,
      smartContractInterfaceId: abiId,
      // the address as given (checksummed here), the JSON text byte for byte
      smartContractAddress: address,
      smartContractInterface: ABI,
      type: ETH,
      label: 'Denier',
      notes: 'always reverts',
      createdAt: { seconds: expect.stringMatching(/^\d+$/), nanos: expect.stringMatching(/^\d+$/) },
      updatedAt: got.createdAt,
    })
    const idl = (await client.getSmartContractInterface({ organizationId: root, smartContractInterfaceId: idlId })).smartContractInterface
    expect(idl).toMatchObject({ smartContractAddress: PROGRAM_ID, smartContractInterface: IDL, type: SOL, label: 'counter', notes: '' })

    const listed = (await client.getSmartContractInterfaces({ organizationId: root })).smartContractInterfaces
    expect(listed.slice(before).map((i) => i.smartContractInterfaceId)).toEqual([abiId, idlId])
    expect(listed[before]).toEqual(got)

    const del = await client.deleteSmartContractInterface({
      type: 'ACTIVITY_TYPE_DELETE_SMART_CONTRACT_INTERFACE',
      timestampMs: now(),
      organizationId: root,
      parameters: { smartContractInterfaceId: abiId },
    })
    expect(del.activity.result.deleteSmartContractInterfaceResult?.smartContractInterfaceId).toBe(abiId)
    const gone = await client.getSmartContractInterface({ organizationId: root, smartContractInterfaceId: abiId }).catch((e) => e)
    expect(gone).toMatchObject({ code: 5 })
    expect(String(gone.message)).toContain('smartContractInterfaceId')
    const again = await client
      .deleteSmartContractInterface({
        type: 'ACTIVITY_TYPE_DELETE_SMART_CONTRACT_INTERFACE',
        timestampMs: now(),
        organizationId: root,
        parameters: { smartContractInterfaceId: abiId },
      })
      .catch((e) => e)
    expect(again).toMatchObject({ code: 5 })
    expect(String(again.message)).toContain('parameters.smartContractInterfaceId')
    const after = (await client.getSmartContractInterfaces({ organizationId: root })).smartContractInterfaces
    expect(after.map((i) => i.smartContractInterfaceId)).not.toContain(abiId)
    expect(after.map((i) => i.smartContractInterfaceId)).toContain(idlId)
    await client.deleteSmartContractInterface({
      type: 'ACTIVITY_TYPE_DELETE_SMART_CONTRACT_INTERFACE',
      timestampMs: now(),
      organizationId: root,
      parameters: { smartContractInterfaceId: idlId },
    })
  })

  it('keeps several interfaces for one address (matched in any letter case); each is its own record', async () => {
    const address = '0x00000000000000000000000000000000000000aa'
    const a = await create({ smartContractAddress: address, smartContractInterface: ABI, type: ETH, label: 'v1' })
    const b = await create({
      smartContractAddress: address.toUpperCase().replace('0X', '0x'),
      smartContractInterface: ABI,
      type: ETH,
      label: 'v2',
    })
    const listed = (await client.getSmartContractInterfaces({ organizationId: root })).smartContractInterfaces
    expect(
      listed.filter((i) => i.smartContractAddress.toLowerCase() === address).map((i) => [i.smartContractInterfaceId, i.label]),
    ).toEqual([
      [a, 'v1'],
      [b, 'v2'],
    ])
    for (const smartContractInterfaceId of [a, b]) {
      await client.deleteSmartContractInterface({
        type: 'ACTIVITY_TYPE_DELETE_SMART_CONTRACT_INTERFACE',
        timestampMs: now(),
        organizationId: root,
        parameters: { smartContractInterfaceId },
      })
    }
  })

  it('an organization reads and deletes only its own interfaces; a parent reads its sub-organization but cannot act in it (custody)', async () => {
    const sub = await subOrganization('sci-sub')
    const mine = await create({ smartContractAddress: PROGRAM_ID, smartContractInterface: IDL, type: SOL, label: 'root idl' })
    const theirs = await create(
      { smartContractAddress: PROGRAM_ID, smartContractInterface: IDL, type: SOL, label: 'sub idl' },
      sub.client,
      sub.id,
    )

    // The sub-organization asks for the root's interface in its own organization: not there.
    const cross = await sub.client.getSmartContractInterface({ organizationId: sub.id, smartContractInterfaceId: mine }).catch((e) => e)
    expect(cross).toMatchObject({ code: 5 })
    // ...or in the root's organization: its key has no standing there.
    const up = await sub.client.getSmartContractInterface({ organizationId: root, smartContractInterfaceId: mine }).catch((e) => e)
    expect(up.code === 16 || up.code === 7).toBe(true)
    const upList = await sub.client.getSmartContractInterfaces({ organizationId: root }).catch((e) => e)
    expect(upList.code === 16 || upList.code === 7).toBe(true)
    // Deleting it from the sub-organization: 404 naming the id, and it stays.
    const del = await svc.post(
      '/public/v1/submit/delete_smart_contract_interface',
      submitBody('ACTIVITY_TYPE_DELETE_SMART_CONTRACT_INTERFACE', sub.id, { smartContractInterfaceId: mine }),
      sub.stamper,
    )
    expectRefused(del, 'parameters.smartContractInterfaceId', 404)
    // The root cannot act in the sub-organization at all (custody): deleting its own
    // interface there or the sub-organization's is 403 naming organizationId, and both stay.
    for (const smartContractInterfaceId of [mine, theirs]) {
      const rootInSub = await svc.post(
        '/public/v1/submit/delete_smart_contract_interface',
        submitBody('ACTIVITY_TYPE_DELETE_SMART_CONTRACT_INTERFACE', sub.id, { smartContractInterfaceId }),
      )
      expectRefused(rootInSub, 'organizationId', 403)
      expect(rootInSub.json.details.find((d: any) => d.reason)?.reason).toBe('PERMISSION_DENIED')
    }
    expect(
      (await client.getSmartContractInterface({ organizationId: root, smartContractInterfaceId: mine })).smartContractInterface.label,
    ).toBe('root idl')
    // The root reads the sub-organization's interface in the sub-organization, not in its own.
    expect(
      (await client.getSmartContractInterface({ organizationId: sub.id, smartContractInterfaceId: theirs })).smartContractInterface,
    ).toMatchObject({ organizationId: sub.id, label: 'sub idl' })
    const notRoot = await svc.post('/public/v1/query/get_smart_contract_interface', {
      organizationId: root,
      smartContractInterfaceId: theirs,
    })
    expectRefused(notRoot, 'smartContractInterfaceId', 404)
    expect(
      (await sub.client.getSmartContractInterfaces({ organizationId: sub.id })).smartContractInterfaces.map(
        (i) => i.smartContractInterfaceId,
      ),
    ).toEqual([theirs])
    expect(
      (await client.getSmartContractInterfaces({ organizationId: root })).smartContractInterfaces.map((i) => i.smartContractInterfaceId),
    ).not.toContain(theirs)
  })

  it(`refuses a ${MAX_SMART_CONTRACT_INTERFACES + 1}st interface in one organization`, async () => {
    const sub = await subOrganization('sci-full')
    const body = (label: string) =>
      submitBody('ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE', sub.id, {
        smartContractAddress: PROGRAM_ID,
        smartContractInterface: IDL,
        type: SOL,
        label,
      })
    for (let i = 0; i < MAX_SMART_CONTRACT_INTERFACES; i++) {
      const r = await svc.post('/public/v1/submit/create_smart_contract_interface', body(`n${i}`), sub.stamper)
      expect(r.status, JSON.stringify(r.json)).toBe(200)
    }
    const full = await svc.post('/public/v1/submit/create_smart_contract_interface', body('one too many'), sub.stamper)
    expect(full.status).toBe(412)
    expect(full.json.message).toMatch(/holds 100 smart contract interfaces/)
    expect(full.json.details.find((d: any) => d.reason)?.reason).toBe('FAILED_PRECONDITION')
    expect((await sub.client.getSmartContractInterfaces({ organizationId: sub.id })).smartContractInterfaces).toHaveLength(
      MAX_SMART_CONTRACT_INTERFACES,
    )
  })
})

describe('bad input', () => {
  const good = {
    smartContractAddress: getAddress('0x5fbdb2315678afecb367f032d93f642f64180aa3'),
    smartContractInterface: ABI,
    type: ETH,
    label: 'x',
  }
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['text that is not JSON', { smartContractInterface: '[{"type":"error",' }, 'parameters.smartContractInterface'],
    ['JSON that is not an ABI', { smartContractInterface: '{"contractName":"Denier"}' }, 'parameters.smartContractInterface'],
    [
      'an ABI item with an unknown type',
      { smartContractInterface: '[{"type":"error","name":"E","inputs":[{"type":"uint9"}]}]' },
      'parameters.smartContractInterface',
    ],
    ['a build artifact instead of its ABI', { smartContractInterface: JSON.stringify(DENIER) }, 'parameters.smartContractInterface'],
    ['an ABI over 400 KiB', { smartContractInterface: `[${' '.repeat(400 * 1024)}]` }, 'parameters.smartContractInterface'],
    ['an IDL given as ETHEREUM', { smartContractInterface: IDL }, 'parameters.smartContractInterface'],
    ['an ABI given as SOLANA', { type: SOL, smartContractAddress: PROGRAM_ID }, 'parameters.smartContractInterface'],
    ['a short EVM address', { smartContractAddress: '0x5fbdb2315678afecb367f032d93f642f64180a' }, 'parameters.smartContractAddress'],
    ['a Solana address for ETHEREUM', { smartContractAddress: PROGRAM_ID }, 'parameters.smartContractAddress'],
    ['an EVM address for SOLANA', { type: SOL, smartContractInterface: IDL }, 'parameters.smartContractAddress'],
    [
      'a Solana address of 31 bytes',
      { type: SOL, smartContractInterface: IDL, smartContractAddress: '1111111111111111111111111111111' },
      'parameters.smartContractAddress',
    ],
    ['no label', { label: '' }, 'parameters.label'],
    ['notes too long', { notes: 'n'.repeat(4097) }, 'parameters.notes'],
    ['an unknown type', { type: 'SMART_CONTRACT_INTERFACE_TYPE_TRON' }, 'parameters.type'],
  ]
  /** Interfaces and create activities of the root organization. */
  const stored = async () => ({
    interfaces: await countRows('SELECT count(*) AS n FROM smart_contract_interfaces WHERE organization_id = $1', [root]),
    activities: await countRows('SELECT count(*) AS n FROM activities WHERE type = $1 AND organization_id = $2', [
      'ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE',
      root,
    ]),
  })
  let before: Awaited<ReturnType<typeof stored>>
  beforeAll(async () => {
    before = await stored()
  })

  for (const [what, change, field] of cases) {
    it(`refuses ${what} naming ${field}`, async () => {
      const r = await svc.post(
        '/public/v1/submit/create_smart_contract_interface',
        submitBody('ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE', root, { ...good, ...change }),
      )
      expectRefused(r, field)
      expect(r.json.details.find((d: any) => d.reason)?.reason).toBe('INVALID_ARGUMENT')
    })
  }

  it('stored nothing for the refused requests: no interface, no activity', async () => {
    expect(await stored()).toEqual(before)
  })

  it('get and delete require the id; an unknown id is a 404 naming it', async () => {
    expectRefused(await svc.post('/public/v1/query/get_smart_contract_interface', { organizationId: root }), 'smartContractInterfaceId')
    expectRefused(
      await svc.post('/public/v1/query/get_smart_contract_interface', {
        organizationId: root,
        smartContractInterfaceId: crypto.randomUUID(),
      }),
      'smartContractInterfaceId',
      404,
    )
    expectRefused(
      await svc.post(
        '/public/v1/submit/delete_smart_contract_interface',
        submitBody('ACTIVITY_TYPE_DELETE_SMART_CONTRACT_INTERFACE', root, { smartContractInterfaceId: '' }),
      ),
      'parameters.smartContractInterfaceId',
    )
  })
})

describe('custom revert decoding on the dev EVM chain', () => {
  let eth: string
  const evm = () => createPublicClient({ transport: http(node.url) })

  beforeAll(async () => {
    const wallet = await client.createWallet({
      type: 'ACTIVITY_TYPE_CREATE_WALLET',
      timestampMs: now(),
      organizationId: root,
      parameters: {
        walletName: 'reverts',
        accounts: [
          { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
        ],
      },
    })
    ;[eth] = wallet.activity.result.createWalletResult?.addresses as [string]
    expect((await svc.post('/dev/faucet', { caip2: 'eip155:31337', address: eth, amount: '10' }, null)).status).toBe(200)
  })

  /** Deploys Denier from its committed creation bytecode; answers its address (lower case, as the node gives it). */
  async function deployDenier(): Promise<string> {
    const receipt = await sendFromDevFunder(node.url, { data: DENIER.bytecode, gas: '0x100000' })
    expect(receipt.status).toBe('success')
    return (receipt.contractAddress as string).toLowerCase()
  }

  /** Calls `f(x)` on `to` with eth_send_transaction (official client) and polls the send to its end. */
  async function callF(to: string, x: bigint, extra: { gasLimit?: string } = {}, c = client, organizationId = root, from = eth) {
    const res = await c.ethSendTransaction({
      type: 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2',
      timestampMs: now(),
      organizationId,
      parameters: {
        from,
        caip2: 'eip155:31337' as any,
        calls: [{ to, data: encodeFunctionData({ abi: DENIER.abi, functionName: 'f', args: [x] }) }],
        ...extra,
      },
    })
    const sendTransactionStatusId = res.activity.result.ethSendTransactionResultV2?.sendTransactionStatusId as string
    const deadline = Date.now() + 20_000
    for (;;) {
      const status = await c.getSendTransactionStatus({ organizationId, sendTransactionStatusId })
      if (status.txStatus === 'INCLUDED' || status.txStatus === 'FAILED' || Date.now() > deadline) return status
      await new Promise((r) => setTimeout(r, 50))
    }
  }

  let denier: string
  let abiId: string

  it('without an interface the revert is unknown, with its selector', async () => {
    denier = await deployDenier()
    const status = await callF(denier, 42n)
    expect(status.txStatus).toBe('FAILED')
    expect(status.error?.revertChain?.[0]).toMatchObject({
      address: denier,
      errorType: 'unknown',
      unknown: { selector: DENIED_SELECTOR },
    })
    expect(status.error?.revertChain?.[0]?.custom).toBeUndefined()
  })

  it("with the contract's ABI registered (checksummed address) the simulated revert is Denied(who, amount)", async () => {
    abiId = await create({ smartContractAddress: getAddress(denier), smartContractInterface: ABI, type: ETH, label: 'Denier' })
    const status = await callF(denier, 42n)
    expect(status.txStatus).toBe('FAILED')
    expect(status.eth?.txHash).toBeUndefined()
    const entry = status.error?.revertChain?.[0]
    expect(entry).toMatchObject({ address: denier, errorType: 'custom', custom: { errorName: 'Denied' } })
    expect(JSON.parse(entry?.custom?.paramsJson as string)).toEqual({ who: eth.toLowerCase(), amount: '42' })
    expect(entry?.displayMessage).toBe(`Denied(${eth.toLowerCase()}, 42)`)
    expect(status.error?.message).toBe(`transaction would revert: Denied(${eth.toLowerCase()}, 42)`)
    expect(status.txError).toContain('Denied(')
    expect(status.error?.eth?.revertChain).toEqual(status.error?.revertChain)
  })

  it('a transaction mined and reverted on chain (gas given, no simulation) is decoded the same way', async () => {
    const status = await callF(denier, 7n, { gasLimit: '100000' })
    expect(status.txStatus).toBe('FAILED')
    expect((await evm().getTransactionReceipt({ hash: status.eth?.txHash as Hex })).status).toBe('reverted')
    expect(status.error?.revertChain?.[0]).toMatchObject({ address: denier, errorType: 'custom', custom: { errorName: 'Denied' } })
    expect(JSON.parse(status.error?.revertChain?.[0]?.custom?.paramsJson as string)).toEqual({ who: eth.toLowerCase(), amount: '7' })
    expect(status.error?.message).toMatch(/^transaction reverted: Denied\(/)
  })

  it("another contract's revert is decoded with any of the organization's ABIs declaring its selector", async () => {
    const twin = await deployDenier()
    expect(twin).not.toBe(denier)
    const status = await callF(twin, 5n)
    expect(status.error?.revertChain?.[0]).toMatchObject({ address: twin, errorType: 'custom', custom: { errorName: 'Denied' } })
  })

  it("another organization's sends do not use these interfaces", async () => {
    const sub = await subOrganization('sci-sender')
    const wallet = await sub.client.createWallet({
      type: 'ACTIVITY_TYPE_CREATE_WALLET',
      timestampMs: now(),
      organizationId: sub.id,
      parameters: {
        walletName: 'sub reverts',
        accounts: [
          { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
        ],
      },
    })
    const [subEth] = wallet.activity.result.createWalletResult?.addresses as [string]
    expect((await svc.post('/dev/faucet', { caip2: 'eip155:31337', address: subEth, amount: '1' }, null)).status).toBe(200)
    const status = await callF(denier, 1n, {}, sub.client, sub.id, subEth)
    expect(status.txStatus).toBe('FAILED')
    expect(status.error?.revertChain?.[0]).toMatchObject({ errorType: 'unknown', unknown: { selector: DENIED_SELECTOR } })
  })

  it('once the interface is deleted the revert is unknown again', async () => {
    await client.deleteSmartContractInterface({
      type: 'ACTIVITY_TYPE_DELETE_SMART_CONTRACT_INTERFACE',
      timestampMs: now(),
      organizationId: root,
      parameters: { smartContractInterfaceId: abiId },
    })
    const status = await callF(denier, 42n)
    expect(status.error?.revertChain?.[0]).toMatchObject({ errorType: 'unknown', unknown: { selector: DENIED_SELECTOR } })
  })
})
