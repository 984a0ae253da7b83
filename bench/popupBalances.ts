/**
 * Popup accounts screen with balances, warm: with a signed-up,
 * faucet-funded session against the real service and dev chains, open the popup N times with the
 * service worker running and read `performance.mark('sigil-balances-shown')` (set by
 * src/extension/popup/screens/Accounts.tsx on the first commit that shows the accounts with their
 * balances; ms since the popup's navigation start). Each open reads the balances afresh from the
 * service, which reads them from the node (get_wallet_address_balances): this is the whole path.
 * Needs `.output/chrome-mv3` (built here when missing). Run: `npx tsx bench/popupBalances.ts`.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { DEV_SOLANA_CAIP2, resolveNetworks } from '../src/chains/networks.js'
import { startDevChains } from '../src/devchain/index.js'
import { freePort } from '../test/integration/helpers/process.js'
import { startTestService } from '../test/integration/helpers/service.js'
import { EXTENSION_DIR, launchExtension } from '../test/e2e/helpers/browser.js'
import { callBackground, configureService, loginByEmailOtp, openPopup } from '../test/e2e/helpers/wallet.js'
import { percentile } from './load.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const MARK = 'sigil-balances-shown'

/** Samples (ms since navigation start) of the balances mark on warm opens. */
export async function benchPopupBalances(n = 20): Promise<number[]> {
  if (!existsSync(join(EXTENSION_DIR, 'manifest.json')))
    await promisify(execFile)(join(ROOT, 'node_modules', '.bin', 'wxt'), ['build'], { cwd: ROOT })
  const chains = await startDevChains({ evmPort: await freePort(), solanaPort: 0 })
  const svc = await startTestService({
    networks: resolveNetworks(`eip155:31337=${chains.evm.url},${DEV_SOLANA_CAIP2}=${chains.solana.url}`),
  })
  const ext = await launchExtension()
  try {
    const page = await openPopup(ext)
    await configureService(page, svc.url)
    await loginByEmailOtp(page, svc.url, `bench-${Date.now()}@example.test`)
    const { result } = await callBackground(page, 'balances', { caip2: 'eip155:31337' })
    const address = result.accounts[0].address as string
    await callBackground(page, 'faucet', { caip2: 'eip155:31337', address })
    await page.close()
    const samples: number[] = []
    for (let i = 0; i <= n; i++) {
      const p = await ext.context.newPage()
      await p.setViewportSize({ width: 380, height: 600 })
      await p.goto(`chrome-extension://${ext.extensionId}/popup.html`)
      const handle = await p.waitForFunction((name) => performance.getEntriesByName(name, 'mark')[0]?.startTime, MARK, { timeout: 20_000 })
      const t = (await handle.jsonValue()) as number
      if ((await p.locator('li[data-symbol="ETH"]').first().getAttribute('data-balance')) !== '1000000000000000000')
        throw new Error('wrong balance shown')
      if (i > 0) samples.push(t) // the first open fills caches: not counted
      await p.close()
    }
    return samples
  } finally {
    await ext.close()
    await svc.stop()
    await chains.close()
  }
}

/** One line per statistic. */
export function formatPopupBalances(samples: number[]): string {
  const s = [...samples].sort((a, b) => a - b)
  return [
    `timing                                   n  median ms  p95 ms`,
    `popup accounts with balances (warm)  ${String(s.length).padStart(5)}  ${percentile(s, 50).toFixed(1).padStart(9)}  ${percentile(s, 95).toFixed(1).padStart(6)}`,
    `mark '${MARK}': first commit showing the accounts with balances read through the service from the dev EVM node (ms since navigation start).`,
  ].join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(formatPopupBalances(await benchPopupBalances()))
}
