/**
 * The wallet home: the total on the selected network, one primary action (Send) with Receive and
 * Buy beside it, the assets (a monogram, the amount in units, the symbol), then the accounts as
 * people know them: per wallet, each account with its identicon and name ("Account 1…" by
 * default), its Ethereum and Solana addresses — short address (the full one in its tooltip, in
 * Copy and under "More"), balances, Send, Receive (QR and the full address), on dev networks "Fund
 * from faucet" — and behind its "More" button Rename, Hide, Export and the full addresses with
 * their paths; "Add account" adds the next Ethereum and Solana address at once; "Add wallet"
 * creates or imports one. Addresses of chains the wallet cannot show or send are listed apart,
 * view only, without Receive.
 */
import { Fragment } from 'preact'
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'preact/hooks'
import type { PopupApi } from '../../protocol/popupApi'
import { formatShort, formatUnits } from '../../amounts'
import { CopyButton, ReceivePanel, shortAddress } from '../AddressTools'
import { chainOf, formatLabel } from '../chains'
import type { PopupClient } from '../client'
import { Identicon, Monogram } from '../Identicon'
import { Busy, ErrorLine, Field } from '../ui'
import { useAction } from '../useAction'
import { FORMAT_OF_FAMILY, type Network } from '../network'
import { ExportSecret, type ExportWhat } from './ExportSecret'
import { WalletAdd } from './WalletAdd'
import { DelegationLine } from './Delegation'
import { type Nft, NftSection, SendNft } from './Nfts'
import { ImportTokenLink } from './ImportToken'

type Book = PopupApi['accountBook']['result']
type Group = Book['groups'][number]
type GroupAddress = Group['addresses'][number]
type Balances = PopupApi['balances']['result']['accounts'][number]['balances']

/** Performance mark set once, when balances are first shown (bench: accounts screen with balances interactive). */
export const BALANCES_MARK = 'sigil-balances-shown'

const USD_FORMAT = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })

/** "$2,450.50" from the service's decimal USD value. */
export function usdText(usd: string): string {
  return USD_FORMAT.format(Number(usd))
}

function BalanceList({ balances, label }: { balances: Balances; label: string }) {
  return (
    <ul class="balances" aria-label={label}>
      {balances.map((b) => (
        <li
          key={b.caip19}
          class="token"
          data-symbol={b.symbol}
          data-balance={b.balance}
          title={b.unavailable ? `${b.symbol}: balance could not be read` : `${formatUnits(b.balance, b.decimals)} ${b.symbol}`}
        >
          <Monogram symbol={b.symbol} id={b.caip19} size={20} />
          <span class="token-value">
            <span class="amount">{b.unavailable ? '—' : formatShort(b.balance, b.decimals)}</span> <span class="symbol">{b.symbol}</span>
          </span>
          {b.usd !== undefined && !b.unavailable && <span class="fiat hint">{usdText(b.usd)}</span>}
        </li>
      ))}
    </ul>
  )
}

/** The sum of two USD values ("12.50" + "0.75" = "13.25"), exact to the cent. */
function addUsd(a: string, b: string): string {
  const cents = (v: string) => {
    const [whole = '0', fraction = ''] = v.split('.')
    return BigInt(whole) * 100n + BigInt((fraction + '00').slice(0, 2))
  }
  const sum = cents(a) + cents(b)
  return `${sum / 100n}.${(sum % 100n).toString().padStart(2, '0')}`
}

/** Sum of each asset over the accounts, in the order first seen. */
function totals(byAddress: Map<string, Balances>): Balances {
  const sums = new Map<string, Balances[number]>()
  for (const list of byAddress.values()) {
    for (const b of list) {
      const prev = sums.get(b.caip19)
      // a balance that could not be read makes the total unknown, never a smaller number
      if (prev) {
        // a USD value only when every account's part has one (cents added exactly)
        const { usd: _, ...rest } = prev
        const usd = prev.usd !== undefined && b.usd !== undefined ? addUsd(prev.usd, b.usd) : undefined
        sums.set(b.caip19, {
          ...rest,
          balance: (BigInt(prev.balance) + BigInt(b.balance)).toString(),
          ...(b.unavailable ? { unavailable: true as const } : {}),
          ...(usd !== undefined ? { usd } : {}),
        })
      } else sums.set(b.caip19, b)
    }
  }
  return [...sums.values()]
}

