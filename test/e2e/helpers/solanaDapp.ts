/**
 * A Solana dApp test's world: the Solana dev runtime, the service serving it, the extension
 * logged in by email OTP, the user's Solana address (funded from the faucet when asked) and a
 * dApp page, loaded and ready. `close()` stops everything in reverse order.
 */
import type { Page } from 'playwright-core'
import { resolveNetworks } from '../../../src/chains/networks'
import { type RunningSolanaRpc, startSolanaRpc } from '../../../src/devchain/solana/server'
import { startTestService, type TestService } from '../../integration/helpers/service'
import { type LaunchedExtension, launchExtension } from './browser'
import { type PageServer, startPageServer } from './pageServer'
import { callBackground, configureService, loginByEmailOtp, openPopup } from './wallet'

export type SolanaDappWorld = {
  solana: RunningSolanaRpc
  svc: TestService
  ext: LaunchedExtension
  pages: PageServer
  dapp: Page
  /** The logged-in user's Solana address. */
  owner: string
  close(): Promise<void>
}

/**
 * Start the world with `html` served at `/`; `fundSol` (e.g. '2') airdrops that much to the user;
 * `ready` is evaluated in the page until true (the dApp found Sigil).
 */
export async function startSolanaDapp(opts: {
  html: string | ((solana: RunningSolanaRpc) => Promise<string>)
  email: string
  ready: string
  fundSol?: string
}): Promise<SolanaDappWorld> {
  const solana = await startSolanaRpc({ host: '127.0.0.1', port: 0 })
  const started: { svc?: TestService; ext?: LaunchedExtension; pages?: PageServer } = {}
  const close = async () => {
    await started.ext?.close()
    await started.pages?.close()
    await started.svc?.stop()
    await solana.close()
  }
  try {
    const svc = (started.svc = await startTestService({ networks: resolveNetworks(`${solana.caip2}=${solana.url}`) }))
    const ext = (started.ext = await launchExtension())
    const html = typeof opts.html === 'string' ? opts.html : await opts.html(solana)
    const pages = (started.pages = await startPageServer({ '/': html }))
    const popup = await openPopup(ext)
    await configureService(popup, svc.url)
    await loginByEmailOtp(popup, svc.url, opts.email)
    const status = await callBackground(popup, 'getStatus')
    const { json } = await svc.post('/public/v1/query/list_wallet_accounts', {
      organizationId: status.result.session.organizationId,
      paginationOptions: { limit: '100' },
    })
    const owner = (json.accounts as Array<{ address: string; addressFormat: string }>).find(
      (a) => a.addressFormat === 'ADDRESS_FORMAT_SOLANA',
    )?.address
    if (!owner) throw new Error('the new user has no Solana account')
    if (opts.fundSol !== undefined) {
      const funded = await svc.post('/dev/faucet', { caip2: solana.caip2, address: owner, amount: opts.fundSol }, null)
      if (funded.status !== 200) throw new Error(`the faucet answered ${funded.status}`)
    }
    const dapp = await ext.context.newPage()
    await dapp.goto(pages.url('/'))
    await dapp.waitForFunction(opts.ready, undefined, { timeout: 15_000 })
    return { solana, svc, ext, pages, dapp, owner, close }
  } catch (err) {
    await close()
    throw err
  }
}
