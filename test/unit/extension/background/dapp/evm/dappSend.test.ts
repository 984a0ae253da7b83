/**
 * dApp EVM methods through the real router and approval registry: the read-only
 * passthrough (closed list, params, rate limit, node errors), eth_sendTransaction (params,
 * simulation before the window, binding of what is sent, the hash), wallet_addEthereumChain,
 * wallet_watchAsset, and rejection of a site's pending request on its chain switch and on lock.
 */
import {
  encodeErrorResult,
  encodeFunctionData,
  parseAbi,
  parseTransaction,
  recoverTransactionAddress,
  type TransactionSerialized,
} from 'viem'
import { describe, expect, it, vi } from 'vitest'
import { ADDED_CHAINS_KEY } from '@/src/extension/background/dapp/evm/chains'
import { applySiteChain } from '@/src/extension/background/dapp/evm/switchChain'
import { WATCHED_ASSETS_KEY } from '@/src/extension/background/dapp/evm/watchAsset'
import { READ_BURST } from '@/src/extension/background/dapp/rateLimit'
import { ACCOUNT, activity, type ExtraFetch, OTHER, ORIGIN, setup, ts } from '../../../approvalFixture'

const RPC_HOST = 'ethereum-rpc.publicnode.com'
const TO = `0x${'22'.repeat(20)}` as `0x${string}`
const GWEI = 1_000_000_000n
const HASH = `0x${'ab'.repeat(32)}`

type NodeAnswer = { result?: unknown; error?: unknown }
type NodeRow = (params: any[]) => NodeAnswer

const DEFAULTS: Record<string, NodeRow> = {
  eth_call: () => ({ result: '0x' }),
  eth_estimateGas: () => ({ result: '0x5208' }),
  eth_maxPriorityFeePerGas: () => ({ result: `0x${GWEI.toString(16)}` }),
  eth_getBlockByNumber: () => ({ result: { number: '0x10', baseFeePerGas: `0x${GWEI.toString(16)}` } }),
  eth_blockNumber: () => ({ result: '0x10' }),
  eth_getBalance: () => ({ result: '0xde0b6b3a7640000' }),
}

const DENIER_ABI = parseAbi(['error Denied(address who, uint256 amount)', 'function f(uint256 x) view'])
const ERROR_ABI = parseAbi(['error Error(string)'])

/** A fake EVM node at the built-in Ethereum RPC and the service's send paths. */
function world(rows: Record<string, NodeRow> = {}, opts: { statuses?: Array<Record<string, unknown>>; interfaces?: unknown[] } = {}) {
  const node: Array<{ method: string; params: any[] }> = []
  const sends: any[] = []
  const statuses = [...(opts.statuses ?? [{ txStatus: 'INITIALIZED' }, { txStatus: 'BROADCASTING', eth: { txHash: HASH } }])]
  const extra: ExtraFetch = (url, body) => {
    if (url.hostname === RPC_HOST) {
      node.push({ method: body.method, params: body.params })
      const row = rows[body.method] ?? DEFAULTS[body.method]
      if (!row) return { jsonrpc: '2.0', id: body.id, error: { code: -32601, message: 'the method does not exist' } }
      return { jsonrpc: '2.0', id: body.id, ...row(body.params) }
    }
    if (url.pathname === '/public/v1/submit/eth_send_transaction') {
      sends.push(body)
      return activity('ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2', { ethSendTransactionResultV2: { sendTransactionStatusId: 'send-1' } })
    }
    if (url.pathname === '/public/v1/query/get_send_transaction_status') return statuses.length > 1 ? statuses.shift() : statuses[0]
    if (url.pathname === '/public/v1/query/list_smart_contract_interfaces') return { smartContractInterfaces: opts.interfaces ?? [] }
    return undefined
  }
  const t = setup({ extra })
  return { ...t, node, sends }
}

const tx = { from: ACCOUNT.address, to: TO, value: '0xde0b6b3a7640000' }

