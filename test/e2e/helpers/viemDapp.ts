/**
 * A viem dApp page for e2e tests and benches: EIP-6963 discovery of Sigil, then
 * viem's wallet and public clients over its provider, exposed as `window.dapp`; and a helper
 * that waits for our approval window to be shown and interactive.
 */
import { build } from 'esbuild'
import type { Page } from 'playwright-core'
import type { LaunchedExtension } from './browser'

/** The dApp: EIP-6963 discovery of Sigil, then viem's wallet and public clients over its provider. */
export const DAPP_SOURCE = `
import { createPublicClient, createWalletClient, custom } from 'viem'
const found = []
window.addEventListener('eip6963:announceProvider', (e) => found.push(e.detail))
window.dispatchEvent(new Event('eip6963:requestProvider'))
const outcome = (p) => p.then((ok) => ({ ok }), (e) => {
  const coded = typeof e?.walk === 'function' ? e.walk((x) => typeof x?.code === 'number') : e
  return { code: coded?.code ?? e?.code, message: coded?.message ?? String(e) }
})
const events = []
window.dapp = {
  ready() {
    const sigil = found.find((d) => d.info.name === 'Sigil')
    if (!sigil) return false
    if (!window.wallet) {
      for (const name of ['accountsChanged', 'chainChanged']) sigil.provider.on(name, (data) => events.push([name, data]))
    }
    window.wallet = createWalletClient({ transport: custom(sigil.provider) })
    window.reader = createPublicClient({ transport: custom(sigil.provider), pollingInterval: 200 })
    return sigil.info.rdns
  },
  events: () => events,
  accounts: () => outcome(window.wallet.request({ method: 'eth_accounts' })),
  switchChain: (chainId) => outcome(window.wallet.request({ method: 'wallet_switchEthereumChain', params: [{ chainId }] })),
  addChain: (params) => outcome(window.wallet.request({ method: 'wallet_addEthereumChain', params: [params] })),
  requestAccounts: () => outcome(window.wallet.requestAddresses()),
  chainId: () => outcome(window.reader.getChainId()),
  balance: (address) => outcome(window.reader.getBalance({ address }).then(String)),
  send: (account, to, value, data) =>
    outcome(window.wallet.sendTransaction({ account, to, value: BigInt(value), data, chain: null })),
  signTx: (account, to, value, data) =>
    outcome(window.wallet.request({ method: 'eth_signTransaction', params: [{ from: account, to, value: '0x' + BigInt(value).toString(16), data }] })),
  receipt: (hash) =>
    outcome(window.reader.waitForTransactionReceipt({ hash, timeout: 30000 }).then((r) => ({ status: r.status, blockNumber: String(r.blockNumber) }))),
}
`

/** `source` (a dApp module importing viem, wagmi or wallet-standard packages) bundled into one inline script. */
export async function bundleDapp(source: string): Promise<string> {
  const bundle = await build({
    stdin: { contents: source, resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    format: 'iife',
    write: false,
    minify: true,
    logLevel: 'silent',
  })
  return bundle.outputFiles[0]?.text ?? ''
}

/** A page running `source` (bundled), titled `title`, with `globals` set on `window` before it runs. */
export async function dappPage(source: string, title: string, globals: Record<string, unknown> = {}): Promise<string> {
  const script = (await bundleDapp(source)).replaceAll('</script', '<\\/script')
  const set = Object.entries(globals)
    .map(([k, v]) => `<script>window.${k} = ${JSON.stringify(v)}</script>`)
    .join('')
  return `<!doctype html><html lang="en"><head><title>${title}</title></head><body><h1>${title}</h1>${set}<script>${script}</script></body></html>`
}

/** The viem dApp ({@link DAPP_SOURCE}) bundled into one inline script. */
export async function viemDappScript(): Promise<string> {
  return bundleDapp(DAPP_SOURCE)
}

/**
 * Whether every element of `page` fits its viewport's width (long addresses, hex data and numbers
 * wrap instead of overflowing); the elements that stick out otherwise.
 */
export async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth
    const out = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > width + 0.5)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className}: ${(e.textContent ?? '').slice(0, 40)}`)
    if (document.documentElement.scrollWidth > width) out.unshift(`document scrolls to ${document.documentElement.scrollWidth} px`)
    return out
  })
}

/** Run `fn` (a dApp request) and wait for our approval window to be shown, then interactive (Approve enabled). */
export async function awaitApproval<T>(ext: LaunchedExtension, fn: () => Promise<T>) {
  const opened = ext.context.waitForEvent('page', { predicate: (p) => p.url().includes('/approval.html?id='), timeout: 20_000 })
  const t0 = performance.now()
  const outcome = fn()
  const approval: Page = await opened
  await approval.locator('[data-testid="approval-origin"]').waitFor({ timeout: 20_000 })
  const shownMs = Math.round(performance.now() - t0)
  await approval.waitForFunction(() => {
    const b = [...document.querySelectorAll('button')].find((x) => x.textContent === 'Approve')
    return b !== undefined && !b.disabled
  })
  return { outcome, approval, shownMs, interactiveMs: Math.round(performance.now() - t0) }
}
