/**
 * "Fund from faucet" (dev builds): `POST {apiBaseUrl}/dev/faucet {caip2, address, amount}`
 * on the verified service (src/devchain/faucet.ts), for a dev network (`dev: true` in the signed
 * network list) and one of the session's own accounts. Called from the background, never the page.
 */
import type { SigilClient } from '../../../api/client'
import type { ActiveSession, Core } from '../core'
import { FORMAT_OF_FAMILY } from './balances'
import { ExtensionError } from '../failures'
import { requirePopupNetwork } from '../chains/popupNetwork'
import { accountBook, flatten } from './accountBook'

/** What one press of the button asks for, in whole native units. */
export const FAUCET_AMOUNT = '1'

/** Fund `address` (one of the session's accounts) on the dev network `caip2`. */
export async function fundFromFaucet(
  core: Core,
  client: SigilClient,
  session: ActiveSession,
  p: { caip2: string; address: string; amount?: string | undefined },
): Promise<{ caip2: string; address: string; amount: string; baseUnits: string; tokens: FaucetTokens }> {
  const network = await requirePopupNetwork(core, p.caip2)
  if (!network.dev) throw new ExtensionError('INVALID_ARGUMENT', `${network.name} is not a dev chain: the faucet funds dev chains only.`)
  const own = flatten((await accountBook(client, session, core.deps.local)).groups).some(
    (a) => a.address === p.address && a.addressFormat === FORMAT_OF_FAMILY[network.family],
  )
  if (!own) throw new ExtensionError('INVALID_ARGUMENT', `address: not one of your ${network.name} accounts`)
  const { apiBaseUrl } = await core.service()
  const doFetch = core.deps.fetch ?? ((i: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(i, init))
  const amount = p.amount ?? FAUCET_AMOUNT
  let res: Response
  try {
    res = await doFetch(`${apiBaseUrl}/dev/faucet`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ caip2: network.caip2, address: p.address, amount }),
      credentials: 'omit',
      redirect: 'error',
      signal: AbortSignal.timeout(30_000),
    })
  } catch {
    throw new ExtensionError('NETWORK', 'Could not reach the service’s faucet.')
  }
  const body = (await res.json().catch(() => null)) as { message?: unknown; baseUnits?: unknown; tokens?: unknown } | null
  if (!res.ok) {
    const why = typeof body?.message === 'string' ? body.message : `HTTP ${res.status}`
    if (res.status === 404) throw new ExtensionError('REQUEST_FAILED', 'This service has no dev faucet.')
    throw new ExtensionError(
      res.status === 400 && /does not answer|refused/.test(why) ? 'NODE_UNAVAILABLE' : 'REQUEST_FAILED',
      `Faucet: ${why}`,
    )
  }
  const baseUnits = typeof body?.baseUnits === 'string' && /^\d{1,78}$/.test(body.baseUnits) ? body.baseUnits : '0'
  return { caip2: network.caip2, address: p.address, amount, baseUnits, tokens: faucetTokens(body?.tokens) }
}

/** Dev tokens the faucet also gave (whole units and symbol), e.g. `[{ amount: '100', symbol: 'USDC' }]`. */
export type FaucetTokens = Array<{ amount: string; symbol: string }>

/** The faucet's `tokens`, each kept only when well-formed (a decimal amount, a short symbol). */
function faucetTokens(wire: unknown): FaucetTokens {
  if (!Array.isArray(wire)) return []
  return wire.slice(0, 8).flatMap((t) => {
    const { amount, symbol } = (t ?? {}) as { amount?: unknown; symbol?: unknown }
    return typeof amount === 'string' &&
      /^\d{1,30}(\.\d{1,18})?$/.test(amount) &&
      typeof symbol === 'string' &&
      /^[A-Za-z0-9.$_-]{1,12}$/.test(symbol)
      ? [{ amount, symbol }]
      : []
  })
}
