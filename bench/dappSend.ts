/**
 * dApp `eth_sendTransaction` from request to our approval window: a viem
 * page (EIP-6963) against the built extension, the real service and a dev
 * EVM node asks N times; each time the background validates, simulates (eth_call +
 * eth_estimateGas on the node) and opens the window; we time "shown" (the origin line rendered)
 * and "interactive" (Approve enabled), then approve (the service sends 1000 wei). Needs `.output/chrome-mv3` (built here when
 * missing). Run: `npx tsx bench/dappSend.ts`.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { resolveNetworks } from '../src/chains/networks.js'
import { startEvmNode } from '../src/devchain/evm.js'
import { EXTENSION_DIR, launchExtension } from '../test/e2e/helpers/browser.js'
import { startPageServer } from '../test/e2e/helpers/pageServer.js'
import { awaitApproval, viemDappScript } from '../test/e2e/helpers/viemDapp.js'
import { configureService, loginByEmailOtp, openPopup } from '../test/e2e/helpers/wallet.js'
import { freePort } from '../test/integration/helpers/process.js'
import { startTestService } from '../test/integration/helpers/service.js'
import { percentile } from './load.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** Samples (ms) of request → window shown and → interactive. */
export async function benchDappSend(n = 10): Promise<{ shown: number[]; interactive: number[] }> {
  if (!existsSync(join(EXTENSION_DIR, 'manifest.json')))
    await promisify(execFile)(join(ROOT, 'node_modules', '.bin', 'wxt'), ['build'], { cwd: ROOT })
  const node = await startEvmNode({ port: await freePort() })
  const svc = await startTestService({ networks: resolveNetworks(`eip155:31337=${node.url}`) })
  const script = await viemDappScript()
  const pages = await startPageServer({ '/': `<!doctype html><html><body><script>${script}</script></body></html>` })
  const ext = await launchExtension()
  const shown: number[] = []
  const interactive: number[] = []
  try {
    const popup = await openPopup(ext)
    await configureService(popup, svc.url)
    await loginByEmailOtp(popup, svc.url, `bench-dapp-${Date.now()}@example.test`)
    const dapp = await ext.context.newPage()
    await dapp.goto(pages.url('/'))
    await dapp.waitForFunction(() => typeof (window as any).dapp?.ready() === 'string')
    const page = <T>(fn: (...a: any[]) => Promise<T>, ...args: unknown[]) => dapp.evaluate(fn as any, args) as Promise<T>
    const connect = await awaitApproval(ext, () => page(() => (window as any).dapp.requestAccounts()))
    await connect.approval.getByRole('button', { name: 'Approve' }).click()
    const address = ((await connect.outcome) as { ok: string[] }).ok[0]
    await svc.post('/dev/faucet', { caip2: 'eip155:31337', address, amount: '10' }, null)
    // Approved (a rejection would back the site off for 1, 2, 4 … s): each sample sends 1000 wei.
    for (let i = 0; i < n; i++) {
      const r = await awaitApproval(ext, () =>
        page(([a]) => (window as any).dapp.send(a, `0x${'5e'.repeat(20)}`, '1000', undefined), address),
      )
      shown.push(r.shownMs)
      interactive.push(r.interactiveMs)
      await r.approval.getByRole('button', { name: 'Approve' }).click()
      const sent = (await r.outcome) as { ok?: string }
      if (!sent.ok) throw new Error(`send ${i} failed: ${JSON.stringify(sent)}`)
    }
  } finally {
    await ext.close()
    await pages.close()
    await svc.stop()
    await node.close()
  }
  return { shown, interactive }
}

/** The table printed by `npm run bench`. */
export function formatDappSend(r: { shown: number[]; interactive: number[] }): string {
  const row = (name: string, samples: number[]) => {
    const xs = [...samples].sort((a, b) => a - b)
    return `${name.padEnd(44)} p50 ${String(percentile(xs, 50)).padStart(5)} ms   p95 ${String(percentile(xs, 95)).padStart(5)} ms   (n=${xs.length})`
  }
  return [row('request → approval window shown', r.shown), row('request → Approve enabled (interactive)', r.interactive)].join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(formatDappSend(await benchDappSend()))
  process.exit(0)
}
