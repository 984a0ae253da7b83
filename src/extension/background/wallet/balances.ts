/**
 * Balances on the accounts screen: for each of the session's accounts that
 * the network takes (Ethereum accounts on `eip155:*`, Solana accounts on `solana:*`), the native
 * balance and the balances of the network's tokens (ERC-20 contracts on EVM, SPL mints on
 * Solana, `solana:…/token:<mint>`), read by the service's
 * get_wallet_address_balances query. Amounts stay atomic-unit decimal strings (the popup formats
 * them with amounts.ts). A node the service cannot reach is NODE_UNAVAILABLE, with its message.
 * The user's watched tokens on the network (`wallet_watchAsset`, "Import token") follow the
 * network's own, read from its node (`balanceOf`); one whose read fails is listed `unavailable`
 * (balance "0", not a real reading) instead of failing the list.
 */
import type { SigilClient } from '../../../api/client'
import { SigilRequestError } from '../../../api/errors'
import type { ActiveSession, Core } from '../core'
import { ExtensionError } from '../failures'
import { evmChainIdOf, type NetworkInfo } from '../chains/networks'
import { type WatchedAsset, watchedAssets } from '../dapp/evm/watchAsset'
import { readTokenBalance } from './erc20'
import { requirePopupNetwork } from '../chains/popupNetwork'
import { accountBook, flatten } from './accountBook'
import { nodeBalances } from './importedKeys'

/** The address format each network family takes. */
export const FORMAT_OF_FAMILY = { evm: 'ADDRESS_FORMAT_ETHEREUM', solana: 'ADDRESS_FORMAT_SOLANA' } as const

/** One asset's balance; `token` is the ERC-20 contract or SPL mint (absent for the native asset). */
export type BalanceView = {
  caip19: string
  symbol: string
  name: string
  decimals: number
  balance: string
  token?: string
  /** A watched token the user added (not one of the network's own). */
  watched?: true
  /** The balance could not be read (`balance` is then "0" and means nothing): show the token without one. */
  unavailable?: true
  /** Its value in US dollars ("2450.50") when the service's price source gave one (hosted: always); absent: show no fiat value. */
  usd?: string
}

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
    const usd = b.display?.usd
    const view: BalanceView = {
      caip19: b.caip19,
      symbol,
      name: known?.name ?? b.name ?? symbol,
      decimals,
      balance: b.balance,
      ...(usd !== undefined && /^\d{1,20}(\.\d{1,18})?$/.test(usd) ? { usd } : {}),
    }
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
  const watched = await watchedOn(core, session, network)
  // The service reads balances for wallet accounts only: an imported key's come from the node.
  const accounts = await Promise.all(
    mine.map(async (a) => {
      const listed = imported.has(a.address)
        ? await nodeBalances(core, network, a.address)
        : await balancesOf(client, session, network, a.address)
      const balances = await withWatched(listed, network, watched, (token) => readTokenBalance(core, network, token, a.address))
      return { ...a, balances }
    }),
  )
  // A token the service lists that the cached network list lacks: the operator added it, so the
  // next read of the network list (Send's token check, the symbol here) asks the service again.
  if (accounts.some((a) => a.balances.some((b) => b.token !== undefined && !b.watched && !isNetworkToken(network, b.token)))) {
    core.forgetService()
  }
  return { caip2: network.caip2, accounts }
}

/** The user's watched tokens on `network` (`wallet_watchAsset`, Import token); none off EVM. */
export async function watchedOn(core: Core, session: ActiveSession, network: NetworkInfo): Promise<WatchedAsset[]> {
  const chainId = evmChainIdOf(network)
  if (chainId === null) return []
  return (await watchedAssets(core.deps.local, session.record.organizationId, session.record.userId)).filter((w) => w.chainId === chainId)
}

/**
 * The balance of watched token `token` for `address` on `network`, as Send needs it: undefined when
 * the user does not watch it; NODE_UNAVAILABLE when the node cannot say.
 */
export async function watchedBalance(
  core: Core,
  session: ActiveSession,
  network: NetworkInfo,
  address: string,
  token: string,
): Promise<BalanceView | undefined> {
  const lower = token.toLowerCase()
  const watched = (await watchedOn(core, session, network)).filter((w) => w.address.toLowerCase() === lower)
  const [view] = await withWatched([], network, watched, (t) => readTokenBalance(core, network, t, address))
  if (view?.unavailable) throw new ExtensionError('NODE_UNAVAILABLE', `${network.name}: your ${view.symbol} balance could not be read`)
  return view
}

const isNetworkToken = (network: NetworkInfo, token: string) =>
  network.tokens.some((t) => (network.family === 'evm' ? t.address.toLowerCase() === token.toLowerCase() : t.address === token))

/**
 * `balances` followed by the watched tokens of `network` not already among them (each once, in the
 * order added), each read with `read`; a token whose read fails is kept, marked `unavailable`.
 */
export async function withWatched(
  balances: BalanceView[],
  network: Pick<NetworkInfo, 'caip2' | 'family'>,
  watched: readonly WatchedAsset[],
  read: (token: string) => Promise<bigint>,
): Promise<BalanceView[]> {
  const chainId = evmChainIdOf(network)
  const seen = new Set(balances.flatMap((b) => (b.token === undefined ? [] : [b.token.toLowerCase()])))
  const extra = watched.filter((w) => {
    const token = w.address.toLowerCase()
    if (w.chainId !== chainId || seen.has(token)) return false
    seen.add(token)
    return true
  })
  const read_ = await Promise.allSettled(extra.map((w) => read(w.address.toLowerCase())))
  return [
    ...balances,
    ...extra.map((w, i): BalanceView => {
      const token = w.address.toLowerCase()
      const r = read_[i]
      const base = {
        caip19: `${network.caip2}/erc20:${token}`,
        symbol: w.symbol,
        name: w.symbol,
        decimals: w.decimals,
        token,
        watched: true as const,
      }
      return r?.status === 'fulfilled' ? { ...base, balance: r.value.toString() } : { ...base, balance: '0', unavailable: true }
    }),
  ]
}
