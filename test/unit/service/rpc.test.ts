/**
 * The JSON-RPC client's batches and the balances read through them, against a small fake node on
 * loopback: one request for every call, a node without batches asked in parallel, one refusal
 * failing only its own call, a token that answers no balance left out.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { SigilError } from '../../../src/api/errors'
import { resolveNetworks, type Network } from '../../../src/chains/networks'
import { balancesOf } from '../../../src/service/chains/assets'
import { jsonRpcBatch, RpcRefusedError } from '../../../src/service/chains/rpc'
import type { Logger } from '../../../src/service/logger'

type Call = { id: unknown; method: string; params: unknown[] }
let server: Server | undefined
afterEach(async () => {
  await new Promise((ok) => (server ? server.close(ok) : ok(undefined)))
  server = undefined
})

/** A fake node: `answer` gives each call's reply member (`{result}` or `{error}`); `batches` false answers an array with an error. */
async function fakeNode(answer: (c: Call) => object, options: { batches?: boolean } = {}) {
  const bodies: unknown[] = []
  server = createServer((req, res) => {
    let text = ''
    req.on('data', (d) => (text += String(d)))
    req.on('end', () => {
      const body = JSON.parse(text)
      bodies.push(body)
      const reply = (c: Call) => ({ jsonrpc: '2.0', id: c.id, ...answer(c) })
      const out = Array.isArray(body)
        ? options.batches === false
          ? { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batches not supported' } }
          : body.map(reply)
        : reply(body)
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.end(JSON.stringify(out))
    })
  })
  await new Promise<void>((ok) => server?.listen(0, '127.0.0.1', ok))
  const url = `http://127.0.0.1:${(server?.address() as AddressInfo).port}`
  const token = `0x${'aa'.repeat(20)}`
  const missing = `0x${'bb'.repeat(20)}`
  const [network] = resolveNetworks(`eip155:31337=${url}`, `eip155:31337=${token}:TKN:6:Token,eip155:31337=${missing}:GONE:6`)
  return { network: network as Network, bodies, token, missing }
}

const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`
const OWNER = `0x${'11'.repeat(20)}`

describe('jsonRpcBatch', () => {
  it('sends every call in one request and gives each its own outcome', async () => {
    const { network, bodies } = await fakeNode((c) =>
      c.method === 'eth_call' ? { error: { code: 3, message: 'execution reverted', data: '0x' } } : { result: '0x5' },
    )
    const out = await jsonRpcBatch(network, [
      { method: 'eth_getBalance', params: [OWNER, 'latest'] },
      { method: 'eth_call', params: [{}, 'latest'] },
    ])
    expect(bodies).toHaveLength(1)
    expect(out[0]).toEqual({ ok: true, result: '0x5' })
    expect(out[1]?.ok).toBe(false)
    expect(out[1]?.ok === false && out[1].error).toBeInstanceOf(RpcRefusedError)
  })

  it('asks a node without batches once per call, in parallel', async () => {
    const { network, bodies } = await fakeNode(() => ({ result: '0x1' }), { batches: false })
    const out = await jsonRpcBatch(network, [
      { method: 'eth_chainId', params: [] },
      { method: 'eth_blockNumber', params: [] },
    ])
    expect(out).toEqual([
      { ok: true, result: '0x1' },
      { ok: true, result: '0x1' },
    ])
    expect(bodies).toHaveLength(3)
  })

  it('throws a SigilError naming the network, never its URL, when the node is down', async () => {
    const [network] = resolveNetworks('eip155:31337=http://127.0.0.1:9')
    const err = await jsonRpcBatch(network as Network, [{ method: 'eth_chainId', params: [] }]).catch((e) => e)
    expect(err).toBeInstanceOf(SigilError)
    expect(err.code).toBe('FAILED_PRECONDITION')
    expect(err.message).toContain('eip155:31337')
    expect(err.message).not.toContain('127.0.0.1')
  })
})

describe('balancesOf with configured tokens', () => {
  it('reads the native balance and each token in one batch; a token with no balanceOf is left out and logged', async () => {
    const { network, bodies, token } = await fakeNode((c) => {
      if (c.method === 'eth_getBalance') return { result: '0xde0b6b3a7640000' }
      const to = (c.params[0] as { to: string }).to
      return { result: to === token ? word(1_500_000n) : '0x' }
    })
    const warnings: unknown[] = []
    const log = { warn: (msg: string, fields: unknown) => warnings.push([msg, fields]) } as unknown as Logger
    const balances = await balancesOf(network, OWNER, log)
    expect(bodies).toHaveLength(1)
    expect(balances).toEqual([
      {
        caip19: 'eip155:31337/slip44:60',
        symbol: 'ETH',
        decimals: 18,
        name: 'Sigil dev EVM ETH',
        balance: '1000000000000000000',
        display: { crypto: '1' },
      },
      { caip19: `eip155:31337/erc20:${token}`, symbol: 'TKN', decimals: 6, name: 'Token', balance: '1500000', display: { crypto: '1.5' } },
    ])
    expect(warnings).toEqual([['token balance unreadable', expect.objectContaining({ caip2: 'eip155:31337', reason: expect.any(String) })]])
  })

  it('fails with FAILED_PRECONDITION when the node refuses or garbles the native balance', async () => {
    const refused = await fakeNode((c) =>
      c.method === 'eth_getBalance' ? { error: { code: -32000, message: 'nope' } } : { result: word(1n) },
    )
    await expect(balancesOf(refused.network, OWNER)).rejects.toMatchObject({ code: 'FAILED_PRECONDITION' })
    await new Promise((ok) => server?.close(ok))
    const garbled = await fakeNode((c) => (c.method === 'eth_getBalance' ? { result: 'lots' } : { result: word(1n) }))
    await expect(balancesOf(garbled.network, OWNER)).rejects.toMatchObject({ code: 'FAILED_PRECONDITION' })
  })
})
