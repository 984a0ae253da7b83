import { describe, expect, it, vi } from 'vitest'
import { parsePageRequest, parseProviderEvent, startRelay, toDappRpcMessage, toPageResponse } from '@/src/extension/content/relay'
import { FakeWindow, flush } from '../fakeWindow'

const win = {}
const good = { target: 'sigil-content', id: 3, method: 'eth_chainId' }

describe('parsePageRequest', () => {
  it('accepts a well-formed request from the same window', () => {
    expect(parsePageRequest({ source: win, data: good }, win)).toEqual(good)
    const withParams = { ...good, params: [1, 'a'] }
    expect(parsePageRequest({ source: win, data: withParams }, win)).toEqual(withParams)
    expect(parsePageRequest({ source: win, data: { ...good, params: { a: 1 } } }, win)).not.toBeNull()
  })

  it('drops messages from another source (iframe, other window, null)', () => {
    expect(parsePageRequest({ source: {}, data: good }, win)).toBeNull()
    expect(parsePageRequest({ source: null, data: good }, win)).toBeNull()
  })

  it('drops malformed messages', () => {
    const bad: unknown[] = [
      null,
      'eth_chainId',
      [good],
      { ...good, target: 'sigil-inpage' },
      { ...good, target: undefined },
      { ...good, id: 0 },
      { ...good, id: -1 },
      { ...good, id: 1.5 },
      { ...good, id: '3' },
      { ...good, method: '' },
      { ...good, method: 42 },
      { ...good, method: 'eth chainId' },
      { ...good, method: 'x'.repeat(65) },
      { ...good, params: 'str' },
      { ...good, params: 5 },
      { ...good, params: null },
    ]
    for (const data of bad) expect(parsePageRequest({ source: win, data }, win)).toBeNull()
  })
})

describe('message conversion', () => {
  it('forwards only id, method and params (no origin)', () => {
    const msg = toDappRpcMessage({ ...good, params: [1], origin: 'https://evil' } as never)
    expect(msg).toEqual({ kind: 'dapp-rpc', id: 3, method: 'eth_chainId', params: [1] })
    expect(toDappRpcMessage(good as never)).toEqual({ kind: 'dapp-rpc', id: 3, method: 'eth_chainId' })
  })

  it('maps background replies, and anything malformed to -32603', () => {
    expect(toPageResponse(3, { result: '0x1' })).toEqual({ target: 'sigil-inpage', id: 3, result: '0x1' })
    expect(toPageResponse(3, { error: { code: 4200, message: 'm', extra: 1 } })).toEqual({
      target: 'sigil-inpage',
      id: 3,
      error: { code: 4200, message: 'm' },
    })
    for (const reply of [undefined, null, 'x', {}, { error: { code: 'x', message: 'm' } }]) {
      expect(toPageResponse(3, reply)).toMatchObject({ id: 3, error: { code: -32603 } })
    }
  })
})

describe('parseProviderEvent', () => {
  it('accepts events only from our background', () => {
    const msg = { kind: 'provider-event', event: 'chainChanged', data: '0x89' }
    expect(parseProviderEvent(msg, { id: 'ext' }, 'ext')).toEqual({ target: 'sigil-inpage', event: 'chainChanged', data: '0x89' })
    expect(parseProviderEvent(msg, { id: 'other' }, 'ext')).toBeNull()
    expect(parseProviderEvent(msg, { id: 'ext', tab: {} }, 'ext')).toBeNull()
    expect(parseProviderEvent({ ...msg, event: 'message' }, { id: 'ext' }, 'ext')).toBeNull()
    expect(parseProviderEvent({ ...msg, kind: 'popup' }, { id: 'ext' }, 'ext')).toBeNull()
  })
})

describe('startRelay', () => {
  it('forwards page requests and posts the answer back to the page origin', async () => {
    const w = new FakeWindow()
    const sendMessage = vi.fn(async () => ({ result: '0x1' }))
    const stop = startRelay({ win: w, sendMessage })
    w.deliver(good, w)
    w.deliver({ ...good, id: 4 }, {}) // wrong source: dropped
    w.deliver({ ...good, id: 'x' }, w) // malformed: dropped
    await flush()
    expect(sendMessage).toHaveBeenCalledTimes(1)
    expect(sendMessage).toHaveBeenCalledWith({ kind: 'dapp-rpc', id: 3, method: 'eth_chainId' })
    expect(w.posted).toEqual([{ message: { target: 'sigil-inpage', id: 3, result: '0x1' }, targetOrigin: w.location.origin }])
    stop()
    w.deliver(good, w)
    await flush()
    expect(sendMessage).toHaveBeenCalledTimes(1)
  })

  it('answers 4900 when the background is unreachable', async () => {
    const w = new FakeWindow()
    startRelay({ win: w, sendMessage: () => Promise.reject(new Error('Extension context invalidated')) })
    w.deliver(good, w)
    await flush()
    expect(w.posted[0]?.message).toEqual({ target: 'sigil-inpage', id: 3, error: { code: 4900, message: 'Disconnected' } })
  })
})
