import { describe, expect, it, vi } from 'vitest'
import { createApprovalRegistry } from '@/src/extension/background/approval/approvals'
import { resolveApproval } from '@/src/extension/background/approval/page'
import {
  BUNDLED_LIST,
  checkHostname,
  createPhishingCheck,
  foldIdn,
  lookalikeOf,
  PHISHING_LIST_KEY,
  PHISHING_REFRESH_MS,
  type PhishingList,
  refreshList,
} from '@/src/extension/background/dapp/phishing'
import { PhishingListUrl } from '@/src/extension/background/service/settings'
import { memoryArea } from '../../fakeDeps'

const LISTED = 'moonbirds.tv'
const LIST_URL = 'https://lists.example/phishing.json'
const newer = (extra: Partial<PhishingList> = {}): PhishingList => ({
  version: BUNDLED_LIST.version + 1,
  tolerance: 2,
  fuzzylist: [],
  whitelist: [],
  blacklist: ['fresh-scam.example'],
  ...extra,
})
const jsonResponse = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })

describe('phishing check (MetaMask list + lookalikes of connected sites)', () => {
  it('flags a hostname on the bundled blocklist (and its subdomains)', () => {
    expect(BUNDLED_LIST.blacklist).toContain(LISTED)
    expect(checkHostname(LISTED, BUNDLED_LIST, [])).toEqual({ listed: true, reason: 'blocklist' })
    expect(checkHostname(`www.${LISTED}`, BUNDLED_LIST, [])).toMatchObject({ listed: true, reason: 'blocklist' })
    expect(checkHostname(`app.${LISTED}`, BUNDLED_LIST, [])).toMatchObject({ listed: true, reason: 'blocklist' })
  })

  it('honours the allowlist: an allowlisted host is not flagged, even when also blocklisted or fuzzy', () => {
    const allowed = BUNDLED_LIST.whitelist[0] as string
    expect(checkHostname(allowed, BUNDLED_LIST, [])).toEqual({ listed: false })
    const list = newer({ blacklist: ['both.example'], whitelist: ['both.example', 'etherscam.io'], fuzzylist: ['etherscan.io'] })
    expect(checkHostname('both.example', list, [])).toEqual({ listed: false })
    expect(checkHostname('etherscam.io', list, [])).toEqual({ listed: false })
    expect(checkHostname('etherscam.io', newer({ fuzzylist: ['etherscan.io'] }), [])).toMatchObject({ listed: true, reason: 'fuzzy' })
  })

  it('flags a fuzzy match of a common phishing target, naming it', () => {
    expect(BUNDLED_LIST.fuzzylist).toContain('etherscan.io')
    expect(checkHostname('etherscam.io', BUNDLED_LIST, [])).toEqual({ listed: true, reason: 'fuzzy', match: 'etherscan.io' })
  })

  it('flags a lookalike of a site the user connected, but never the site itself or its subdomains', () => {
    const connected = ['app.uniswap.org', 'sigil-dapp.example']
    expect(checkHostname('app.uniswaq.org', BUNDLED_LIST, connected)).toEqual({
      listed: true,
      reason: 'lookalike',
      match: 'app.uniswap.org',
    })
    expect(checkHostname('sigi1-dapp.example', BUNDLED_LIST, connected)).toEqual({
      listed: true,
      reason: 'lookalike',
      match: 'sigil-dapp.example',
    })
    expect(lookalikeOf('app.uniswap.org', connected)).toBeUndefined()
    expect(lookalikeOf('www.app.uniswap.org', connected)).toBeUndefined()
    expect(lookalikeOf('127.0.0.2', ['127.0.0.1'])).toBeUndefined()
  })

  it('reads internationalized hosts as the Latin they imitate: a homoglyph of a connected or allowlisted site is a lookalike, a genuine IDN is not', () => {
    // The browser hands over the punycode form (WHATWG URL, as `sender.origin` carries it).
    const ascii = (unicodeHost: string) => new URL(`https://${unicodeHost}/`).hostname
    const spoof = ascii('d\u0430pp.sigil.example') // Cyrillic "а"
    expect(spoof).toMatch(/^xn--/)
    expect(foldIdn(spoof)).toBe('dapp.sigil.example')
    expect(checkHostname(spoof, BUNDLED_LIST, ['dapp.sigil.example'])).toEqual({
      listed: true,
      reason: 'lookalike',
      match: 'dapp.sigil.example',
    })
    // Greek omicron and an accent, folded the same way.
    expect(foldIdn(ascii('sigil-\u03bfnline.ex\u00e0mple'))).toBe('sigil-online.example')

    const allowed = BUNDLED_LIST.whitelist.find((h) => /^[a-z.]+$/.test(h) && h.includes('a')) as string
    const imitation = ascii(allowed.replace('a', '\u0430'))
    expect(checkHostname(imitation, BUNDLED_LIST, [])).toEqual({ listed: true, reason: 'lookalike', match: allowed })

    // A genuine internationalized name that reads as nothing the user knows is not flagged.
    expect(checkHostname(ascii('m\u00fcnchen.de'), BUNDLED_LIST, ['app.uniswap.org'])).toEqual({ listed: false })
    expect(foldIdn('not-idn.example')).toBe('not-idn.example')
    // Bytes that do not decode leave the host as it is (checked as written).
    expect(foldIdn('xn--99999999.example')).toBe('xn--99999999.example')
  })

  it('does not flag ordinary sites', () => {
    const connected = ['app.uniswap.org']
    for (const host of ['example.com', 'opensea.io', 'app.aave.com', 'localhost', '127.0.0.1', 'github.com'])
      expect(checkHostname(host, BUNDLED_LIST, connected), host).toEqual({ listed: false })
  })

  it('checks origins: connected sites come from the permissions, a non-URL origin is not flagged', async () => {
    const check = createPhishingCheck({
      local: memoryArea(),
      listUrl: async () => '',
      connectedOrigins: async () => ['https://app.uniswap.org'],
    })
    expect(await check(`https://${LISTED}`)).toMatchObject({ listed: true, reason: 'blocklist' })
    expect(await check(`http://${LISTED}:8080`)).toMatchObject({ listed: true, reason: 'blocklist' })
    expect(await check('https://app.uniswaq.org')).toMatchObject({ listed: true, reason: 'lookalike' })
    expect(await check('https://app.uniswap.org')).toEqual({ listed: false })
    expect(await check('not a url')).toEqual({ listed: false })
  })
})