describe('read-only RPC passthrough', () => {
  it("forwards a connected site's allow-listed reads to its network, parsed params only", async () => {
    const t = world()
    await t.connected()
    expect(await t.rpc('eth_blockNumber')).toEqual({ result: '0x10' })
    expect(await t.rpc('eth_getBalance', [ACCOUNT.address, 'latest'])).toEqual({ result: '0xde0b6b3a7640000' })
    await t.rpc('eth_call', [{ to: TO, data: '0x1234', evil: 'x' }, 'latest'])
    expect(t.node.at(-1)).toEqual({ method: 'eth_call', params: [{ to: TO, data: '0x1234' }, 'latest'] })
    expect(t.windows).toHaveLength(1) // the connection's
  })

  it('refuses malformed params (-32602) and anything off the list (4200) without asking the node', async () => {
    const t = world()
    for (const [m, p] of [
      ['eth_getBalance', ['0x12', 'latest']],
      ['eth_getBalance', [ACCOUNT.address, 'tomorrow']],
      ['eth_blockNumber', [1]],
      ['eth_getTransactionReceipt', ['0x12']],
      ['eth_getLogs', [{ topics: [[], [], [], [], []] }]],
      ['eth_feeHistory', ['0x4']],
    ] as const) {
      expect(await t.rpc(m, p)).toMatchObject({ error: { code: -32602 } })
    }
    for (const m of [
      'eth_sendRawTransaction',
      'eth_subscribe',
      'debug_traceCall',
      'eth_coinbase',
      'eth_newFilter',
      'personal_unlockAccount',
    ]) {
      expect(await t.rpc(m, [])).toEqual({ error: { code: 4200, message: `Unsupported method: ${m}` } })
    }
    expect(t.node).toEqual([])
  })

  it('maps node errors (fixed messages): reverts keep code 3 and data, unknown methods 4200, a node down -32603', async () => {
    const data = encodeErrorResult({ abi: ERROR_ABI, errorName: 'Error', args: ['nope'] })
    const t = world({
      eth_call: () => ({ error: { code: 3, message: 'execution reverted: nope', data } }),
      eth_getCode: () => ({ error: { code: -32601, message: 'no' } }),
      eth_gasPrice: () => {
        throw new Error('down')
      },
    })
    await t.connected()
    expect(await t.rpc('eth_call', [{ to: TO }])).toEqual({ error: { code: 3, message: 'execution reverted', data } })
    expect(await t.rpc('eth_getCode', [TO])).toMatchObject({ error: { code: 4200 } })
    expect(await t.rpc('eth_gasPrice')).toEqual({ error: { code: -32603, message: 'The RPC node of Ethereum did not answer' } })
  })

  it('limits each origin on its own', async () => {
    const t = world()
    await t.connected()
    const connecting = t.rpc('eth_requestAccounts', undefined, OTHER)
    await t.popup('approvalResolve', { id: (await t.windowOpened(2)).approvalId, approved: true })
    await connecting
    for (let i = 0; i < READ_BURST; i++) expect(await t.rpc('eth_blockNumber')).toEqual({ result: '0x10' })
    expect(await t.rpc('eth_blockNumber')).toEqual({ error: { code: -32005, message: 'Too many requests from this site: slow down' } })
    expect(await t.rpc('eth_blockNumber', undefined, OTHER)).toEqual({ result: '0x10' })
    t.f.advance(1000)
    expect(await t.rpc('eth_blockNumber')).toEqual({ result: '0x10' })
  })
})