function Faucet({
  client,
  network,
  address,
  onFunded,
  onSessionLost,
}: {
  client: PopupClient
  network: Network
  address: string
  onFunded(): void
  onSessionLost(): void
}) {
  const action = useAction(onSessionLost)
  const [done, setDone] = useState<string | null>(null)
  return (
    <>
      <button
        type="button"
        disabled={action.busy}
        aria-label={`Fund from faucet ${address}`}
        onClick={() => {
          setDone(null)
          void action.run(
            () => client.call('faucet', { caip2: network.caip2, address }),
            (r) => {
              setDone(`Funded ${[`${r.amount} ${network.nativeSymbol}`, ...r.tokens.map((t) => `${t.amount} ${t.symbol}`)].join(' and ')}`)
              onFunded()
            },
          )
        }}
      >
        Fund from faucet
      </button>
      <Busy busy={action.busy} label="Asking the faucet…" />
      <ErrorLine error={action.error} />
      {done && <p class="ok">{done}</p>}
    </>
  )
}

/** Rename in place: the name field with Save and Cancel (Cancel or a saved name closes it). */
function RenameForm({
  client,
  group,
  name,
  onClose,
  onChanged,
  onSessionLost,
}: {
  client: PopupClient
  group: string
  name: string
  onClose(): void
  onChanged(): void
  onSessionLost(): void
}) {
  const [editing, setEditing] = useState(name)
  const action = useAction(onSessionLost)
  const input = useRef<HTMLInputElement>(null)
  // opened from the "More" menu, which closes: the focus goes to the field
  useEffect(() => input.current?.focus(), [])
  return (
    <form
      class="rename"
      onSubmit={(e) => {
        e.preventDefault()
        void action.run(
          () => client.call('renameAccount', { group, name: editing }),
          () => {
            onClose()
            onChanged()
          },
        )
      }}
    >
      <Field label={`Name of ${name}`} hint="Leave empty for the default name.">
        <input ref={input} value={editing} maxLength={32} onInput={(e) => setEditing(e.currentTarget.value)} />
      </Field>
      <div class="row">
        <button type="submit" class="primary" disabled={action.busy}>
          Save name
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
      <ErrorLine error={action.error} />
    </form>
  )
}

type AddressProps = {
  account: GroupAddress
  name: string
  /** An imported private key: Send covers imported Ethereum keys only. */
  imported?: boolean
  network: Network | null
  balances: Balances | undefined
  client: PopupClient
  onSend?: ((address: string) => void) | undefined
  onFunded(): void
  onSessionLost(): void
}

/** One address of an account: chain, short address, Copy, its tokens, then Send, Receive and the faucet. */
function AddressRow({ account, name, imported, network, balances, client, onSend, onFunded, onSessionLost }: AddressProps) {
  const [receiving, setReceiving] = useState(false)
  const chain = chainOf(account.addressFormat)
  const onNetwork = network !== null && FORMAT_OF_FAMILY[network.family] === account.addressFormat
  return (
    <li class="account" data-address={account.address} data-format={account.addressFormat} aria-label={`${name} · ${chain}`}>
      <div class="row address-line">
        <span class="chain-label">{chain}</span>
        <code class="address" title={account.address}>
          {shortAddress(account.address)}
        </code>
        <CopyButton text={account.address} label={`Copy address ${account.address}`} />
      </div>
      {onNetwork && balances && (
        <>
          {balances.length === 0 ? (
            <p class="hint">No tokens on this network yet.</p>
          ) : (
            <BalanceList balances={balances} label={`Balances of ${name} on ${chain}`} />
          )}
          {/* token list footer */}
        </>
      )}
      {onNetwork && network.family === 'evm' && !imported && (
        <DelegationLine client={client} network={network} address={account.address} onSessionLost={onSessionLost} />
      )}
      <div class="row account-actions">
        {onNetwork && onSend && (
          <button type="button" class="small" aria-label={`Send from ${account.address}`} onClick={() => onSend(account.address)}>
            Send
          </button>
        )}
        <button
          type="button"
          class="small"
          aria-expanded={receiving}
          aria-label={`Receive to ${name} on ${chain}`}
          onClick={() => setReceiving(!receiving)}
        >
          {receiving ? 'Hide QR' : 'Receive'}
        </button>
        {onNetwork && network.dev && (
          <Faucet client={client} network={network} address={account.address} onFunded={onFunded} onSessionLost={onSessionLost} />
        )}
      </div>
      {receiving && <ReceivePanel address={account.address} name={`${name} (${chain})`} />}
    </li>
  )
}

