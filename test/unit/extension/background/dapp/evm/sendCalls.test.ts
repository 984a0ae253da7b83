/**
 * EIP-5792 through the real router and approval registry: wallet_getCapabilities (atomic from
 * the service's Gas Station and the account's code, paymasterService from the gas budget),
 * wallet_sendCalls (params, chain, capabilities, one window for the batch, what the service is
 * asked), wallet_getCallsStatus (per origin, status codes, receipts) and the refusal of any
 * site-chosen EIP-7702 delegate.
 */
import { encodeFunctionData, parseAbi } from 'viem'
import { describe, expect, it } from 'vitest'
import { batchStatusCode, sendStateOf } from '@/src/extension/background/dapp/evm/callsStatus'
import { applySiteChain } from '@/src/extension/background/dapp/evm/switchChain'
import { DEFAULT_SETTINGS } from '@/src/extension/background/service/settings'
import { ACCOUNT, activity, type ExtraFetch, ORIGIN, OTHER, setup } from '../../../approvalFixture'
import { fakeIdentity } from '../../../fakeDeps'

const RPC = 'http://node.test/'
const GS = `0x${'5a'.repeat(20)}`
const TO = `0x${'22'.repeat(20)}`
const TOKEN = `0x${'77'.repeat(20)}`
const GWEI = 1_000_000_000n
const HASH = `0x${'ab'.repeat(32)}`
const NETWORK = {
  caip2: 'eip155:31337',
  family: 'evm' as const,
  name: 'Dev chain',
  rpcUrl: RPC,
  nativeSymbol: 'ETH',
  nativeDecimals: 18,
  dev: true,
  tokens: [],
  gasStation: GS,
}
const IDENTITY = fakeIdentity(DEFAULT_SETTINGS.apiBaseUrl, undefined, [NETWORK])

type Opts = {
  code?: string
  gasStation?: boolean
  usage?: { windowLimitUsd: string; usageUsd: string } | null
  statuses?: Record<string, unknown>
  receipt?: unknown
}

function world(o: Opts = {}) {
  const node: Array<{ method: string; params: any[] }> = []
  const sends: any[] = []
  let n = 0
  const extra: ExtraFetch = (url, body) => {
    if (url.href === RPC) {
      node.push({ method: body.method, params: body.params })
      const answer = (result: unknown) => ({ jsonrpc: '2.0', id: body.id, result })
      switch (body.method) {
        case 'eth_getCode':
          return answer(o.code ?? '0x')
        case 'eth_call':
          return answer('0x')
        case 'eth_estimateGas':
          return answer('0xc350') // 50,000
        case 'eth_maxPriorityFeePerGas':
          return answer(`0x${GWEI.toString(16)}`)
        case 'eth_getBlockByNumber':
          return answer({ number: '0x10', baseFeePerGas: `0x${GWEI.toString(16)}` })
        case 'eth_getTransactionReceipt':
          return answer(o.receipt ?? null)
      }
      return { jsonrpc: '2.0', id: body.id, error: { code: -32601, message: 'no' } }
    }
    if (url.pathname === '/public/v1/query/get_nonces') {
      if (o.gasStation === false) return new Response(JSON.stringify({ code: 3, message: 'no gas station' }), { status: 400 })
      return { gasStationNonce: '0' }
    }
    if (url.pathname === '/public/v1/query/get_gas_usage') {
      if (!o.usage) return new Response(JSON.stringify({ code: 9, message: 'not enabled' }), { status: 400 })
      return { windowDurationMinutes: 60, ...o.usage }
    }
    if (url.pathname === '/public/v1/submit/eth_send_transaction') {
      sends.push(body)
      n += 1
      return activity('ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2', { ethSendTransactionResultV2: { sendTransactionStatusId: `send-${n}` } })
    }
    if (url.pathname === '/public/v1/submit/eth_undelegate_7702') {
      sends.push(body)
      o.code = '0x'
      return activity('ACTIVITY_TYPE_ETH_UNDELEGATE_7702', { ethUndelegate7702Result: { sendTransactionStatusId: 'undo-1' } })
    }
    if (url.pathname === '/public/v1/query/get_send_transaction_status') {
      if (body.sendTransactionStatusId === 'undo-1') return { txStatus: 'INCLUDED', eth: { txHash: HASH } }
      return o.statuses?.[body.sendTransactionStatusId] ?? { txStatus: 'BROADCASTING', eth: { txHash: HASH } }
    }
    if (url.pathname === '/public/v1/query/list_smart_contract_interfaces') return { smartContractInterfaces: [] }
    return undefined
  }
  const t = setup({ extra, identity: IDENTITY, loginWindow: true })
  return { ...t, node, sends }
}

