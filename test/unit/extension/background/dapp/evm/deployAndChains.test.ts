/**
 * Contract deployment from dApps and the switch that follows wallet_addEthereumChain, through the
 * real router and approval registry: a send without `to` is checked (creation code required),
 * simulated without `to`, shown as a deployment with its predicted address (CREATE of the account
 * at its pending nonce) and sent at that nonce as one call without `to`; wallet_sendTransaction is
 * the same request under viem's retry name; eth_signTransaction signs a creation transaction.
 * Approving a new network moves the site to it (chainChanged); a known one asks for the switch.
 */
import { getContractAddress, parseTransaction, recoverTransactionAddress, type TransactionSerialized } from 'viem'
import { describe, expect, it } from 'vitest'
import { DELEGATE_REFUSED } from '@/src/extension/background/dapp/evm/calls'
import { ADDED_CHAINS_KEY } from '@/src/extension/background/dapp/evm/chains'
import { MAX_INITCODE_BYTES } from '@/src/extension/background/dapp/evm/ethTransaction'
import { ACCOUNT, activity, type ExtraFetch, setup } from '../../../approvalFixture'

const RPC_HOST = 'ethereum-rpc.publicnode.com'
const GWEI = 1_000_000_000n
const HASH = `0x${'cd'.repeat(32)}`
/** A tiny creation code: returns a 1-byte runtime (STOP). */
const CODE = '0x600a600c600039600a6000f3fe00000000000000000000' as const

type NodeRow = (params: any[]) => { result?: unknown; error?: unknown }

const DEFAULTS: Record<string, NodeRow> = {
  eth_call: () => ({ result: '0x00' }),
  eth_estimateGas: () => ({ result: '0x10000' }),
  eth_maxPriorityFeePerGas: () => ({ result: `0x${GWEI.toString(16)}` }),
  eth_getBlockByNumber: () => ({ result: { number: '0x10', baseFeePerGas: `0x${GWEI.toString(16)}` } }),
  eth_getTransactionCount: () => ({ result: '0x7' }),
}

/** A fake EVM node at the built-in Ethereum RPC, the service's send paths and a second chain's RPC. */
function world(rows: Record<string, NodeRow> = {}) {
  const node: Array<{ method: string; params: any[] }> = []
  const sends: any[] = []
  const extra: ExtraFetch = (url, body) => {
    if (url.hostname === RPC_HOST) {
      node.push({ method: body.method, params: body.params })
      const row = rows[body.method] ?? DEFAULTS[body.method]
      if (!row) return { jsonrpc: '2.0', id: body.id, error: { code: -32601, message: 'the method does not exist' } }
      return { jsonrpc: '2.0', id: body.id, ...row(body.params) }
    }
    if (url.host === '127.0.0.1:8546') return { jsonrpc: '2.0', id: body.id, result: body.method === 'eth_chainId' ? '0x7a6a' : '0x5' }
    if (url.pathname === '/public/v1/submit/eth_send_transaction') {
      sends.push(body)
      return activity('ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2', { ethSendTransactionResultV2: { sendTransactionStatusId: 'send-1' } })
    }
    if (url.pathname === '/public/v1/query/get_send_transaction_status') return { txStatus: 'BROADCASTING', eth: { txHash: HASH } }
    if (url.pathname === '/public/v1/query/list_smart_contract_interfaces') return { smartContractInterfaces: [] }
    return undefined
  }
  const t = setup({ extra })
  return { ...t, node, sends }
}