type GroupProps = Omit<AddressProps, 'account' | 'name' | 'balances'> & {
  group: Group
  balancesOf(address: string): Balances | undefined
  onChanged(): void
  onExport(what: ExportWhat): void
}

/**
 * One account: identicon, name and its "More" button, then its addresses. "More" opens (and
 * Escape closes, back on the button) Rename, Hide / Show, Export per chain and the full
 * addresses with their paths.
 */
function GroupRow({ group, balancesOf, client, onChanged, onExport, onSessionLost, ...rest }: GroupProps) {
  const hide = useAction(onSessionLost)
  const [menuOpen, setMenuOpen] = useState(false)
  const [renaming, setRenaming] = useState(false)
  const toggle = useRef<HTMLButtonElement>(null)
  const menuId = useId()
  const closeMenu = () => {
    setMenuOpen(false)
    toggle.current?.focus()
  }
  const escapeCloses = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && menuOpen) {
      e.preventDefault()
      closeMenu()
    }
  }
  return (
    <li class={group.hidden ? 'account-group hidden-group' : 'account-group'} data-group={group.group} aria-label={group.name}>
      <div class="account-head">
        <Identicon address={group.addresses[0]?.address ?? group.group} size={32} />
        <div class="account-title">
          <strong class="name">{group.name}</strong>
          {group.kind === 'imported' && <span class="badge">Imported</span>}
          {group.hidden && <span class="badge">Hidden</span>}
        </div>
        <button
          ref={toggle}
          type="button"
          class="small more-toggle"
          aria-expanded={menuOpen}
          aria-controls={menuId}
          aria-label={`More for ${group.name}`}
          onClick={() => setMenuOpen(!menuOpen)}
          onKeyDown={escapeCloses}
        >
          More
        </button>
      </div>
      {menuOpen && (
        <div id={menuId} class="more-menu" role="group" aria-label={`More for ${group.name}`} onKeyDown={escapeCloses}>
          <div class="more-actions">
            <button
              type="button"
              aria-label={`Rename ${group.name}`}
              onClick={() => {
                setRenaming(true)
                setMenuOpen(false)
              }}
            >
              Rename
            </button>
            <button
              type="button"
              disabled={hide.busy}
              onClick={() => void hide.run(() => client.call('hideAccount', { group: group.group, hidden: !group.hidden }), onChanged)}
            >
              {group.hidden ? `Show ${group.name}` : `Hide ${group.name}`}
            </button>
            {group.addresses.map((a) => (
              <button
                key={a.address}
                type="button"
                onClick={() =>
                  onExport(
                    group.kind === 'imported'
                      ? { kind: 'privateKey', privateKeyId: group.walletId, label: `${group.name} (${chainOf(a.addressFormat)})` }
                      : { kind: 'account', address: a.address, label: `${group.name} (${chainOf(a.addressFormat)})` },
                  )
                }
              >
                Export {chainOf(a.addressFormat)} key
              </button>
            ))}
          </div>
          {group.hidden ? null : <p class="hint">A hidden account is left out of this list and is not offered to sites.</p>}
          <ErrorLine error={hide.error} />
          <dl class="facts">
            {group.addresses.map((a) => (
              <Fragment key={a.address}>
                <dt>{formatLabel(a.addressFormat)}</dt>
                <dd class="address">{a.address}</dd>
                {a.path && (
                  <dd>
                    <code>{a.path}</code>
                  </dd>
                )}
              </Fragment>
            ))}
          </dl>
        </div>
      )}
      {renaming && (
        <RenameForm
          client={client}
          group={group.group}
          name={group.name}
          onClose={() => setRenaming(false)}
          onChanged={onChanged}
          onSessionLost={onSessionLost}
        />
      )}
      {group.kind === 'imported' && <p class="hint">Imported key: not from a seed phrase, so back it up by exporting its key.</p>}
      <ul class="accounts">
        {group.addresses.map((a) => (
          <AddressRow
            key={a.address}
            account={a}
            name={group.name}
            imported={group.kind === 'imported'}
            balances={balancesOf(a.address)}
            client={client}
            onSessionLost={onSessionLost}
            {...rest}
          />
        ))}
      </ul>
    </li>
  )
}