const erc20 = parseAbi(['function transfer(address to, uint256 amount)'])
const transferData = encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [TO as `0x${string}`, 7n] })
const batch = (over: Record<string, unknown> = {}) => ({
  version: '2.0.0',
  chainId: '0x7a69',
  from: ACCOUNT.address,
  atomicRequired: true,
  calls: [
    { to: TO, value: '0xde0b6b3a7640000' },
    { to: TO, value: '0x6f05b59d3b20000' },
    { to: TOKEN, data: transferData },
  ],
  ...over,
})

describe('wallet_getCapabilities', () => {
  it('atomic supported where the service has a Gas Station, ready once delegated to it, unsupported when delegated elsewhere', async () => {
    const t = world()
    await t.connected()
    expect(await t.rpc('wallet_getCapabilities', [ACCOUNT.address])).toEqual({ result: { '0x7a69': { atomic: { status: 'supported' } } } })

    const ready = world({ code: `0xef0100${GS.slice(2)}` })
    await ready.connected()
    expect(await ready.rpc('wallet_getCapabilities', [ACCOUNT.address, ['0x7a69']])).toEqual({
      result: { '0x7a69': { atomic: { status: 'ready' } } },
    })

    const elsewhere = world({ code: `0xef0100${'99'.repeat(20)}` })
    await elsewhere.connected()
    expect(await elsewhere.rpc('wallet_getCapabilities', [ACCOUNT.address])).toEqual({
      result: { '0x7a69': { atomic: { status: 'unsupported' } } },
    })
  })

  it('unsupported where the service refuses the Gas Station nonce; paymasterService only with budget left', async () => {
    const none = world({ gasStation: false, usage: { windowLimitUsd: '10', usageUsd: '0' } })
    await none.connected()
    expect(await none.rpc('wallet_getCapabilities', [ACCOUNT.address])).toEqual({
      result: { '0x7a69': { atomic: { status: 'unsupported' } } },
    })

    const sponsored = world({ usage: { windowLimitUsd: '10', usageUsd: '2.5' } })
    await sponsored.connected()
    expect(await sponsored.rpc('wallet_getCapabilities', [ACCOUNT.address])).toEqual({
      result: { '0x7a69': { atomic: { status: 'supported' }, paymasterService: { supported: true } } },
    })

    const spent = world({ usage: { windowLimitUsd: '10', usageUsd: '10' } })
    await spent.connected()
    expect((await spent.rpc('wallet_getCapabilities', [ACCOUNT.address])).result['0x7a69'].paymasterService).toBeUndefined()
  })

  it('answers only for a connected account (4100), and filters by the chain ids asked', async () => {
    const t = world()
    await t.login()
    expect(await t.rpc('wallet_getCapabilities', [ACCOUNT.address])).toMatchObject({ error: { code: 4100 } })
    await t.connected()
    expect(await t.rpc('wallet_getCapabilities', [`0x${'33'.repeat(20)}`])).toMatchObject({ error: { code: 4100 } })
    expect(await t.rpc('wallet_getCapabilities', [ACCOUNT.address, ['0x1']])).toEqual({ result: {} })
  })
})