describe('eth_sendTransaction', () => {
  it('checks who sends and the params before anything else', async () => {
    const t = world()
    await t.login()
    expect(await t.rpc('eth_sendTransaction', [tx])).toMatchObject({ error: { code: 4100 } }) // not connected
    await t.connected()
    expect(await t.rpc('eth_sendTransaction', [{ ...tx, from: `0x${'33'.repeat(20)}` }])).toMatchObject({ error: { code: 4100 } })
    expect(await t.rpc('eth_sendTransaction', [{ ...tx, to: '0x12' }])).toMatchObject({ error: { code: -32602 } })
    expect(await t.rpc('eth_sendTransaction', [{ ...tx, value: '-1' }])).toMatchObject({ error: { code: -32602 } })
    expect(await t.rpc('eth_sendTransaction', [])).toMatchObject({ error: { code: -32602 } })
    expect(await t.rpc('eth_sendTransaction', [{ ...tx, chainId: '0x2105' }])).toEqual({
      error: { code: -32602, message: "Invalid params for eth_sendTransaction: chainId 0x2105 is not this site's active chain 0x1" },
    })
    // without to: a deployment, which needs creation code
    expect(await t.rpc('eth_sendTransaction', [{ from: ACCOUNT.address, data: '0x' }])).toMatchObject({ error: { code: -32602 } })
    expect(t.windows).toHaveLength(1) // only the connect
    expect(t.node).toEqual([])
  })

  it('simulates before the window, shows what is sent, sends exactly that and answers the hash', async () => {
    const t = world()
    await t.connected()
    const data = encodeFunctionData({
      abi: parseAbi(['function transfer(address to, uint256 amount)']),
      functionName: 'transfer',
      args: [TO, 5n],
    })
    const pending = t.rpc('eth_sendTransaction', [{ ...tx, data }])
    const w = await t.windowOpened(2)
    const simulated = t.node.map((n) => n.method).sort()
    // The simulation, the balance changes' eth_simulateV1, then the token's decimals() and symbol() for the amount (this node answers neither).
    expect(simulated).toEqual([
      'eth_call',
      'eth_call',
      'eth_call',
      'eth_estimateGas',
      'eth_getBlockByNumber',
      'eth_maxPriorityFeePerGas',
      'eth_simulateV1',
    ])
    const reads = t.node.filter((n) => n.method === 'eth_call').map((n) => n.params[0].data)
    expect(reads.slice(1)).toEqual(['0x313ce567', '0x95d89b41'])
    const { view, method, origin } = (await t.popup('approvalGet', { id: w.approvalId })).result
    expect({ method, origin }).toEqual({ method: 'eth_sendTransaction', origin: ORIGIN })
    expect(view).toMatchObject({
      kind: 'sendTransaction',
      address: ACCOUNT.address,
      to: TO,
      value: '1 ETH',
      valueWei: '1000000000000000000',
      chain: { chainId: '0x1', name: 'Ethereum' },
      selector: null,
      fees: [
        ['Max fee per gas', '3 gwei'],
        ['Priority fee per gas', '1 gwei'],
        ['Gas limit', '25200'],
        ['Estimated fee', '≈ 0.000042 ETH'],
        ['Max network fee', 'at most 0.0000756 ETH'],
        ['Total (at most)', '1.0000756 ETH (value + max network fee)'],
      ],
      warnings: [],
    })
    expect(view.call.method).toBe('transfer(address,uint256)')
    expect(view.call.rows).toContainEqual(['Amount', '5 (token decimals unknown)'])
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    expect(await pending).toEqual({ result: HASH })
    expect(t.sends).toHaveLength(1)
    expect(t.sends[0].type).toBe('ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2')
    expect(t.sends[0].organizationId).toBe('org-1')
    expect(t.sends[0].parameters).toEqual({
      from: ACCOUNT.address,
      caip2: 'eip155:1',
      calls: [{ to: TO, value: '1000000000000000000', data }],
      gasLimit: '25200',
      maxFeePerGas: (3n * GWEI).toString(),
      maxPriorityFeePerGas: GWEI.toString(),
    })
  })

  it('an unknown call shows its selector; a rejected window answers 4001 and sends nothing', async () => {
    const t = world()
    await t.connected()
    const pending = t.rpc('eth_sendTransaction', [{ ...tx, data: '0xdeadbeef00' }])
    const w = await t.windowOpened(2)
    expect((await t.popup('approvalGet', { id: w.approvalId })).result.view).toMatchObject({ selector: '0xdeadbeef', call: null })
    await t.popup('approvalResolve', { id: w.approvalId, approved: false })
    expect(await pending).toEqual({ error: { code: 4001, message: 'User rejected the request' } })
    expect(t.sends).toEqual([])
  })

  it.each([
    ['Error(string)', encodeErrorResult({ abi: ERROR_ABI, errorName: 'Error', args: ['not allowed'] }), 'execution reverted: not allowed'],
    ['Panic(uint256)', `0x4e487b71${'11'.padStart(64, '0')}`, 'panic: arithmetic'],
    ['a custom error with no ABI', encodeErrorResult({ abi: DENIER_ABI, errorName: 'Denied', args: [TO, 42n] }), 'unknown error 0x'],
  ])('a reverting call shows "This transaction will fail" with %s decoded', async (_name, data, reason) => {
    const t = world({ eth_call: () => ({ error: { code: 3, message: 'execution reverted', data } }) })
    await t.connected()
    const pending = t.rpc('eth_sendTransaction', [{ ...tx, gas: '0x30000' }])
    const w = await t.windowOpened(2)
    const { view } = (await t.popup('approvalGet', { id: w.approvalId })).result
    expect(view.warnings).toHaveLength(1)
    expect(view.warnings[0]).toMatch(/^This transaction will fail: /)
    expect(view.warnings[0].toLowerCase()).toContain(reason.toLowerCase())
    await t.popup('approvalResolve', { id: w.approvalId, approved: false })
    await pending
  })

  it("a value above the balance shows the node's reason; a site disconnected while the window is open gets 4100, nothing sent", async () => {
    const t = world({ eth_call: () => ({ error: { code: -32003, message: 'insufficient funds for gas * price + value' } }) })
    await t.connected()
    const pending = t.rpc('eth_sendTransaction', [{ ...tx, value: '0xffffffffffffffffffff' }])
    const w = await t.windowOpened(2)
    const { view } = (await t.popup('approvalGet', { id: w.approvalId })).result
    expect(view.warnings).toEqual(['This transaction will fail: insufficient funds for gas * price + value'])
    await t.rpc('wallet_revokePermissions', [{ eth_accounts: {} }])
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    expect(await pending).toMatchObject({ error: { code: 4100 } })
    expect(t.sends).toEqual([])
  })

  it("decodes a custom error with the organization's smart-contract interface", async () => {
    const data = encodeErrorResult({ abi: DENIER_ABI, errorName: 'Denied', args: [ACCOUNT.address, 42n] })
    const iface = {
      organizationId: 'org-1',
      smartContractInterfaceId: 'sci-1',
      smartContractAddress: TO,
      smartContractInterface: JSON.stringify(DENIER_ABI),
      type: 'SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM',
      label: 'Denier',
      notes: '',
      createdAt: ts,
      updatedAt: ts,
    }
    const t = world({ eth_estimateGas: () => ({ error: { code: 3, message: 'execution reverted', data } }) }, { interfaces: [iface] })
    await t.connected()
    const pending = t.rpc('eth_sendTransaction', [tx])
    const w = await t.windowOpened(2)
    const { view } = (await t.popup('approvalGet', { id: w.approvalId })).result
    expect(view.warnings).toEqual([`This transaction will fail: Denied(${ACCOUNT.address.toLowerCase()}, 42)`])
    expect(view.fees).toContainEqual(['Gas limit', 'unknown (the gas could not be estimated)'])
    expect(view.fees).toContainEqual(['Total', '1 ETH + the network fee (unknown)'])
    await t.popup('approvalResolve', { id: w.approvalId, approved: false })
    await pending
  })

  it('a send the service fails answers -32603 with its reason', async () => {
    const t = world({}, { statuses: [{ txStatus: 'FAILED', error: { message: 'transaction would revert: execution reverted: x' } }] })
    await t.connected()
    const pending = t.rpc('eth_sendTransaction', [tx])
    const w = await t.windowOpened(2)
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    expect(await pending).toEqual({
      error: { code: -32603, message: 'The transaction was not sent: transaction would revert: execution reverted: x' },
    })
  })

  it("a switch of the site's chain rejects its pending send; another site's stays", async () => {
    const t = world()
    await t.connected()
    const pending = t.rpc('eth_sendTransaction', [tx])
    await t.windowOpened(2)
    const other = t.rpc('eth_requestAccounts', undefined, OTHER)
    await vi.waitFor(() => expect(t.bg.state.approvals.size()).toBe(2), { timeout: 10_000 })
    await applySiteChain(
      { origin: OTHER.origin as string, state: t.bg.state, core: t.bg.core, dapp: t.bg.dapp },
      {
        chainId: '0x2105',
        name: 'Base',
        caip2: 'eip155:8453',
        rpcUrl: 'https://base-rpc.publicnode.com',
        nativeSymbol: 'ETH',
        nativeDecimals: 18,
        added: false,
      },
    )
    expect(await t.rpc('eth_chainId', undefined, OTHER)).toEqual({ result: '0x2105' })
    expect(t.bg.state.approvals.size()).toBe(1) // the send is still pending; OTHER's queued request was rejected
    expect(await other).toMatchObject({ error: { code: 4001 } })
    await applySiteChain(
      { origin: ORIGIN, state: t.bg.state, core: t.bg.core, dapp: t.bg.dapp },
      {
        chainId: '0xaa36a7',
        name: 'Sepolia',
        caip2: 'eip155:11155111',
        rpcUrl: 'https://ethereum-sepolia-rpc.publicnode.com',
        nativeSymbol: 'ETH',
        nativeDecimals: 18,
        added: false,
      },
    )
    expect(await pending).toEqual({ error: { code: 4001, message: 'User rejected the request' } })
    expect(t.events).toContainEqual({ tabId: 7, message: { kind: 'provider-event', event: 'chainChanged', data: '0xaa36a7' } })
    expect(t.sends).toEqual([])
  })

  it('lock rejects a pending send with 4100 and nothing is sent', async () => {
    const t = world()
    await t.connected()
    const pending = t.rpc('eth_sendTransaction', [tx])
    await t.windowOpened(2)
    await t.bg.core.wipe('lock')
    expect(await pending).toEqual({ error: { code: 4100, message: 'Unauthorized: the wallet was locked' } })
    expect(t.sends).toEqual([])
  })
})

