/**
 * Fiat on-ramp: parameters validated with the service's own schema
 * (src/api/operations/init_fiat_on_ramp.ts), init_fiat_on_ramp, then the returned URL opened in
 * a new tab; get_on_ramp_transaction_status for the result.
 */
import { z } from 'zod'
import type { SigilClient } from '../../../api/client'
import { InitFiatOnRampParams } from '../../../api/operations/init_fiat_on_ramp'
import { listNetworks, type NetworkInfo } from '../chains/networks'
import type { ActiveSession, Core } from '../core'
import { ExtensionError } from '../failures'
import { fieldFailure } from '../fieldErrors'

/** `storage.session` key of the last purchase started (the popup may close when the tab opens). */
export const LAST_ON_RAMP_KEY = 'sigil.lastOnRamp'

const LastOnRamp = z.object({ transactionId: z.string(), createdAt: z.number() })

/** The last purchase started in this browser session, if any. */
export async function readLastOnRamp(core: Core): Promise<z.output<typeof LastOnRamp> | null> {
  const parsed = LastOnRamp.safeParse((await core.deps.session.get(LAST_ON_RAMP_KEY))[LAST_ON_RAMP_KEY])
  return parsed.success ? parsed.data : null
}

/** Validate on-ramp parameters; INVALID_ARGUMENT naming the fields otherwise. */
export function parseOnRampParams(input: unknown): z.output<typeof InitFiatOnRampParams> {
  const parsed = InitFiatOnRampParams.safeParse(input)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  if (issue?.path.at(-1) === 'fiatCurrencyAmount' && issue.code === 'custom') {
    const fiat = String((input as { fiatCurrencyCode?: unknown }).fiatCurrencyCode ?? 'USD').replace(/^FIAT_ON_RAMP_CURRENCY_/, '')
    throw new ExtensionError('INVALID_ARGUMENT', `The minimum is more than 20 ${fiat}.`, 'fiatCurrencyAmount')
  }
  throw fieldFailure(parsed.error.issues)
}

/**
 * The on-ramp networks the pinned service serves, each with the service network it lands on.
 * Ethereum and Solana are their mainnets, else the dev network standing in for them (the
 * sandbox delivers there, src/service/onramp/delivery.ts); Base is Base mainnet; Bitcoin never
 * (no service network carries it).
 */
export type OnRampNetworkChoice = {
  network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM' | 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BASE' | 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_SOLANA'
  caip2: string
  name: string
  /** A dev network: the sandbox provider delivers the bought coin there. */
  dev: boolean
}

const ON_RAMP_LANDINGS: Array<{
  network: OnRampNetworkChoice['network']
  mainnet: string
  devStandIn?: (n: NetworkInfo) => boolean
}> = [
  {
    network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM',
    mainnet: 'eip155:1',
    devStandIn: (n) => n.dev && n.family === 'evm' && n.nativeSymbol === 'ETH',
  },
  { network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BASE', mainnet: 'eip155:8453' },
  {
    network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_SOLANA',
    mainnet: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    devStandIn: (n) => n.dev && n.family === 'solana' && n.nativeSymbol === 'SOL',
  },
]

/** The on-ramp networks the service serves (see {@link OnRampNetworkChoice}). */
export async function onRampNetworks(core: Core): Promise<{ networks: OnRampNetworkChoice[] }> {
  const served = await listNetworks(core)
  const networks = ON_RAMP_LANDINGS.flatMap(({ network, mainnet, devStandIn }) => {
    const n = served.find((s) => s.caip2 === mainnet) ?? (devStandIn ? served.find(devStandIn) : undefined)
    return n ? [{ network, caip2: n.caip2, name: n.name, dev: n.dev }] : []
  })
  return { networks }
}

/** Start a purchase and open the provider page. */
export async function startOnRamp(
  core: Core,
  client: SigilClient,
  session: ActiveSession,
  input: unknown,
): Promise<{ onRampUrl: string; onRampTransactionId: string; status: string }> {
  const params = parseOnRampParams(input)
  const res = await client.initFiatOnRamp({ organizationId: session.record.organizationId, ...params })
  if (res.activity.status !== 'ACTIVITY_STATUS_COMPLETED' || !res.onRampUrl) {
    return { onRampUrl: '', onRampTransactionId: '', status: res.activity.status }
  }
  let url: URL
  try {
    url = new URL(res.onRampUrl)
  } catch {
    throw new ExtensionError('REQUEST_FAILED', 'The service returned an invalid on-ramp URL.')
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ExtensionError('REQUEST_FAILED', 'The service returned an invalid on-ramp URL.')
  }
  await core.deps.session.set({ [LAST_ON_RAMP_KEY]: { transactionId: res.onRampTransactionId, createdAt: core.now() } })
  await core.deps.openTab(url.href)
  return { onRampUrl: url.href, onRampTransactionId: res.onRampTransactionId, status: res.activity.status }
}

/** Status of an on-ramp transaction. */
export async function onRampStatus(
  client: SigilClient,
  session: ActiveSession,
  p: { transactionId: string },
): Promise<{ transactionStatus: string; txHash?: string | undefined }> {
  return client.getOnRampTransactionStatus({
    organizationId: session.record.organizationId,
    transactionId: p.transactionId,
    refresh: true,
  })
}