describe('wallet_sendCalls', () => {
  it('refuses bad params naming the field, other chains (5710), required unknown capabilities (5700), 51 calls (5740), delegates', async () => {
    const t = world()
    await t.connected()
    const err = async (req: unknown) => (await t.rpc('wallet_sendCalls', [req])).error
    expect(await err(batch({ version: '1.0' }))).toMatchObject({ code: -32602, message: expect.stringContaining('version') })
    expect(await err(batch({ calls: [{ to: '0x12' }] }))).toMatchObject({ code: -32602, message: expect.stringContaining('calls[0].to') })
    expect(await err(batch({ atomicRequired: 'yes' }))).toMatchObject({ code: -32602, message: expect.stringContaining('atomicRequired') })
    expect(await err(batch({ calls: [{ to: TO }, { data: '0x6080' }] }))).toMatchObject({
      code: -32602,
      message: expect.stringContaining('calls[1].to'),
    })
    expect(await err(batch({ chainId: '0x1' }))).toMatchObject({ code: 5710 })
    expect(await err(batch({ capabilities: { auxiliaryFunds: { supported: true } } }))).toMatchObject({
      code: 5700,
      message: expect.stringContaining('auxiliaryFunds'),
    })
    expect(await err(batch({ calls: Array.from({ length: 51 }, () => ({ to: TO })) }))).toMatchObject({ code: 5740 })
    expect(await err(batch({ authorizationList: [{ address: TO }] }))).toEqual({
      code: -32602,
      message: 'Sigil does not let sites choose an account delegate (authorizationList)',
    })
    expect(await err(batch({ calls: [{ to: TO, authorizationList: [] }] }))).toMatchObject({ code: -32602 })
    // an optional unknown capability is ignored: the window opens
    const pending = t.rpc('wallet_sendCalls', [batch({ capabilities: { auxiliaryFunds: { optional: true } } })])
    await t.windowOpened(2)
    expect(t.windows).toHaveLength(2)
    await t.popup('approvalResolve', { id: t.windows[1]!.approvalId, approved: false })
    expect(await pending).toMatchObject({ error: { code: 4001 } })
    expect(t.sends).toEqual([])
  })

  it('eth_sendTransaction and eth_signTransaction with an authorization list are refused before any window', async () => {
    const t = world()
    await t.connected()
    const tx = { from: ACCOUNT.address, to: TO, authorizationList: [{ address: TO, chainId: '0x7a69', nonce: '0x0' }] }
    for (const m of ['eth_sendTransaction', 'eth_signTransaction'])
      expect(await t.rpc(m, [tx])).toEqual({
        error: { code: -32602, message: 'Sigil does not let sites choose an account delegate (authorizationList)' },
      })
    expect(await t.rpc('wallet_signAuthorization', [{}])).toMatchObject({ error: { code: 4200 } })
    expect(await t.rpc('eth_signAuthorization', [{}])).toMatchObject({ error: { code: 4200 } })
    expect(t.windows).toHaveLength(1)
  })

  it('one window shows every call decoded, the total, the gas payer and the upgrade; the service gets one batch send', async () => {
    const t = world()
    await t.connected()
    const pending = t.rpc('wallet_sendCalls', [batch()])
    const w = await t.windowOpened(2)
    const { view, method } = (await t.popup('approvalGet', { id: w.approvalId })).result
    expect(method).toBe('wallet_sendCalls')
    expect(view).toMatchObject({
      kind: 'sendCalls',
      address: ACCOUNT.address,
      chain: { chainId: '0x7a69', name: 'Dev chain' },
      total: '1.5 ETH',
      atomic: true,
      gasPayer: 'you',
      upgrade: true,
      warnings: [],
    })
    expect(view.calls.map((c: any) => [c.to, c.value, c.call?.method ?? null])).toEqual([
      [TO, '1 ETH', null],
      [TO, '0.5 ETH', null],
      [TOKEN, '0 ETH', 'transfer(address,uint256)'],
    ])
    expect(view.calls[2].call.rows).toContainEqual(['Amount', '7 (token decimals unknown)'])
    // 21,000 + 3 × (29,000 + 10,000) + 30,000 + 25,000 (the authorization)
    expect(view.fees).toContainEqual(['Gas limit', '193000'])
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    const answer = await pending
    expect(answer.result.id).toMatch(/^0x[0-9a-f]{64}$/)
    expect(t.sends).toHaveLength(1)
    expect(t.sends[0].parameters).toEqual({
      from: ACCOUNT.address,
      caip2: 'eip155:31337',
      calls: [
        { to: TO, value: '1000000000000000000', data: '0x' },
        { to: TO, value: '500000000000000000', data: '0x' },
        { to: TOKEN, value: '0', data: transferData },
      ],
    })

    // Status: pending while broadcast, 200 with the node's receipt once included; another site cannot see it.
    expect(await t.rpc('wallet_getCallsStatus', [answer.result.id])).toEqual({
      result: { version: '2.0.0', id: answer.result.id, chainId: '0x7a69', status: 100, atomic: true },
    })
    expect(await t.rpc('wallet_getCallsStatus', [answer.result.id], OTHER)).toMatchObject({ error: { code: 5730 } })
    expect(await t.rpc('wallet_getCallsStatus', ['0x1234'])).toMatchObject({ error: { code: 5730 } })
  })

  it('sponsored when the site asks for paymasterService and the service sponsors; a required paymaster without budget is 5700', async () => {
    const t = world({ usage: { windowLimitUsd: '10', usageUsd: '0' }, code: `0xef0100${GS.slice(2)}` })
    await t.connected()
    const pending = t.rpc('wallet_sendCalls', [batch({ capabilities: { paymasterService: { url: 'https://pm.example' } } })])
    const w = await t.windowOpened(2)
    const { view } = (await t.popup('approvalGet', { id: w.approvalId })).result
    expect(view).toMatchObject({ gasPayer: 'sponsor', upgrade: false, fees: [] })
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    expect((await pending).result.id).toBeDefined()
    expect(t.sends[0].parameters.sponsor).toBe(true)

    const broke = world({ usage: null })
    await broke.connected()
    expect(
      await broke.rpc('wallet_sendCalls', [batch({ capabilities: { paymasterService: { url: 'https://pm.example' } } })]),
    ).toMatchObject({
      error: { code: 5700, message: expect.stringContaining('paymasterService') },
    })
  })

  it('without a Gas Station: atomicRequired is 5760; otherwise one send per call after one approval, status 600 when one reverted', async () => {
    const t = world({
      gasStation: false,
      statuses: {
        'send-1': { txStatus: 'INCLUDED', eth: { txHash: HASH } },
        'send-2': { txStatus: 'FAILED', eth: { txHash: HASH } },
        'send-3': { txStatus: 'INCLUDED', eth: { txHash: HASH } },
      },
      receipt: {
        status: '0x1',
        blockHash: `0x${'cd'.repeat(32)}`,
        blockNumber: '0x11',
        gasUsed: '0x5208',
        transactionHash: HASH,
        logs: [{ address: TOKEN, data: '0x', topics: [`0x${'ee'.repeat(32)}`], logIndex: '0x0' }],
        cumulativeGasUsed: '0x5208',
      },
    })
    await t.connected()
    expect(await t.rpc('wallet_sendCalls', [batch()])).toMatchObject({ error: { code: 5760 } })
    const pending = t.rpc('wallet_sendCalls', [batch({ atomicRequired: false, id: 'my-batch' })])
    const w = await t.windowOpened(2)
    expect((await t.popup('approvalGet', { id: w.approvalId })).result.view).toMatchObject({ atomic: false, upgrade: false })
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    expect(await pending).toEqual({ result: { id: 'my-batch' } })
    expect(t.sends.map((s) => s.parameters.calls.length)).toEqual([1, 1, 1])
    const status = (await t.rpc('wallet_getCallsStatus', ['my-batch'])).result
    expect(status).toMatchObject({ id: 'my-batch', status: 600, atomic: false })
    expect(status.receipts).toHaveLength(3)
    expect(status.receipts[0]).toEqual({
      status: '0x1',
      blockHash: `0x${'cd'.repeat(32)}`,
      blockNumber: '0x11',
      gasUsed: '0x5208',
      transactionHash: HASH,
      logs: [{ address: TOKEN, data: '0x', topics: [`0x${'ee'.repeat(32)}`] }],
    })
    // the same id again is 5720
    expect(await t.rpc('wallet_sendCalls', [batch({ atomicRequired: false, id: 'my-batch' })])).toMatchObject({ error: { code: 5720 } })
  })
})

