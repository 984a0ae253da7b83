import { readFileSync } from 'node:fs'
import { describe, expect, it, vi } from 'vitest'
import { createBackground } from '@/src/extension/background'
import { startRelay } from '@/src/extension/content/relay'
import type { Eip6963ProviderDetail } from '@/src/extension/provider/eip6963'
import { ProviderRpcError } from '@/src/extension/provider/errors'
import { SIGIL_ICON } from '@/src/extension/provider/icon'
import { installProvider } from '@/src/extension/provider/install'
import { uuidV4 } from '@/src/extension/provider/uuid'
import { fakeDeps } from '../fakeDeps'
import { FakeWindow, flush } from '../fakeWindow'

const EXT_ID = 'enibeleniamgnfhbmpkkldfacbjikdfa'
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** Page window with provider + relay + background router wired in-process. */
function setup() {
  const w = new FakeWindow()
  const bg = createBackground({ extensionId: EXT_ID, extensionBaseUrl: `chrome-extension://${EXT_ID}/` }, fakeDeps().deps)
  const sender = { id: EXT_ID, url: `${w.location.origin}/index.html`, tab: { id: 1 } }
  startRelay({ win: w, sendMessage: async (m) => bg.onMessage(m, sender) })
  const announced: Eip6963ProviderDetail[] = []
  w.addEventListener('eip6963:announceProvider', (e) => announced.push((e as CustomEvent<Eip6963ProviderDetail>).detail))
  const detail = installProvider(w)
  return { w, detail, announced }
}

describe('installProvider', () => {
  it('defines window.ethereum when absent, and leaves an existing one alone', () => {
    const { w, detail } = setup()
    expect(w.ethereum).toBe(detail.provider)
    expect(detail.provider.isSigil).toBe(true)
    const other = new FakeWindow()
    const existing = { isOther: true }
    other.ethereum = existing
    const d2 = installProvider(other)
    expect(other.ethereum).toBe(existing)
    expect(d2.provider.isSigil).toBe(true)
  })

  it('announces a frozen EIP-6963 detail on load and on each requestProvider', () => {
    const w = new FakeWindow()
    const announced: Eip6963ProviderDetail[] = []
    w.addEventListener('eip6963:announceProvider', (e) => announced.push((e as CustomEvent<Eip6963ProviderDetail>).detail))
    const detail = installProvider(w)
    expect(announced).toHaveLength(1)
    w.dispatchEvent(new Event('eip6963:requestProvider'))
    w.dispatchEvent(new Event('eip6963:requestProvider'))
    expect(announced).toHaveLength(3)
    expect(announced.every((d) => d === detail)).toBe(true)
    expect(Object.isFrozen(detail) && Object.isFrozen(detail.info)).toBe(true)
    expect(detail.info).toEqual({ uuid: expect.stringMatching(UUID_V4), name: 'Sigil', icon: SIGIL_ICON, rdns: 'app.sigil' })
    expect(installProvider(new FakeWindow()).info.uuid).not.toBe(detail.info.uuid)
  })

  it('icon is the assets/sigil-mark.svg file', () => {
    const svg = readFileSync(new URL('../../../../assets/sigil-mark.svg', import.meta.url), 'utf8').replace(/\n/g, '')
    expect(SIGIL_ICON).toBe(`data:image/svg+xml;base64,${btoa(svg)}`)
  })
})

describe('provider.request through relay and router', () => {
  it('resolves eth_chainId and emits connect once', async () => {
    const { detail } = setup()
    const onConnect = vi.fn()
    detail.provider.on('connect', onConnect)
    await expect(detail.provider.request({ method: 'eth_chainId' })).resolves.toBe('0x1')
    await expect(detail.provider.request({ method: 'eth_chainId', params: [] })).resolves.toBe('0x1')
    expect(onConnect).toHaveBeenCalledTimes(1)
    expect(onConnect).toHaveBeenCalledWith({ chainId: '0x1' })
  })

  it('rejects unknown methods with a ProviderRpcError 4200', async () => {
    const { detail } = setup()
    const err = await detail.provider.request({ method: 'eth_doesNotExist' }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ProviderRpcError)
    expect(err).toMatchObject({ code: 4200, message: 'Unsupported method: eth_doesNotExist' })
  })

  it('rejects eth_requestAccounts with 4100 and invalid requests locally with -32600', async () => {
    const { detail, w } = setup()
    await expect(detail.provider.request({ method: 'eth_requestAccounts' })).rejects.toMatchObject({ code: 4100 })
    const before = w.posted.length
    await expect(detail.provider.request({ method: '' })).rejects.toMatchObject({ code: -32600 })
    await expect(detail.provider.request(null as never)).rejects.toMatchObject({ code: -32600 })
    await expect(detail.provider.request({ method: 'eth_call', params: 'x' as never })).rejects.toMatchObject({ code: -32600 })
    expect(w.posted.length).toBe(before)
  })

  it('uses unique request ids', async () => {
    const { detail, w } = setup()
    await Promise.all([1, 2, 3].map(() => detail.provider.request({ method: 'net_version' })))
    const ids = w.posted
      .map((p) => p.message as { target: string; id: number; method: string })
      .filter((m) => m.target === 'sigil-content' && m.method === 'net_version')
      .map((m) => m.id)
    expect(new Set(ids).size).toBe(3)
  })

  it('ignores responses from another source and forged shapes', async () => {
    const w = new FakeWindow()
    const { provider } = installProvider(w)
    let settled = false
    void provider.request({ method: 'eth_chainId' }).finally(() => (settled = true))
    // id 1 is the Solana wallet's sol_state, sent at install
    w.deliver({ target: 'sigil-inpage', id: 2, result: '0x5' }, {})
    w.deliver({ target: 'sigil-inpage', id: 2, result: '0x5', error: { code: 1, message: 'x' } }, w)
    w.deliver({ target: 'sigil-inpage', id: 2, error: { code: 'x' } }, w)
    await flush()
    expect(settled).toBe(false)
    w.deliver({ target: 'sigil-inpage', id: 2, result: '0xa' }, w)
    await flush()
    expect(settled).toBe(true)
  })

  it('emits pushed events to listeners and stops after removeListener', async () => {
    const w = new FakeWindow()
    const { provider } = installProvider(w)
    const onChain = vi.fn()
    provider.on('chainChanged', onChain)
    w.deliver({ target: 'sigil-inpage', event: 'chainChanged', data: '0x89' }, w)
    w.deliver({ target: 'sigil-inpage', event: 'message', data: 'x' }, w)
    provider.removeListener('chainChanged', onChain)
    w.deliver({ target: 'sigil-inpage', event: 'chainChanged', data: '0xa' }, w)
    expect(onChain).toHaveBeenCalledTimes(1)
    expect(onChain).toHaveBeenCalledWith('0x89')
  })
})

describe('uuidV4', () => {
  it('falls back to getRandomValues outside secure contexts', () => {
    const fake: Pick<Crypto, 'getRandomValues'> = { getRandomValues: (a) => crypto.getRandomValues(a) }
    const ids = new Set(Array.from({ length: 20 }, () => uuidV4(fake)))
    expect(ids.size).toBe(20)
    for (const id of ids) expect(id).toMatch(UUID_V4)
  })
})