describe('contract deployment (a send without to)', () => {
  it('needs creation code: no data, empty data or code over the EIP-3860 limit is -32602 naming data, before any window or node read', async () => {
    const t = world()
    await t.connected()
    const from = ACCOUNT.address
    for (const method of ['eth_sendTransaction', 'wallet_sendTransaction']) {
      expect(await t.rpc(method, [{ from }])).toEqual({
        error: {
          code: -32602,
          message: `Invalid params for ${method}: data is required when to is absent (the code of the contract to deploy)`,
        },
      })
      expect(await t.rpc(method, [{ from, data: '0x', value: '0x1' }])).toMatchObject({ error: { code: -32602 } })
    }
    const huge = `0x${'00'.repeat(MAX_INITCODE_BYTES + 1)}`
    expect(await t.rpc('eth_sendTransaction', [{ from, data: huge }])).toEqual({
      error: {
        code: -32602,
        message: `Invalid params for eth_sendTransaction: data is ${MAX_INITCODE_BYTES + 1} bytes: contract creation code is at most 49152 bytes`,
      },
    })
    expect(await t.rpc('wallet_sendTransaction', [{ from, data: '0x60', input: '0x61' }])).toEqual({
      error: { code: -32602, message: 'Invalid params for wallet_sendTransaction: data and input differ' },
    })
    // an EIP-7702 authorization is refused under this name too (a site cannot choose a delegate)
    expect(await t.rpc('wallet_sendTransaction', [{ from, data: CODE, authorizationList: [{ address: from }] }])).toEqual({
      error: { code: -32602, message: `${DELEGATE_REFUSED} (authorizationList)` },
    })
    expect(t.windows).toHaveLength(1) // the connection's
    expect(t.node).toEqual([])
    expect(t.sends).toEqual([])
  })

  it('simulates without to, shows "deploy" with the size and the CREATE address at the pending nonce, and sends one call without to at that nonce', async () => {
    const t = world()
    await t.connected()
    const pending = t.rpc('eth_sendTransaction', [{ from: ACCOUNT.address, data: CODE }])
    const w = await t.windowOpened(2)
    const call = t.node.find((n) => n.method === 'eth_estimateGas')?.params[0]
    expect(call).toEqual({ from: ACCOUNT.address, value: '0x0', data: CODE })
    expect(t.node.find((n) => n.method === 'eth_getTransactionCount')?.params).toEqual([ACCOUNT.address, 'pending'])
    const { view, method } = (await t.popup('approvalGet', { id: w.approvalId })).result
    expect(method).toBe('eth_sendTransaction')
    const predicted = getContractAddress({ from: ACCOUNT.address, nonce: 7n })
    expect(view).toEqual({
      kind: 'deploy',
      address: ACCOUNT.address,
      codeBytes: 23,
      predictedAddress: predicted,
      nonce: '7',
      valueWei: '0',
      value: '0 ETH',
      data: CODE,
      chain: { chainId: '0x1', name: 'Ethereum' },
      fees: [
        ['Max fee per gas', '3 gwei'],
        ['Priority fee per gas', '1 gwei'],
        ['Gas limit', '78643'],
        ['Estimated fee', '≈ 0.0001311 ETH'],
        ['Max network fee', 'at most 0.000236 ETH'],
        ['Total (at most)', '0.000236 ETH (value + max network fee)'],
      ],
      warnings: [],
    })
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    expect(await pending).toEqual({ result: HASH })
    expect(t.sends).toHaveLength(1)
    expect(t.sends[0].parameters).toEqual({
      from: ACCOUNT.address,
      caip2: 'eip155:1',
      calls: [{ value: '0', data: CODE }],
      nonce: '7',
      gasLimit: '78643',
      maxFeePerGas: (3n * GWEI).toString(),
      maxPriorityFeePerGas: GWEI.toString(),
    })
  })

  it("wallet_sendTransaction is the same request: its own name in the window; a dApp's nonce predicts the address; a value is shown", async () => {
    const t = world()
    await t.connected()
    const pending = t.rpc('wallet_sendTransaction', [{ from: ACCOUNT.address, data: CODE, nonce: '0x2a', value: '0x2386f26fc10000' }])
    const w = await t.windowOpened(2)
    expect(t.node.map((n) => n.method)).not.toContain('eth_getTransactionCount')
    const { view, method } = (await t.popup('approvalGet', { id: w.approvalId })).result
    expect(method).toBe('wallet_sendTransaction')
    expect(view).toMatchObject({
      kind: 'deploy',
      nonce: '42',
      predictedAddress: getContractAddress({ from: ACCOUNT.address, nonce: 42n }),
      value: '0.01 ETH',
      valueWei: '10000000000000000',
    })
    await t.popup('approvalResolve', { id: w.approvalId, approved: false })
    expect(await pending).toEqual({ error: { code: 4001, message: 'User rejected the request' } })
    expect(t.sends).toEqual([])
  })

  it('creation code that reverts is shown with "This transaction will fail"; a node that cannot tell the nonce opens nothing', async () => {
    const revert = () => ({ error: { code: 3, message: 'execution reverted: constructor says no' } })
    const t = world({ eth_call: revert, eth_estimateGas: revert })
    await t.connected()
    const pending = t.rpc('eth_sendTransaction', [{ from: ACCOUNT.address, data: CODE, gas: '0x30000' }])
    const w = await t.windowOpened(2)
    const { view } = (await t.popup('approvalGet', { id: w.approvalId })).result
    expect(view.kind).toBe('deploy')
    expect(view.warnings).toHaveLength(1)
    expect(view.warnings[0]).toMatch(/^This transaction will fail: execution reverted/)
    await t.popup('approvalResolve', { id: w.approvalId, approved: false })
    await pending

    const down = world({
      eth_getTransactionCount: () => {
        throw new Error('down')
      },
    })
    await down.connected()
    expect(await down.rpc('eth_sendTransaction', [{ from: ACCOUNT.address, data: CODE }])).toEqual({
      error: { code: -32603, message: 'The RPC node of Ethereum did not answer; nothing was sent' },
    })
    expect(down.windows).toHaveLength(1)
  })

  it('eth_signTransaction without to signs a creation transaction (empty to, the code as data, the filled nonce)', async () => {
    const t = world()
    await t.connected()
    const pending = t.rpc('eth_signTransaction', [{ from: ACCOUNT.address, data: CODE }])
    const w = await t.windowOpened(2)
    const { view } = (await t.popup('approvalGet', { id: w.approvalId })).result
    expect(view).toMatchObject({ kind: 'transaction', to: null, data: CODE, nonce: '7', filled: ['nonce', 'gas limit', 'fees'] })
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    const raw = (await pending).result as TransactionSerialized
    expect(await recoverTransactionAddress({ serializedTransaction: raw })).toBe(ACCOUNT.address)
    const tx = parseTransaction(raw)
    expect(tx.to ?? null).toBeNull()
    expect(tx).toMatchObject({ type: 'eip1559', data: CODE, nonce: 7, gas: 78_643n, chainId: 1 })
  })
})