describe('eth_signTransaction fills what the dApp leaves out from the network', () => {
  const NONCE = { eth_getTransactionCount: () => ({ result: '0x7' }) }

  async function signed(t: ReturnType<typeof world>, request: Record<string, unknown>) {
    const pending = t.rpc('eth_signTransaction', [request])
    const w = await t.windowOpened(2)
    const { view } = (await t.popup('approvalGet', { id: w.approvalId })).result
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    const raw = (await pending).result as TransactionSerialized
    expect(await recoverTransactionAddress({ serializedTransaction: raw })).toBe(ACCOUNT.address)
    return { view, tx: parseTransaction(raw) }
  }

  it('nonce (pending), gas and EIP-1559 fees are filled, shown in gwei with the total in ETH, and exactly that is signed', async () => {
    const t = world(NONCE)
    await t.connected()
    const { view, tx: out } = await signed(t, tx)
    expect(t.node.find((n) => n.method === 'eth_getTransactionCount')?.params).toEqual([ACCOUNT.address, 'pending'])
    expect(view).toMatchObject({
      kind: 'transaction',
      nonce: '7',
      value: '1 ETH',
      filled: ['nonce', 'gas limit', 'fees'],
      warnings: [],
      fees: [
        ['Max fee per gas', '3 gwei'],
        ['Priority fee per gas', '1 gwei'],
        ['Gas limit', '25200'],
        ['Estimated fee', '≈ 0.000042 ETH'],
        ['Max network fee', 'at most 0.0000756 ETH'],
        ['Total (at most)', '1.0000756 ETH (value + max network fee)'],
      ],
    })
    expect(out).toMatchObject({
      type: 'eip1559',
      chainId: 1,
      nonce: 7,
      gas: 25_200n,
      maxFeePerGas: 3n * GWEI,
      maxPriorityFeePerGas: GWEI,
      to: TO,
      value: 10n ** 18n,
    })
  })

  it('keeps what the dApp gave: its gas and nonce stay, only the fees are filled; nothing is estimated', async () => {
    const t = world(NONCE)
    await t.connected()
    const { view, tx: out } = await signed(t, { ...tx, nonce: '0x2', gas: '0x7530', maxPriorityFeePerGas: '0x1' })
    expect(view.filled).toEqual(['fees'])
    expect(t.node.map((n) => n.method)).not.toContain('eth_getTransactionCount')
    expect(t.node.map((n) => n.method)).not.toContain('eth_estimateGas')
    expect(out).toMatchObject({ nonce: 2, gas: 30_000n, maxPriorityFeePerGas: 1n, maxFeePerGas: 2n * GWEI + 1n })
  })

  it('a chain without EIP-1559 gets eth_gasPrice (a legacy transaction); a given gasPrice is kept and prices the estimate', async () => {
    const t = world({
      ...NONCE,
      eth_getBlockByNumber: () => ({ result: { number: '0x10' } }),
      eth_gasPrice: () => ({ result: `0x${(5n * GWEI).toString(16)}` }),
    })
    await t.connected()
    const first = await signed(t, tx)
    expect(first.tx).toMatchObject({ type: 'legacy', gasPrice: 5n * GWEI, gas: 25_200n, nonce: 7 })
    expect(first.view.fees.slice(0, 2)).toEqual([
      ['Gas price', '5 gwei'],
      ['Gas limit', '25200'],
    ])
    await new Promise((r) => setTimeout(r, 1_100)) // the approval back-off between windows of one site
    const pending = t.rpc('eth_signTransaction', [{ ...tx, gasPrice: `0x${(4n * GWEI).toString(16)}` }])
    const w = await t.windowOpened(3)
    const { view } = (await t.popup('approvalGet', { id: w.approvalId })).result
    expect(view.filled).toEqual(['nonce', 'gas limit'])
    expect(view.fees).toContainEqual(['Estimated fee', '≈ 0.000084 ETH'])
    await t.popup('approvalResolve', { id: w.approvalId, approved: false })
    expect(await pending).toMatchObject({ error: { code: 4001 } })
  })

  it('a call that reverts is signed only with a given gas (and the warning shown); without one, or with no node, nothing opens', async () => {
    const revert = { eth_estimateGas: () => ({ error: { code: 3, message: 'execution reverted: nope' } }) }
    const t = world({ ...NONCE, ...revert, eth_call: () => ({ error: { code: 3, message: 'execution reverted: nope' } }) })
    await t.connected()
    expect(await t.rpc('eth_signTransaction', [tx])).toEqual({
      error: {
        code: -32603,
        message: 'Sigil could not estimate the gas of this transaction; nothing was signed',
      },
    })
    expect(t.windows).toHaveLength(1)
    const pending = t.rpc('eth_signTransaction', [{ ...tx, gas: '0x7530' }])
    const w = await t.windowOpened(2)
    const { view } = (await t.popup('approvalGet', { id: w.approvalId })).result
    expect(view.warnings).toEqual(['This transaction will fail: execution reverted'])
    await t.popup('approvalResolve', { id: w.approvalId, approved: false })
    await pending

    const down = world({
      eth_getTransactionCount: () => {
        throw new Error('down')
      },
    })
    await down.connected()
    expect(await down.rpc('eth_signTransaction', [{ ...tx, gas: '0x7530', gasPrice: '0x1' }])).toEqual({
      error: { code: -32603, message: 'The RPC node of Ethereum did not answer; nothing was signed' },
    })
    expect(await down.rpc('eth_signTransaction', [{ ...tx, to: undefined }])).toMatchObject({ error: { code: -32602 } })
    expect(down.windows).toHaveLength(1)
  })
})

