/**
 * No probing through the extension: nothing reaches the network on a site's behalf before the user approved it,
 * and no text of an RPC's answer reaches the page. Through the real router and approval registry
 * (approvalFixture.ts): wallet_addEthereumChain contacts the site's RPC only after the user
 * approved in our window (and then refuses a wrong chain with a fixed message); a site that is not
 * connected gets no read forwarded; node errors reach the page as fixed messages and codes.
 */
import { describe, expect, it } from 'vitest'
import { ADDED_CHAINS_KEY } from '@/src/extension/background/dapp/evm/chains'
import { READ_METHODS } from '@/src/extension/background/dapp/evm/read'
import { ACCOUNT, type ExtraFetch, setup } from '../../../approvalFixture'

const SECRET = 'SECRET-token-from-a-local-service'
const NODE_HOST = 'ethereum-rpc.publicnode.com'
const PROBED = '127.0.0.1:6379'
const TO = `0x${'22'.repeat(20)}`

type Hit = { host: string; method: string; params: unknown }

/** A world whose every request to an RPC (the built-in Ethereum node, the probed port) is recorded and answered by `answer`. */
function world(answer: (hit: Hit) => unknown = () => ({ error: { code: -32000, message: `${SECRET}: admin console` } })) {
  const hits: Hit[] = []
  const extra: ExtraFetch = (url, body) => {
    if (url.host !== PROBED && url.hostname !== NODE_HOST) return undefined
    const hit = { host: url.host, method: body.method, params: body.params }
    hits.push(hit)
    const out = answer(hit)
    if (out instanceof Error) throw out
    return { jsonrpc: '2.0', id: body.id, ...(out as object) }
  }
  return { ...setup({ extra }), hits }
}

const addParams = (over: Record<string, unknown> = {}) => [
  {
    chainId: '0x7a69',
    chainName: 'Local',
    rpcUrls: [`http://${PROBED}/`],
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    ...over,
  },
]

/** A valid params list for each read method. */
const READ_PARAMS: Record<keyof typeof READ_METHODS, unknown[] | undefined> = {
  eth_call: [{ to: TO, data: '0x313ce567' }, 'latest'],
  eth_getBalance: [ACCOUNT.address, 'latest'],
  eth_blockNumber: undefined,
  eth_estimateGas: [{ to: TO }],
  eth_gasPrice: [],
  eth_maxPriorityFeePerGas: [],
  eth_feeHistory: ['0x4', 'latest'],
  eth_getCode: [TO],
  eth_getTransactionCount: [ACCOUNT.address, 'pending'],
  eth_getTransactionByHash: [`0x${'ab'.repeat(32)}`],
  eth_getTransactionReceipt: [`0x${'ab'.repeat(32)}`],
  eth_getBlockByNumber: ['latest', false],
  eth_getLogs: [{ address: TO }],
  eth_getStorageAt: [TO, '0x0', 'latest'],
}

describe('wallet_addEthereumChain contacts the RPC only after the approval', () => {
  it('a site that never connected: the window opens with no request to the RPC; Reject → 4001, still none', async () => {
    const t = world(() => ({ result: '0x7a69' }))
    await t.login()
    const adding = t.rpc('wallet_addEthereumChain', addParams())
    const w = await t.windowOpened(1)
    expect(t.hits).toEqual([])
    await t.popup('approvalResolve', { id: w.approvalId, approved: false })
    expect(await adding).toMatchObject({ error: { code: 4001 } })
    expect(t.hits).toEqual([])
    expect(t.f.deps.local.data.get(ADDED_CHAINS_KEY)).toBeUndefined()
  })

  it('refused before any window (logged out, bad params, a known chain): no request to the RPC', async () => {
    const t = world(() => ({ result: '0x7a69' }))
    expect(await t.rpc('wallet_addEthereumChain', addParams())).toMatchObject({ error: { code: 4100 } })
    await t.login()
    expect(await t.rpc('wallet_addEthereumChain', addParams({ rpcUrls: ['http://10.0.0.1:80/'] }))).toMatchObject({
      error: { code: -32602 },
    })
    // a known chain the site is on: null without a window (MetaMask); its stored RPC is kept, the given one never asked
    expect(await t.rpc('wallet_addEthereumChain', addParams({ chainId: '0x1' }))).toEqual({ result: null })
    expect(t.windows).toHaveLength(0)
    expect(t.hits).toEqual([])
  })

  it('approved: one eth_chainId after the approval; an answer with text, another chain or none is refused with the same fixed message', async () => {
    const answers: Array<() => unknown> = [
      () => ({ error: { code: -32000, message: `${SECRET}: admin console`, data: SECRET } }),
      () => ({ result: `${SECRET}` }),
      () => ({ result: '0x1' }),
      () => new TypeError('connection refused'),
    ]
    let next = 0
    const t = world(() => answers[next]!())
    await t.login()
    const message = `Invalid params for wallet_addEthereumChain: the RPC http://${PROBED}/ does not serve chain 0x7a69`
    for (; next < answers.length; next++) {
      const adding = t.rpc('wallet_addEthereumChain', addParams())
      const w = await t.windowOpened(next + 1)
      expect(t.hits).toHaveLength(next)
      await t.popup('approvalResolve', { id: w.approvalId, approved: true })
      const out = await adding
      expect(out).toEqual({ error: { code: -32602, message } })
      expect(JSON.stringify(out)).not.toContain(SECRET)
      expect(t.hits).toHaveLength(next + 1)
      expect(t.hits.at(-1)).toEqual({ host: PROBED, method: 'eth_chainId', params: [] })
    }
    expect(t.f.deps.local.data.get(ADDED_CHAINS_KEY)).toBeUndefined()
    expect(await t.rpc('wallet_switchEthereumChain', [{ chainId: '0x7a69' }])).toMatchObject({ error: { code: 4902 } })
  })

  it('approved and the RPC serves the chain: stored, null', async () => {
    const t = world(() => ({ result: '0x7A69' }))
    await t.login()
    const adding = t.rpc('wallet_addEthereumChain', addParams())
    const w = await t.windowOpened(1)
    expect(t.hits).toEqual([])
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    expect(await adding).toEqual({ result: null })
    expect(t.hits).toEqual([{ host: PROBED, method: 'eth_chainId', params: [] }])
    expect(t.f.deps.local.data.get(ADDED_CHAINS_KEY)).toMatchObject({ v: 1, chains: [{ chainId: '0x7a69', rpcUrl: `http://${PROBED}/` }] })
  })
})