describe('wallet_sendCalls with one deployment', () => {
  it('needs creation code; shows "a new contract", not decoded; the service gets one call without to, never sponsored', async () => {
    const t = world({ usage: { windowLimitUsd: '10', usageUsd: '0' } })
    await t.connected()
    expect((await t.rpc('wallet_sendCalls', [batch({ calls: [{ value: '0x1' }] })])).error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('calls[0].data'),
    })
    const creation = `0x6080604052${'00'.repeat(40)}`
    const required = batch({ calls: [{ data: creation }], capabilities: { paymasterService: { url: 'https://pm.example' } } })
    expect((await t.rpc('wallet_sendCalls', [required])).error).toMatchObject({ code: 5700 })
    const pending = t.rpc('wallet_sendCalls', [batch({ calls: [{ data: creation }] })])
    const w = await t.windowOpened(2)
    const { view } = (await t.popup('approvalGet', { id: w.approvalId })).result
    expect(view).toMatchObject({ atomic: true, upgrade: false, gasPayer: 'you' })
    expect(view.calls).toEqual([{ to: null, value: '0 ETH', valueWei: '0', data: creation, call: null, selector: null, failure: null }])
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    expect((await pending).result.id).toBeDefined()
    expect(t.sends.map((x) => x.parameters)).toEqual([
      { from: ACCOUNT.address, caip2: 'eip155:31337', calls: [{ value: '0', data: creation }] },
    ])
  })
})

