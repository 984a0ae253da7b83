/**
 * No probing through the extension: a site that never connected must not get the extension to send anything to
 * a URL of its choosing (here an HTTP listener on 127.0.0.1, as a port scan would), nor read
 * what such a URL answers. A viem dApp page calls `walletClient.addChain` with an rpcUrl on the
 * test's listener: nothing reaches it before the user answered our window; a rejection sends
 * nothing at all (4001); after an approval the RPC is asked its chain id once, and a wrong answer
 * is refused with a fixed message that never carries the RPC's body. Reads of a site that is not
 * connected (eth_call, eth_blockNumber) never reach the network either.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../integration/helpers/service'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import { startPageServer, type PageServer } from './helpers/pageServer'
import { bundleDapp } from './helpers/viemDapp'
import { configureService, loginByEmailOtp, openPopup } from './helpers/wallet'

type Outcome = { ok: unknown } | { code: number; message: string }

/** What the page's listener tells a caller: secret text a probe must never carry back to the page. */
const SECRET = 'SECRET-admin-token-31'

/** The dApp: viem's wallet client over Sigil's EIP-6963 provider; `addChain` is `walletClient.addChain`. */
const DAPP_SOURCE = `
import { createWalletClient, createPublicClient, custom, defineChain } from 'viem'
const found = []
window.addEventListener('eip6963:announceProvider', (e) => found.push(e.detail))
window.dispatchEvent(new Event('eip6963:requestProvider'))
const outcome = (p) => p.then((ok) => ({ ok }), (e) => {
  const coded = typeof e?.walk === 'function' ? e.walk((x) => typeof x?.code === 'number') : e
  return { code: coded?.code ?? e?.code, message: coded?.message ?? String(e) }
})
window.dapp = {
  ready() {
    const sigil = found.find((d) => d.info.name === 'Sigil')
    if (!sigil) return false
    window.wallet = createWalletClient({ transport: custom(sigil.provider) })
    window.reader = createPublicClient({ transport: custom(sigil.provider) })
    window.raw = sigil.provider
    return sigil.info.rdns
  },
  addChain: (id, rpcUrl) =>
    outcome(window.wallet.addChain({
      chain: defineChain({
        id,
        name: 'Probe chain',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [rpcUrl] } },
      }),
    })),
  switchChain: (id) => outcome(window.wallet.switchChain({ id })),
  blockNumber: () => outcome(window.reader.getBlockNumber({ cacheTime: 0 }).then(String)),
  call: (to) => outcome(window.raw.request({ method: 'eth_call', params: [{ to, data: '0x313ce567' }, 'latest'] })),
}
`

/**
 * A listener on 127.0.0.1 that records every request. On `/match` it answers eth_chainId with
 * 0x7a69 (the chain the page adds); anywhere else a JSON-RPC error carrying {@link SECRET}.
 */