/** Addresses of chains the wallet cannot show or send: listed, view only, no Receive. */
function OtherAddresses({ other }: { other: Book['other'] }) {
  if (other.length === 0) return null
  return (
    <details class="details other-addresses">
      <summary>Other addresses (view only in other wallets)</summary>
      <p class="hint">
        Sigil cannot show balances or send on these chains yet, so it offers no Receive for them. Their keys are in your wallet; export the
        seed phrase to use them in a wallet that supports the chain.
      </p>
      <dl class="facts">
        {other.map((o) => (
          <Fragment key={o.address}>
            <dt>
              {formatLabel(o.addressFormat)} · {o.walletName}
            </dt>
            <dd class="address">{o.address}</dd>
          </Fragment>
        ))}
      </dl>
    </details>
  )
}

/** Wallets in the order the book lists their accounts, with their groups. */
function byWallet(groups: Group[]): Array<{ walletId: string; walletName: string; kind: Group['kind']; groups: Group[] }> {
  const out: Array<{ walletId: string; walletName: string; kind: Group['kind']; groups: Group[] }> = []
  for (const g of groups) {
    // imported keys share one section
    const walletId = g.kind === 'imported' ? '' : g.walletId
    const w = out.find((x) => x.walletId === walletId)
    if (w) w.groups.push(g)
    else out.push({ walletId, walletName: g.kind === 'imported' ? 'Imported accounts' : g.walletName, kind: g.kind, groups: [g] })
  }
  return out
}

/** Props of {@link Accounts}. */
export type AccountsProps = {
  client: PopupClient
  network?: Network | null
  onSend?: (address: string) => void
  onBuy?: () => void
  /** Opens "Import token" (the link shows under the assets on EVM networks). */
  onImportToken?: () => void
  onSessionLost(): void
}

type Stale = { at: number; advice: string }

/** "12:03": when last-known data was read, in the user's locale. */
function asOf(at: number): string {
  return new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
}

/**
 * What a failed read leaves on screen: the advice matching the cause, that the figures are the
 * last known ones and from when, and Retry (which re-reads accounts and balances).
 */
function StaleBanner({
  stale,
  what,
  failed,
  busy,
  onRetry,
}: {
  stale: Stale | undefined
  what: string
  failed: boolean
  busy: boolean
  onRetry(): void
}) {
  if (!stale && !failed) return null
  return (
    <div class="stale-banner" id="wallet-stale" role="status">
      {stale && (
        <p>
          {stale.advice} Showing the last known {what} · as of {asOf(stale.at)}.
        </p>
      )}
      <button type="button" onClick={onRetry} disabled={busy}>
        Retry
      </button>
    </div>
  )
}