describe('wallet_addEthereumChain switches the site (as MetaMask does)', () => {
  const params = (over: Record<string, unknown> = {}) => [
    {
      chainId: '0x7a6a',
      chainName: 'Second local',
      rpcUrls: ['http://127.0.0.1:8546'],
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      ...over,
    },
  ]
  const chainChanged = (t: ReturnType<typeof world>) =>
    t.events.filter((e) => e.message.event === 'chainChanged' && e.tabId === 7).map((e) => e.message.data)

  it('one approval adds the network and moves the site to it: chainChanged, eth_chainId, reads on its RPC', async () => {
    const t = world()
    await t.connected()
    const adding = t.rpc('wallet_addEthereumChain', params())
    const w = await t.windowOpened(2)
    expect((await t.popup('approvalGet', { id: w.approvalId })).result.view.kind).toBe('addChain')
    expect(chainChanged(t)).toEqual([])
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    expect(await adding).toEqual({ result: null })
    expect(chainChanged(t)).toEqual(['0x7a6a'])
    expect(await t.rpc('eth_chainId')).toEqual({ result: '0x7a6a' })
    expect(await t.rpc('eth_blockNumber')).toEqual({ result: '0x5' })
    expect(t.f.deps.local.data.get(ADDED_CHAINS_KEY)).toMatchObject({ chains: [{ chainId: '0x7a6a' }] })
    // asked again while on it: null, no window, no event
    expect(await t.rpc('wallet_addEthereumChain', params())).toEqual({ result: null })
    expect(t.windows).toHaveLength(2)
    expect(chainChanged(t)).toEqual(['0x7a6a'])
  })

  it('a rejected add or an RPC serving another chain leaves the site where it was, nothing stored', async () => {
    const t = world()
    await t.connected()
    const rejected = t.rpc('wallet_addEthereumChain', params())
    await t.popup('approvalResolve', { id: (await t.windowOpened(2)).approvalId, approved: false })
    expect(await rejected).toMatchObject({ error: { code: 4001 } })
    t.f.advance(1_000) // past the back-off after a rejection
    const mismatch = t.rpc('wallet_addEthereumChain', params({ chainId: '0x7a6b' }))
    await t.popup('approvalResolve', { id: (await t.windowOpened(3)).approvalId, approved: true })
    expect(await mismatch).toMatchObject({ error: { code: -32602 } })
    expect(await t.rpc('eth_chainId')).toEqual({ result: '0x1' })
    expect(chainChanged(t)).toEqual([])
    expect(t.f.deps.local.data.get(ADDED_CHAINS_KEY)).toBeUndefined()
  })

  it('a chain the wallet knows: the switch window (not an add), approved → switched; the site already on it → null at once', async () => {
    const t = world()
    await t.connected()
    expect(await t.rpc('wallet_addEthereumChain', params({ chainId: '0x1', chainName: 'Ethereum' }))).toEqual({ result: null })
    expect(t.windows).toHaveLength(1)
    const switching = t.rpc('wallet_addEthereumChain', params({ chainId: '0x2105', chainName: 'Base' }))
    const w = await t.windowOpened(2)
    const shown = (await t.popup('approvalGet', { id: w.approvalId })).result
    expect(shown.method).toBe('wallet_addEthereumChain')
    expect(shown.view).toEqual({
      kind: 'switchChain',
      from: { chainId: '0x1', name: 'Ethereum' },
      to: { chainId: '0x2105', name: 'Base' },
    })
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    expect(await switching).toEqual({ result: null })
    expect(await t.rpc('eth_chainId')).toEqual({ result: '0x2105' })
    expect(chainChanged(t)).toEqual(['0x2105'])
    expect(t.f.deps.local.data.get(ADDED_CHAINS_KEY)).toBeUndefined() // the known network is not duplicated
  })
})