describe('the list updated from the configured URL', () => {
  it('with no URL configured, never fetches and uses the bundled list', async () => {
    const fetch = vi.fn()
    const list = await refreshList({ local: memoryArea(), listUrl: async () => '', connectedOrigins: async () => [], fetch })
    expect(list).toBe(BUNDLED_LIST)
    expect(fetch).not.toHaveBeenCalled()
  })

  it('uses a newer fetched list, fetching at most once a day', async () => {
    let now = 1_000_000
    const fetch = vi.fn(async (_url: string) => jsonResponse(newer()))
    const check = createPhishingCheck({
      local: memoryArea(),
      listUrl: async () => LIST_URL,
      connectedOrigins: async () => [],
      fetch: fetch as unknown as typeof globalThis.fetch,
      now: () => now,
    })
    expect(await check('https://fresh-scam.example')).toEqual({ listed: true, reason: 'blocklist' })
    expect(fetch).toHaveBeenCalledTimes(1)
    expect(fetch.mock.calls[0]?.[0]).toBe(LIST_URL)
    now += PHISHING_REFRESH_MS - 1
    expect(await check('https://fresh-scam.example')).toMatchObject({ listed: true })
    expect(fetch).toHaveBeenCalledTimes(1)
    now += 2
    await check('https://example.com')
    expect(fetch).toHaveBeenCalledTimes(2)
  })

  it('keeps the bundled list when the fetched one does not parse, is older, or the fetch fails', async () => {
    const answers: (() => Promise<Response>)[] = [
      async () => jsonResponse({ version: 'x', blacklist: 'nope' }),
      async () => jsonResponse(newer({ version: 0 })),
      async () => new Response('no', { status: 500 }),
      async () => {
        throw new TypeError('Failed to fetch')
      },
    ]
    for (const answer of answers) {
      const local = memoryArea()
      const fetch = vi.fn(answer)
      const list = await refreshList({
        local,
        listUrl: async () => LIST_URL,
        connectedOrigins: async () => [],
        fetch: fetch as unknown as typeof globalThis.fetch,
      })
      expect(fetch).toHaveBeenCalledTimes(1)
      expect(list).toBe(BUNDLED_LIST)
      expect(checkHostname('fresh-scam.example', list, [])).toEqual({ listed: false })
      expect(local.data.get(PHISHING_LIST_KEY)).toMatchObject({ url: LIST_URL })
    }
  })

  it('the URL setting is validated: empty or https (http only on loopback)', () => {
    expect(PhishingListUrl.safeParse('').success).toBe(true)
    expect(PhishingListUrl.safeParse(LIST_URL).success).toBe(true)
    expect(PhishingListUrl.safeParse('http://lists.example/p.json').success).toBe(false)
    expect(PhishingListUrl.safeParse('not a url').success).toBe(false)
  })
})

describe('approving a flagged request', () => {
  const view = { kind: 'switchChain', from: { chainId: '0x1', name: 'Ethereum' }, to: { chainId: '0x2105', name: 'Base' } } as const
  const method = 'wallet_switchEthereumChain'

  it('is refused by the background until the warning was passed; rejecting needs nothing', async () => {
    const reg = createApprovalRegistry()
    const flagged = reg.open({ origin: `https://${LISTED}`, method, view, phishing: { reason: 'blocklist' } })
    expect(() => resolveApproval(reg, { id: flagged.id, approved: true })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', field: 'passedWarning' }),
    )
    expect(reg.get(flagged.id)).toBeDefined()
    expect(resolveApproval(reg, { id: flagged.id, approved: true, passedWarning: true })).toEqual({ settled: true })
    await expect(flagged.outcome).resolves.toEqual({ approved: true })

    const again = reg.open({ origin: `https://${LISTED}`, method, view, phishing: { reason: 'blocklist' } })
    expect(resolveApproval(reg, { id: again.id, approved: false })).toEqual({ settled: true })
    await expect(again.outcome).resolves.toMatchObject({ approved: false, error: { code: 4001 } })

    const normal = reg.open({ origin: 'https://example.com', method, view })
    expect(resolveApproval(reg, { id: normal.id, approved: true })).toEqual({ settled: true })
  })
})