/** The wallet home screen. */
export function Accounts({ client, network = null, onSend, onBuy, onImportToken, onSessionLost }: AccountsProps) {
  const [book, setBook] = useState<Book | null>(null)
  const [balances, setBalances] = useState<{ caip2: string; byAddress: Map<string, Balances>; stale?: Stale | undefined } | null>(null)
  const [added, setAdded] = useState<string | null>(null)
  const [receiveFrom, setReceiveFrom] = useState<string | null>(null)
  const [showHidden, setShowHidden] = useState(false)
  const [view, setView] = useState<
    { screen: 'list' } | { screen: 'add-wallet' } | { screen: 'export'; what: ExportWhat } | { screen: 'send-nft'; from: string; nft: Nft }
  >({
    screen: 'list',
  })
  const [nftsRead, setNftsRead] = useState(0)
  const load = useAction(onSessionLost)
  const loadBalances = useAction(onSessionLost)
  const add = useAction(onSessionLost)
  const { run } = load
  const runBalances = loadBalances.run
  const caip2 = network?.caip2
  const refreshBalances = useCallback(() => {
    if (caip2 === undefined) return
    void runBalances(
      () => client.call('balances', { caip2 }),
      (r) => setBalances({ caip2: r.caip2, byAddress: new Map(r.accounts.map((a) => [a.address, a.balances])), stale: r.stale }),
    )
  }, [client, runBalances, caip2])
  const reloadBook = useCallback(() => {
    void run(
      () => client.call('accountBook'),
      (r) => setBook(r),
    )
  }, [client, run])
  const refresh = useCallback(() => {
    reloadBook()
    refreshBalances()
    setNftsRead((n) => n + 1)
  }, [reloadBook, refreshBalances])
  useEffect(refresh, [refresh])
  const shown = balances !== null && balances.caip2 === caip2 ? balances.byAddress : undefined
  const shownStale = balances !== null && balances.caip2 === caip2 ? balances.stale : undefined
  useLayoutEffect(() => {
    if (shown && book && performance.getEntriesByName(BALANCES_MARK).length === 0) performance.mark(BALANCES_MARK)
  }, [shown, book])
  const [receiveOpen, setReceiveOpen] = useState(false)

  if (view.screen === 'add-wallet')
    return (
      <WalletAdd
        client={client}
        onDone={() => {
          setView({ screen: 'list' })
          refresh()
        }}
        onBack={() => setView({ screen: 'list' })}
        onSessionLost={onSessionLost}
      />
    )
  if (view.screen === 'send-nft' && network)
    return (
      <SendNft
        client={client}
        network={network}
        from={view.from}
        nft={view.nft}
        onDone={() => {
          setView({ screen: 'list' })
          refresh()
        }}
        onSessionLost={onSessionLost}
      />
    )
  if (view.screen === 'export')
    return <ExportSecret client={client} what={view.what} onBack={() => setView({ screen: 'list' })} onSessionLost={onSessionLost} />

  const groups = book?.groups ?? []
  const visible = groups.filter((g) => showHidden || !g.hidden)
  const hiddenCount = groups.filter((g) => g.hidden).length
  const all = visible.flatMap((g) => g.addresses.map((a) => ({ ...a, name: g.name })))
  const onNetwork = network ? all.filter((a) => a.addressFormat === FORMAT_OF_FAMILY[network.family]) : []
  const receiving = receiveFrom ?? onNetwork[0]?.address ?? all[0]?.address ?? null
  const receivingName = all.find((a) => a.address === receiving)?.name ?? ''
  const assets = shown ? totals(shown) : null
  const native = assets?.find((b) => b.symbol === network?.nativeSymbol) ?? assets?.[0]
  const wallets = byWallet(visible)

  return (
    <section aria-labelledby="wallet-heading">
      <div class="row spread">
        <h2 id="wallet-heading">Wallet</h2>
        <button type="button" onClick={refresh} disabled={load.busy || loadBalances.busy}>
          Refresh
        </button>
      </div>
      <StaleBanner
        stale={shownStale ?? book?.stale}
        what={shownStale ? 'balances' : 'accounts'}
        failed={loadBalances.error !== null || load.error !== null}
        busy={load.busy || loadBalances.busy}
        onRetry={refresh}
      />
      <div class="total" aria-label={`Total on ${network?.name ?? 'this network'}`}>
        <span class="hint">Total on {network?.name ?? 'this network'}</span>
        <strong class="total-amount" id="wallet-total">
          {native ? `${formatShort(native.balance, native.decimals)} ${native.symbol}` : '—'}
        </strong>
        {shownStale && <span class="stale-tag">stale · as of {asOf(shownStale.at)}</span>}
      </div>
      <div class="actions">
        <button type="button" class="primary" disabled={onNetwork.length === 0} onClick={() => onSend?.(onNetwork[0]?.address ?? '')}>
          Send
        </button>
        <button type="button" aria-expanded={receiveOpen} onClick={() => setReceiveOpen(!receiveOpen)}>
          Receive
        </button>
        <button type="button" onClick={() => onBuy?.()}>
          Buy
        </button>
      </div>
      {receiveOpen && receiving && (
        <section class="receive-box" aria-labelledby="receive-heading">
          <h3 id="receive-heading">Receive</h3>
          <Field label="Account to receive to">
            <select value={receiving} onChange={(e) => setReceiveFrom(e.currentTarget.value)}>
              {all.map((a) => (
                <option key={a.address} value={a.address}>
                  {a.name} · {chainOf(a.addressFormat)} · {shortAddress(a.address)}
                </option>
              ))}
            </select>
          </Field>
          <ReceivePanel
            address={receiving}
            name={`${receivingName} (${chainOf(all.find((a) => a.address === receiving)?.addressFormat ?? '')})`}
          />
        </section>
      )}
      <Busy busy={load.busy} label="Loading accounts…" />
      <Busy busy={loadBalances.busy} label={`Loading balances on ${network?.name ?? 'the network'}…`} />
      <ErrorLine error={load.error} />
      {loadBalances.error && (
        <p class="error" role="alert" id="balances-error">
          Balances unavailable: {loadBalances.error}
        </p>
      )}
      {assets && (
        <>
          <h3 id="assets-heading">Assets</h3>
          {assets.length === 0 ? <p class="hint">No assets on this network yet.</p> : <BalanceList balances={assets} label="Assets" />}
        </>
      )}
      {onImportToken && <ImportTokenLink network={network} onImport={onImportToken} />}
      <NftSection
        client={client}
        network={network}
        refreshKey={nftsRead}
        onSend={(from, nft) => setView({ screen: 'send-nft', from, nft })}
        onSessionLost={onSessionLost}
      />
      <div class="row spread">
        <h3 id="accounts-heading">Accounts</h3>
        {hiddenCount > 0 && (
          <label class="check">
            <input type="checkbox" checked={showHidden} onChange={(e) => setShowHidden(e.currentTarget.checked)} />
            Show hidden ({hiddenCount})
          </label>
        )}
      </div>
      {book && groups.length === 0 && <p>No accounts yet.</p>}
      {wallets.map((w) => (
        <section class="wallet" key={w.walletId} aria-label={`Wallet ${w.walletName}`}>
          {(wallets.length > 1 || w.kind === 'imported') && <h4 class="wallet-name">{w.walletName}</h4>}
          <ul class="account-groups">
            {w.groups.map((g) => (
              <GroupRow
                key={g.group}
                group={g}
                balancesOf={(a) => shown?.get(a)}
                network={network}
                client={client}
                onSend={onSend}
                onFunded={refreshBalances}
                onChanged={reloadBook}
                onExport={(what) => setView({ screen: 'export', what })}
                onSessionLost={onSessionLost}
              />
            ))}
          </ul>
          {w.kind === 'derived' && (
            <div class="row wallet-actions">
              <button
                type="button"
                disabled={add.busy}
                aria-label={wallets.length > 1 ? `Add account to ${w.walletName}` : 'Add account'}
                onClick={() => {
                  setAdded(null)
                  void add.run(
                    () => client.call('addAccount', { walletId: w.walletId }),
                    (r) => {
                      setAdded(`Added an account: ${r.addresses.map(shortAddress).join(' and ')}`)
                      reloadBook()
                      refreshBalances()
                    },
                  )
                }}
              >
                Add account
              </button>
              <button
                type="button"
                aria-label={`Export seed phrase of ${w.walletName}`}
                onClick={() => setView({ screen: 'export', what: { kind: 'wallet', walletId: w.walletId, label: w.walletName } })}
              >
                Export seed phrase
              </button>
            </div>
          )}
        </section>
      ))}
      <Busy busy={add.busy} label="Adding the account…" />
      <ErrorLine error={add.error} />
      {added && <p class="ok">{added}</p>}
      <div class="row">
        <button type="button" onClick={() => setView({ screen: 'add-wallet' })}>
          Add wallet
        </button>
      </div>
      {book && <OtherAddresses other={book.other} />}
    </section>
  )
}
