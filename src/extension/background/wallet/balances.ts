/**
 * Balances on the accounts screen: for each of the session's accounts that
 * the network takes (Ethereum accounts on `eip155:*`, Solana accounts on `solana:*`), the native
 * balance and the balances of the network's tokens (ERC-20 contracts on EVM, SPL mints on
 * Solana, `solana:…/token:<mint>`), read by the service's
 * get_wallet_address_balances query. Amounts stay atomic-unit decimal strings (the popup formats
 * them with amounts.ts). A node the service cannot reach is NODE_UNAVAILABLE, with its message.
 */
import type { SigilClient } from '../../../api/client'
import { SigilRequestError } from '../../../api/errors'
import type { ActiveSession, Core } from '../core'
import { ExtensionError } from '../failures'
import type { NetworkInfo } from '../chains/networks'
import { requirePopupNetwork } from '../chains/popupNetwork'
import { accountBook, flatten } from './accountBook'
import { nodeBalances } from './importedKeys'

/** The address format each network family takes. */
export const FORMAT_OF_FAMILY = { evm: 'ADDRESS_FORMAT_ETHEREUM', solana: 'ADDRESS_FORMAT_SOLANA' } as const

/** One asset's balance; `token` is the ERC-20 contract or SPL mint (absent for the native asset). */
export type BalanceView = { caip19: string; symbol: string; name: string; decimals: number; balance: string; token?: string }

/** One account's balances on the network, with the account's name and whether the user hid it. */
export type AccountBalances = { address: string; walletName: string; name: string; hidden: boolean; balances: BalanceView[] }

/** Map a service refusal caused by the node to NODE_UNAVAILABLE; anything else passes. */
export function nodeFailure(err: unknown, network: Pick<NetworkInfo, 'name'>): unknown {
  if (err instanceof SigilRequestError && err.code === 'FAILED_PRECONDITION') {
    return new ExtensionError('NODE_UNAVAILABLE', err.message.includes(network.name) ? err.message : `${network.name}: ${err.message}`)
  }
  return err
}

/** The native asset and tokens of one address on `network`, read through the service. */
export async function balancesOf(
  client: SigilClient,
  session: ActiveSession,
  network: NetworkInfo,
  address: string,
): Promise<BalanceView[]> {
  let balances: Awaited<ReturnType<SigilClient['getWalletAddressBalances']>>['balances']
  try {
    ;({ balances } = await client.getWalletAddressBalances({
      organizationId: session.record.organizationId,
      address,
      caip2: network.caip2,
    }))
  } catch (err) {
    throw nodeFailure(err, network)
  }
  return balances.flatMap((b) => {
    if (b.caip19 === undefined || b.balance === undefined || !/^\d{1,78}$/.test(b.balance)) return []
    const id = /\/(?:erc20:(0x[0-9a-fA-F]{40})|token:([1-9A-HJ-NP-Za-km-z]{32,44}))$/.exec(b.caip19)
    const token = id?.[1] ?? id?.[2]
    const known =
      token === undefined
        ? undefined
        : network.tokens.find((t) => (network.family === 'evm' ? t.address.toLowerCase() === token.toLowerCase() : t.address === token))
    const decimals = known?.decimals ?? (token === undefined ? network.nativeDecimals : b.decimals)
    if (decimals === undefined) return []
    const symbol = known?.symbol ?? (token === undefined ? network.nativeSymbol : (b.symbol ?? '?'))
    const view: BalanceView = { caip19: b.caip19, symbol, name: known?.name ?? b.name ?? symbol, decimals, balance: b.balance }
    return [token === undefined ? view : { ...view, token: known?.address ?? token }]
  })
}

/** Balances of every account of the session that `caip2` takes. */
export async function getBalances(
  core: Core,
  client: SigilClient,
  session: ActiveSession,
  p: { caip2: string },
): Promise<{ caip2: string; accounts: AccountBalances[] }> {
  const network = await requirePopupNetwork(core, p.caip2)
  const format = FORMAT_OF_FAMILY[network.family]
  const { groups } = await accountBook(client, session, core.deps.local)
  const imported = new Set(flatten(groups.filter((g) => g.kind === 'imported')).map((a) => a.address))
  const mine = flatten(groups)
    .filter((a) => a.addressFormat === format)
    .map((a) => ({ address: a.address, walletName: a.walletName, name: a.name, hidden: a.hidden }))
  // The service reads balances for wallet accounts only: an imported key's come from the node.
  const accounts = await Promise.all(
    mine.map(async (a) => ({
      ...a,
      balances: imported.has(a.address)
        ? await nodeBalances(core, network, a.address)
        : await balancesOf(client, session, network, a.address),
    })),
  )
  return { caip2: network.caip2, accounts }
}
