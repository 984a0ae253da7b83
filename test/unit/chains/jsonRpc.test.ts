/**
 * The one JSON-RPC client (src/chains/jsonRpc.ts) against an injected `fetch`: a refusal keeps the
 * node's code, message and data; every way of not answering is a typed reason; a URL someone
 * chose is fetched without cookies or redirects; a node without batches is asked call by call.
 */
import { describe, expect, it } from 'vitest'
import { JsonRpcError, JsonRpcUnreachable, jsonRpcBatchRequest, jsonRpcRequest } from '../../../src/chains/jsonRpc'

type Seen = { url: string; init: RequestInit; body: unknown }
function fakeFetch(answer: (body: any) => unknown, seen: Seen[] = []): typeof fetch {
  return (async (url: string, init: RequestInit) => {
    const body = JSON.parse(String(init.body))
    seen.push({ url, init, body })
    const out = answer(body)
    if (out instanceof Error) throw out
    return new Response(typeof out === 'string' ? out : JSON.stringify(out))
  }) as unknown as typeof fetch
}

describe('jsonRpcRequest', () => {
  it('posts one call and returns its result', async () => {
    const seen: Seen[] = []
    const r = await jsonRpcRequest<string>('http://node', 'eth_chainId', [], { fetch: fakeFetch(() => ({ id: 1, result: '0x1' }), seen) })
    expect(r).toBe('0x1')
    expect(seen[0]?.body).toEqual({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })
    expect(seen[0]?.init.credentials).toBeUndefined()
  })

  it('fetches an untrusted URL without cookies and redirects', async () => {
    const seen: Seen[] = []
    await jsonRpcRequest('http://node', 'eth_chainId', [], { untrusted: true, id: 7, fetch: fakeFetch(() => ({ result: null }), seen) })
    expect(seen[0]?.init).toMatchObject({ credentials: 'omit', redirect: 'error' })
    expect((seen[0]?.body as { id: number }).id).toBe(7)
  })

  it('a refusal is a JsonRpcError with the node’s code, message and data', async () => {
    const f = fakeFetch(() => ({ error: { code: 3, message: 'execution reverted', data: '0x08' } }))
    const e = await jsonRpcRequest('http://node', 'eth_call', [], { fetch: f }).catch((x) => x)
    expect(e).toBeInstanceOf(JsonRpcError)
    expect(e).toMatchObject({ method: 'eth_call', code: 3, rpcMessage: 'execution reverted', data: '0x08' })
    const odd = await jsonRpcRequest('http://node', 'm', [], { fetch: fakeFetch(() => ({ error: { code: 'x', message: 5 } })) }).catch(
      (x) => x,
    )
    expect(odd).toMatchObject({ code: undefined, rpcMessage: undefined })
  })

  it('names why a node gave no answer', async () => {
    const reason = (answer: (b: unknown) => unknown) =>
      jsonRpcRequest('http://node', 'm', [], { fetch: fakeFetch(answer) }).then(
        () => 'answered',
        (e) => (e instanceof JsonRpcUnreachable ? e.reason : String(e)),
      )
    expect(await reason(() => new TypeError('fetch failed'))).toBe('unreachable')
    expect(await reason(() => '<html>')).toBe('unreachable')
    expect(await reason(() => 'null')).toBe('no-answer')
    expect(await reason(() => ({ id: 1 }))).toBe('no-result')
    const timeout = Object.assign(new Error('timed out'), { name: 'TimeoutError' })
    expect(await reason(() => timeout)).toBe('timeout')
  })
})

describe('jsonRpcBatchRequest', () => {
  it('gives each call its own outcome, and asks call by call when the node takes no batches', async () => {
    const answer = (c: { id: number; method: string }) =>
      c.method === 'bad' ? { id: c.id, error: { code: -1, message: 'no' } } : { id: c.id, result: c.method }
    const calls = [
      { method: 'a', params: [] },
      { method: 'bad', params: [] },
    ]
    const batched = await jsonRpcBatchRequest('http://node', calls, {
      fetch: fakeFetch((b) => (Array.isArray(b) ? b.map(answer) : answer(b))),
    })
    expect(batched[0]).toEqual({ ok: true, result: 'a' })
    expect(batched[1]?.ok === false && batched[1].error).toBeInstanceOf(JsonRpcError)
    const seen: Seen[] = []
    const single = await jsonRpcBatchRequest('http://node', calls, {
      fetch: fakeFetch((b) => (Array.isArray(b) ? { error: { code: -32600, message: 'no batches' } } : answer(b)), seen),
    })
    expect(seen).toHaveLength(3)
    expect(single[0]).toEqual({ ok: true, result: 'a' })
    expect(single[1]?.ok).toBe(false)
  })
})