describe('wallet_addEthereumChain', () => {
  const params = (over: Record<string, unknown> = {}) => [
    {
      chainId: '0x7a69',
      chainName: 'Local',
      rpcUrls: ['http://127.0.0.1:8545'],
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      ...over,
    },
  ]

  it('validates before any window; asks the RPC only once approved, refuses a mismatch, stores a match and switches the site to it', async () => {
    let served = '0x7a69'
    const t = setup({
      extra: (url, body) =>
        url.host === '127.0.0.1:8545' ? { jsonrpc: '2.0', id: body.id, result: body.method === 'eth_chainId' ? served : '0x1' } : undefined,
    })
    await t.connected()
    expect(await t.rpc('wallet_addEthereumChain', params({ rpcUrls: ['http://evil.example/rpc'] }))).toMatchObject({
      error: { code: -32602 },
    })
    expect(await t.rpc('wallet_addEthereumChain', params({ chainName: '' }))).toMatchObject({ error: { code: -32602 } })
    expect(await t.rpc('wallet_addEthereumChain', params({ extra: 1 }))).toMatchObject({ error: { code: -32602 } })
    // a known chain the site is on: null at once, nothing asked (MetaMask); another known chain asks for the switch
    expect(await t.rpc('wallet_addEthereumChain', params({ chainId: '0x1' }))).toEqual({ result: null })
    expect(t.windows).toHaveLength(1)
    served = '0x1'
    const mismatch = t.rpc('wallet_addEthereumChain', params())
    await t.popup('approvalResolve', { id: (await t.windowOpened(2)).approvalId, approved: true })
    expect(await mismatch).toEqual({
      error: {
        code: -32602,
        message: 'Invalid params for wallet_addEthereumChain: the RPC http://127.0.0.1:8545 does not serve chain 0x7a69',
      },
    })
    served = '0x7a69'
    expect(await t.rpc('wallet_switchEthereumChain', [{ chainId: '0x7a69' }])).toMatchObject({ error: { code: 4902 } })
    const adding = t.rpc('wallet_addEthereumChain', params())
    const w = await t.windowOpened(3)
    expect((await t.popup('approvalGet', { id: w.approvalId })).result.view).toEqual({
      kind: 'addChain',
      chain: { chainId: '0x7a69', name: 'Local' },
      rpcUrl: 'http://127.0.0.1:8545',
      nativeSymbol: 'ETH',
      nativeDecimals: 18,
      explorerUrl: null,
    })
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    expect(await adding).toEqual({ result: null })
    expect(t.f.deps.local.data.get(ADDED_CHAINS_KEY)).toMatchObject({
      v: 1,
      chains: [{ chainId: '0x7a69', rpcUrl: 'http://127.0.0.1:8545' }],
    })
    // the approval moved the site to it: reads go to its RPC; asked again, nothing is added or asked
    expect(await t.rpc('eth_chainId')).toEqual({ result: '0x7a69' })
    expect(await t.rpc('eth_blockNumber')).toEqual({ result: '0x1' })
    expect(await t.rpc('wallet_addEthereumChain', params())).toEqual({ result: null })
    expect(await t.rpc('wallet_switchEthereumChain', [{ chainId: '0x7a69' }])).toEqual({ result: null })
    expect(t.windows).toHaveLength(3)
    // sending on a network the service does not know is refused before any window
    expect(await t.rpc('eth_sendTransaction', [{ ...tx, chainId: undefined }])).toMatchObject({ error: { code: 4200 } })
  })
})