describe('a site that is not connected reaches no network', () => {
  it('every read method is 4100 with no request, logged out or logged in but not connected', async () => {
    const t = world(() => ({ result: '0x1' }))
    for (const method of Object.keys(READ_PARAMS) as Array<keyof typeof READ_PARAMS>) {
      expect(await t.rpc(method, READ_PARAMS[method]), method).toMatchObject({ error: { code: 4100 } })
    }
    await t.login()
    for (const method of Object.keys(READ_PARAMS) as Array<keyof typeof READ_PARAMS>) {
      expect(await t.rpc(method, READ_PARAMS[method]), method).toEqual({
        error: { code: 4100, message: 'Unauthorized: this site is not connected' },
      })
    }
    expect(t.hits).toEqual([])
    // wallet_watchAsset, eth_sendTransaction and eth_signTransaction of a site that is not connected: no request either
    expect(await t.rpc('wallet_watchAsset', { type: 'ERC20', options: { address: TO, symbol: 'TKN', decimals: 6 } })).toMatchObject({
      error: { code: 4100 },
    })
    expect(await t.rpc('eth_sendTransaction', [{ from: ACCOUNT.address, to: TO, value: '0x1' }])).toMatchObject({ error: { code: 4100 } })
    expect(await t.rpc('eth_signTransaction', [{ from: ACCOUNT.address, to: TO, value: '0x1' }])).toMatchObject({ error: { code: 4100 } })
    expect(t.hits).toEqual([])
    expect(t.windows).toHaveLength(0)
  })

  it('once connected, reads are forwarded (the gate is the connection)', async () => {
    const t = world(() => ({ result: '0x10' }))
    await t.connected()
    expect(await t.rpc('eth_blockNumber')).toEqual({ result: '0x10' })
    expect(t.hits).toEqual([{ host: NODE_HOST, method: 'eth_blockNumber', params: [] }])
  })
})

describe("an RPC's error body never reaches the page", () => {
  const revertData = `0x08c379a0${'00'.repeat(32)}`
  it.each([
    [3, { code: 3, message: 'execution reverted', data: revertData }],
    [-32000, { code: -32000, message: "The network's node refused the request" }],
    [-32003, { code: -32003, message: "The network's node refused the request" }],
    [-32602, { code: -32602, message: "The network's node refused the request's params" }],
    [-32601, { code: 4200, message: "The network's node does not support this method" }],
    [-32700, { code: -32603, message: "The network's node answered an error" }],
    [42, { code: -32603, message: "The network's node answered an error" }],
  ])('a node error %i becomes a fixed message and code', async (code, expected) => {
    const t = world(() => ({ error: { code, message: `${SECRET} execution reverted: ${SECRET}`, data: code === 3 ? revertData : SECRET } }))
    await t.connected()
    const out = await t.rpc('eth_call', [{ to: TO }])
    expect(out).toEqual({ error: expected })
    expect(JSON.stringify(out)).not.toContain(SECRET)
  })

  it('revert data that is not hex bytes is dropped', async () => {
    const t = world(() => ({ error: { code: 3, message: SECRET, data: `${SECRET}` } }))
    await t.connected()
    expect(await t.rpc('eth_call', [{ to: TO }])).toEqual({ error: { code: 3, message: 'execution reverted' } })
  })

  it('eth_signTransaction: a node that refuses the gas estimate is not quoted to the page', async () => {
    const t = world((hit) =>
      hit.method === 'eth_estimateGas' || hit.method === 'eth_call'
        ? { error: { code: -32000, message: `${SECRET}: insufficient funds` } }
        : hit.method === 'eth_getBlockByNumber'
          ? { result: { number: '0x10', baseFeePerGas: '0x3b9aca00' } }
          : { result: '0x1' },
    )
    await t.connected()
    const out = await t.rpc('eth_signTransaction', [{ from: ACCOUNT.address, to: TO, value: '0x1', chainId: '0x1' }])
    expect(out).toMatchObject({ error: { code: -32603 } })
    expect(JSON.stringify(out)).not.toContain(SECRET)
  })
})