describe('a pending batch is rejected and nothing is sent', () => {
  it('on lock (4100) and when the site switches chain (4001)', async () => {
    const t = world()
    await t.connected()
    const locked = t.rpc('wallet_sendCalls', [batch()])
    await t.windowOpened(2)
    await t.bg.core.wipe('lock')
    expect(await locked).toEqual({ error: { code: 4100, message: 'Unauthorized: the wallet was locked' } })

    const s = world()
    await s.connected()
    const switched = s.rpc('wallet_sendCalls', [batch()])
    await s.windowOpened(2)
    await applySiteChain(
      { origin: ORIGIN, state: s.bg.state, core: s.bg.core, dapp: s.bg.dapp },
      { chainId: '0x1', name: 'Ethereum', caip2: 'eip155:1', rpcUrl: RPC, nativeSymbol: 'ETH', nativeDecimals: 18, added: false },
    )
    expect(await switched).toMatchObject({ error: { code: 4001 } })
    expect([...t.sends, ...s.sends]).toEqual([])
  })
})

describe('wallet_showCallsStatus', () => {
  it("opens Sigil's window for the site's own batch (null); another site's or an unknown id is 5730 and opens nothing", async () => {
    const t = world()
    await t.connected()
    const pending = t.rpc('wallet_sendCalls', [batch({ id: 'shown' })])
    await t.popup('approvalResolve', { id: (await t.windowOpened(2)).approvalId, approved: true })
    expect(await pending).toEqual({ result: { id: 'shown' } })
    expect(await t.rpc('wallet_showCallsStatus', ['shown'], OTHER)).toMatchObject({ error: { code: 5730 } })
    expect(await t.rpc('wallet_showCallsStatus', ['nope'])).toMatchObject({ error: { code: 5730 } })
    expect(t.loginWindows).toHaveLength(0)
    expect(await t.rpc('wallet_showCallsStatus', ['shown'])).toEqual({ result: null })
    expect(t.loginWindows).toHaveLength(1)
  })
})

describe('the home screen delegation rows', () => {
  it("names Sigil's batch executor or another delegate; undelegate goes through the service, waits for it to land and reads the node again", async () => {
    const t = world({ code: `0xef0100${GS.slice(2)}` })
    await t.login()
    const address = ACCOUNT.address
    expect((await t.popup('delegation', { caip2: 'eip155:31337', address })).result.delegation).toEqual({ kind: 'sigil', to: GS })
    const other = world({ code: `0xef0100${'99'.repeat(20)}` })
    await other.login()
    expect((await other.popup('delegation', { caip2: 'eip155:31337', address })).result.delegation).toEqual({
      kind: 'other',
      to: `0x${'99'.repeat(20)}`,
    })
    // malformed, or not one of the service's networks: refused naming the field
    expect(await t.popup('delegation', { caip2: 'eip155:31337', address: '0x12' })).toMatchObject({
      ok: false,
      error: { field: 'address' },
    })
    expect(await t.popup('delegation', { caip2: 'eip155:1', address })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } })
    // reading it asks the node only, never the service
    const service = () => t.calls.filter((c) => c.path.startsWith('/public/')).length
    const before = service()
    await t.popup('delegation', { caip2: 'eip155:31337', address })
    expect(service()).toBe(before)
    // Undelegate is for the user's own accounts only: nothing is sent for another address
    expect(await t.popup('undelegate', { caip2: 'eip155:31337', address: TO })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT' },
    })
    expect(t.sends).toEqual([])

    const undone = await other.popup('undelegate', { caip2: 'eip155:31337', address })
    expect(undone).toMatchObject({ ok: true, result: { delegation: { kind: 'none' } } })
    expect(other.sends.map((s) => [s.type, s.parameters])).toEqual([
      ['ACTIVITY_TYPE_ETH_UNDELEGATE_7702', { from: address, caip2: 'eip155:31337' }],
    ])
  })
})

describe('EIP-5792 status codes', () => {
  it('100 while any send is pending, 200 all included, 400 none reached the chain, 500 reverted, 600 mixed', () => {
    expect(batchStatusCode(['included', 'pending'])).toBe(100)
    expect(batchStatusCode(['included', 'included'])).toBe(200)
    expect(batchStatusCode(['failed'])).toBe(400)
    expect(batchStatusCode(['reverted'])).toBe(500)
    expect(batchStatusCode(['reverted', 'failed'])).toBe(500)
    expect(batchStatusCode(['included', 'failed'])).toBe(600)
    expect(sendStateOf({ txStatus: 'FAILED' })).toBe('failed')
    expect(sendStateOf({ txStatus: 'FAILED', eth: { txHash: HASH } })).toBe('reverted')
    expect(sendStateOf({ txStatus: 'BROADCASTING', eth: { txHash: HASH } })).toBe('pending')
  })
})