async function startListener(): Promise<{ url: string; hits: Array<{ path: string; body: string }>; close: () => Promise<void> }> {
  const hits: Array<{ path: string; body: string }> = []
  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let body = ''
      req.on('data', (c) => {
        body += String(c)
      })
      req.on('end', () => resolve(body))
    })
  const server: Server = createServer(async (req, res) => {
    const body = await read(req)
    hits.push({ path: req.url ?? '', body })
    let id: unknown = null
    try {
      id = (JSON.parse(body) as { id?: unknown }).id ?? null
    } catch {
      // not JSON-RPC
    }
    const answer = req.url === '/match' ? { result: '0x7a69' } : { error: { code: -32000, message: `${SECRET}: internal admin console` } }
    res
      .writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' })
      .end(JSON.stringify({ jsonrpc: '2.0', id, ...answer }))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

describe("wallet_addEthereumChain and reads of a site that never connected reach no network (Chromium, viem's addChain)", () => {
  let svc: TestService
  let ext: LaunchedExtension
  let pages: PageServer
  let listener: Awaited<ReturnType<typeof startListener>>
  let dapp: Page

  beforeAll(async () => {
    listener = await startListener()
    // The service's only EVM network has its RPC on the listener too (path /service): reads of an
    // unconnected site would show up there.
    svc = await startTestService({
      networks: [
        {
          caip2: 'eip155:1',
          family: 'evm',
          name: 'Ethereum',
          rpcUrl: `${listener.url}/service`,
          nativeSymbol: 'ETH',
          nativeDecimals: 18,
          dev: false,
          tokens: [],
        },
      ],
    })
    const script = await bundleDapp(DAPP_SOURCE)
    pages = await startPageServer({
      '/': `<!doctype html><html><head><title>Probe dApp</title></head><body><h1>Probe dApp</h1><script>${script}</script></body></html>`,
    })
    ext = await launchExtension()
    const popup = await openPopup(ext)
    await configureService(popup, svc.url)
    await loginByEmailOtp(popup, svc.url, `no-probe-${Date.now()}@example.test`)
    dapp = await ext.context.newPage()
    await dapp.goto(pages.url('/'))
    await dapp.waitForFunction(() => typeof (window as any).dapp?.ready() === 'string')
  }, 120_000)

  afterAll(async () => {
    await ext?.close()
    await pages?.close()
    await svc?.stop()
    await listener?.close()
  })

  beforeEach(() => {
    listener.hits.length = 0 // each test counts its own requests
  })

  const page = <T>(fn: (...a: any[]) => Promise<T>, ...args: unknown[]) => dapp.evaluate(fn as any, args) as Promise<T>

  /** Start `fn` (a dApp request) and wait for our approval window to be shown and interactive. */
  async function withApproval(fn: () => Promise<Outcome>): Promise<{ outcome: Promise<Outcome>; approval: Page }> {
    const opened = ext.context.waitForEvent('page', { predicate: (p) => p.url().includes('/approval.html?id='), timeout: 20_000 })
    const outcome = fn()
    const approval = await opened
    await approval.locator('[data-testid="approval-origin"]').waitFor({ timeout: 20_000 })
    await expect.poll(() => approval.getByRole('button', { name: 'Approve' }).isEnabled()).toBe(true)
    return { outcome, approval }
  }

  it('reads of a site that is not connected are refused (4100) and nothing reaches its network', async () => {
    const call = await page(([to]) => (window as any).dapp.call(to), `0x${'44'.repeat(20)}`)
    expect(call).toMatchObject({ code: 4100 })
    expect(JSON.stringify(call)).not.toContain(SECRET)
    expect(await page(() => (window as any).dapp.blockNumber())).toMatchObject({ code: 4100 })
    expect(listener.hits).toEqual([])
  })

  it('addChain: nothing reaches the RPC before the window is answered; Reject sends nothing and the page gets 4001', async () => {
    const { outcome, approval } = await withApproval(() => page(([u]) => (window as any).dapp.addChain(31337, u), `${listener.url}/match`))
    expect(await approval.getByRole('heading', { level: 1 }).textContent()).toBe('Add this network?')
    await new Promise((r) => setTimeout(r, 500)) // anything the background would send meanwhile
    expect(listener.hits).toEqual([])
    await approval.getByRole('button', { name: 'Reject' }).click()
    expect(await outcome).toMatchObject({ code: 4001 })
    await new Promise((r) => setTimeout(r, 500))
    expect(listener.hits).toEqual([])
  })

  it('addChain approved: the RPC is asked its chain id once, after the approval; its wrong answer is refused without its body, and the chain is not added', async () => {
    await new Promise((r) => setTimeout(r, 1_200)) // the 1 s approval back-off after the rejection above
    const { outcome, approval } = await withApproval(() => page(([u]) => (window as any).dapp.addChain(31337, u), `${listener.url}/added`))
    expect(listener.hits).toEqual([])
    await approval.getByRole('button', { name: 'Approve' }).click()
    const result = await outcome
    expect(result).toMatchObject({ code: -32602 })
    expect(JSON.stringify(result)).not.toContain(SECRET)
    expect(JSON.stringify(result)).not.toContain('admin console')
    expect(listener.hits.map((h) => [h.path, (JSON.parse(h.body) as { method: string }).method])).toEqual([['/added', 'eth_chainId']])
    expect(await page(([id]) => (window as any).dapp.switchChain(id), 31337)).toMatchObject({ code: 4902 })
    expect(listener.hits).toHaveLength(1)
  })
})
