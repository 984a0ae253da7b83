import { beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeBrowser } from 'wxt/testing/fake-browser'
import background from '@/entrypoints/background'
import { respondWith } from '@/src/extension/background/messaging'

describe('respondWith (toolchain P5)', () => {
  it('calls sendResponse and returns true when sendResponse exists', async () => {
    const sendResponse = vi.fn()
    expect(respondWith(Promise.resolve(1), sendResponse)).toBe(true)
    await Promise.resolve()
    await Promise.resolve()
    expect(sendResponse).toHaveBeenCalledWith(1)
  })

  it('returns the promise without sendResponse, and undefined for foreign messages', async () => {
    await expect(respondWith(Promise.resolve(2), undefined)).resolves.toBe(2)
    expect(respondWith(undefined, vi.fn())).toBeUndefined()
  })
})

describe('background entrypoint', () => {
  beforeEach(() => fakeBrowser.reset())

  it('wires the router: a sender that is not an extension page is refused', async () => {
    background.main()
    // fakeBrowser passes an empty sender: neither a tab nor an extension page.
    await expect(browser.runtime.sendMessage({ kind: 'popup', method: 'ping' })).resolves.toEqual({
      ok: false,
      error: { code: 'ORIGIN_NOT_ALLOWED' },
    })
    await expect(browser.runtime.sendMessage({ kind: 'dapp-rpc', id: 1, method: 'eth_chainId' })).resolves.toMatchObject({
      error: { code: 4100 },
    })
  })
})