describe('wallet_watchAsset', () => {
  const TOKEN = `0x${'44'.repeat(20)}`
  const params = (over: Record<string, unknown> = {}) => ({
    type: 'ERC20',
    options: { address: TOKEN, symbol: 'TKN', decimals: 6, ...over },
  })

  it('needs a connected site and a matching token, asks, and stores it per user', async () => {
    const t = world({ eth_call: ([call]) => ({ result: call.to === TOKEN ? `0x${'6'.padStart(64, '0')}` : '0x' }) })
    await t.login()
    expect(await t.rpc('wallet_watchAsset', params())).toMatchObject({ error: { code: 4100 } })
    await t.connected()
    expect(await t.rpc('wallet_watchAsset', params({ decimals: 99 }))).toMatchObject({ error: { code: -32602 } })
    expect(await t.rpc('wallet_watchAsset', params({ address: '0x1' }))).toMatchObject({ error: { code: -32602 } })
    expect(await t.rpc('wallet_watchAsset', { type: 'ERC721', options: params().options })).toMatchObject({ error: { code: -32602 } })
    expect(await t.rpc('wallet_watchAsset', params({ decimals: 18 }))).toEqual({
      error: { code: -32602, message: 'Invalid params for wallet_watchAsset: the token has 6 decimals, not 18' },
    })
    const watching = t.rpc('wallet_watchAsset', params())
    const w = await t.windowOpened(2)
    expect((await t.popup('approvalGet', { id: w.approvalId })).result.view).toMatchObject({
      kind: 'watchAsset',
      token: TOKEN,
      symbol: 'TKN',
    })
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    expect(await watching).toEqual({ result: true })
    expect(t.f.deps.local.data.get(WATCHED_ASSETS_KEY)).toMatchObject({
      v: 1,
      users: { 'org-1/user-1': [{ chainId: '0x1', address: TOKEN, symbol: 'TKN', decimals: 6 }] },
    })
    expect(await t.rpc('wallet_watchAsset', params())).toEqual({ result: true }) // already watched: no window
    expect(t.windows).toHaveLength(2)
  })
})
