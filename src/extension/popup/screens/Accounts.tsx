/**
 * The wallet home: the total on the selected network, the assets with their
 * balances, Send / Receive / Buy, then each account by name (editable, "Account 1…" by default)
 * with its short address, Copy, Receive (QR and the full address), Send, on dev networks "Fund
 * from faucet", and its derivation path under "Details"; then "Add account".
 */
import { useCallback, useEffect, useLayoutEffect, useState } from 'preact/hooks'
import type { PopupApi } from '../../protocol/popupApi'
import { formatShort, formatUnits } from '../../amounts'
import { CopyButton, ReceivePanel, shortAddress } from '../AddressTools'
import { ADDABLE_FORMATS, chainOf, formatLabel, variantOf } from '../chains'
import type { PopupClient } from '../client'
import { Busy, ErrorLine, Field } from '../ui'
import { useAction } from '../useAction'
import { FORMAT_OF_FAMILY, type Network } from '../network'

type Wallets = PopupApi['listAccounts']['result']['wallets']
type Account = Wallets[number]['accounts'][number]
type Balances = PopupApi['balances']['result']['accounts'][number]['balances']

/** Performance mark set once, when balances are first shown (bench: accounts screen with balances interactive). */
export const BALANCES_MARK = 'sigil-balances-shown'

function BalanceList({ balances, label }: { balances: Balances; label: string }) {
  return (
    <ul class="balances" aria-label={label}>
      {balances.map((b) => (
        <li key={b.caip19} data-symbol={b.symbol} data-balance={b.balance} title={`${formatUnits(b.balance, b.decimals)} ${b.symbol}`}>
          <span class="amount">{formatShort(b.balance, b.decimals)}</span> <span class="symbol">{b.symbol}</span>
        </li>
      ))}
    </ul>
  )
}

/** Sum of each asset over the accounts, in the order first seen. */
function totals(byAddress: Map<string, Balances>): Balances {
  const sums = new Map<string, Balances[number]>()
  for (const list of byAddress.values()) {
    for (const b of list) {
      const prev = sums.get(b.caip19)
      sums.set(b.caip19, prev ? { ...prev, balance: (BigInt(prev.balance) + BigInt(b.balance)).toString() } : b)
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
              setDone(`Funded ${r.amount} ${network.nativeSymbol}`)
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

function AccountName({
  client,
  address,
  name,
  onRenamed,
  onSessionLost,
}: {
  client: PopupClient
  address: string
  name: string
  onRenamed(names: Record<string, string>): void
  onSessionLost(): void
}) {
  const [editing, setEditing] = useState<string | null>(null)
  const action = useAction(onSessionLost)
  if (editing === null) {
    return (
      <div class="row account-name">
        <strong class="name">{name}</strong>
        <button type="button" class="small" aria-label={`Rename ${name}`} onClick={() => setEditing(name)}>
          Rename
        </button>
      </div>
    )
  }
  return (
    <form
      class="rename"
      onSubmit={(e) => {
        e.preventDefault()
        void action.run(
          () => client.call('renameAccount', { address, name: editing }),
          (r) => {
            setEditing(null)
            onRenamed(r.names)
          },
        )
      }}
    >
      <Field label={`Name of ${name}`} hint="Leave empty for the default name.">
        <input value={editing} maxLength={32} onInput={(e) => setEditing(e.currentTarget.value)} />
      </Field>
      <div class="row">
        <button type="submit" class="primary" disabled={action.busy}>
          Save name
        </button>
        <button type="button" onClick={() => setEditing(null)}>
          Cancel
        </button>
      </div>
      <ErrorLine error={action.error} />
    </form>
  )
}

type RowProps = {
  account: Account
  name: string
  network: Network | null
  balances: Balances | undefined
  client: PopupClient
  onSend?: ((address: string) => void) | undefined
  onFunded(): void
  onRenamed(names: Record<string, string>): void
  onSessionLost(): void
}

function AccountRow({ account, name, network, balances, client, onSend, onFunded, onRenamed, onSessionLost }: RowProps) {
  const [receiving, setReceiving] = useState(false)
  const variant = variantOf(account.addressFormat)
  const onNetwork = network !== null && FORMAT_OF_FAMILY[network.family] === account.addressFormat
  return (
    <li class="account" data-address={account.address} data-format={account.addressFormat} aria-label={name}>
      <AccountName client={client} address={account.address} name={name} onRenamed={onRenamed} onSessionLost={onSessionLost} />
      <div class="row">
        <code class="address" title={account.address}>
          {shortAddress(account.address)}
        </code>
        <CopyButton text={account.address} label={`Copy address ${account.address}`} />
      </div>
      {onNetwork && balances && <BalanceList balances={balances} label={`Balances of ${name}`} />}
      <div class="row">
        <button type="button" aria-expanded={receiving} aria-label={`Receive to ${name}`} onClick={() => setReceiving(!receiving)}>
          {receiving ? 'Hide' : 'Receive'}
        </button>
        {onNetwork && onSend && (
          <button type="button" aria-label={`Send from ${account.address}`} onClick={() => onSend(account.address)}>
            Send
          </button>
        )}
        {onNetwork && network.dev && (
          <Faucet client={client} network={network} address={account.address} onFunded={onFunded} onSessionLost={onSessionLost} />
        )}
      </div>
      {receiving && <ReceivePanel address={account.address} name={name} />}
      <details class="details">
        <summary>Details</summary>
        <dl class="facts">
          <dt>Address</dt>
          <dd class="address">{account.address}</dd>
          <dt>Format</dt>
          <dd>
            {formatLabel(account.addressFormat)}
            {variant ? ` · ${variant}` : ''}
          </dd>
          <dt>Derivation path</dt>
          <dd>
            <code>{account.path}</code>
          </dd>
        </dl>
      </details>
    </li>
  )
}

function groupByChain(accounts: Account[]): Array<[string, Account[]]> {
  const groups = new Map<string, Account[]>()
  for (const a of accounts) {
    const chain = chainOf(a.addressFormat)
    groups.set(chain, [...(groups.get(chain) ?? []), a])
  }
  return [...groups.entries()]
}

/** Props of {@link Accounts}. */
export type AccountsProps = {
  client: PopupClient
  network?: Network | null
  onSend?: (address: string) => void
  onBuy?: () => void
  onSessionLost(): void
}

/** The wallet home screen. */
export function Accounts({ client, network = null, onSend, onBuy, onSessionLost }: AccountsProps) {
  const [wallets, setWallets] = useState<Wallets | null>(null)
  const [names, setNames] = useState<Record<string, string>>({})
  const [balances, setBalances] = useState<{ caip2: string; byAddress: Map<string, Balances> } | null>(null)
  const [format, setFormat] = useState<(typeof ADDABLE_FORMATS)[number]>('ADDRESS_FORMAT_ETHEREUM')
  const [added, setAdded] = useState<string | null>(null)
  const [receiveFrom, setReceiveFrom] = useState<string | null>(null)
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
      (r) => setBalances({ caip2: r.caip2, byAddress: new Map(r.accounts.map((a) => [a.address, a.balances])) }),
    )
  }, [client, runBalances, caip2])
  const refresh = useCallback(() => {
    void run(
      () => client.call('listAccounts'),
      (r) => setWallets(r.wallets),
    )
    // Names are a convenience: without them every account shows its default name.
    void client.call('accountNames').then((r) => r.ok && setNames(r.result.names))
    refreshBalances()
  }, [client, run, refreshBalances])
  useEffect(refresh, [refresh])
  const shown = balances !== null && balances.caip2 === caip2 ? balances.byAddress : undefined
  useLayoutEffect(() => {
    if (shown && wallets && performance.getEntriesByName(BALANCES_MARK).length === 0) performance.mark(BALANCES_MARK)
  }, [shown, wallets])

  const all = wallets?.flatMap((w) => w.accounts) ?? []
  const nameOf = (address: string) => names[address] || `Account ${all.findIndex((a) => a.address === address) + 1}`
  const onNetwork = network ? all.filter((a) => a.addressFormat === FORMAT_OF_FAMILY[network.family]) : []
  const receiving = receiveFrom ?? onNetwork[0]?.address ?? all[0]?.address ?? null
  const [receiveOpen, setReceiveOpen] = useState(false)
  const assets = shown ? totals(shown) : null
  const native = assets?.find((b) => b.symbol === network?.nativeSymbol) ?? assets?.[0]

  return (
    <section aria-labelledby="wallet-heading">
      <div class="row spread">
        <h2 id="wallet-heading">Wallet</h2>
        <button type="button" onClick={refresh} disabled={load.busy || loadBalances.busy}>
          Refresh
        </button>
      </div>
      <div class="total" aria-label={`Total on ${network?.name ?? 'this network'}`}>
        <span class="hint">Total on {network?.name ?? 'this network'}</span>
        <strong class="total-amount" id="wallet-total">
          {native ? `${formatShort(native.balance, native.decimals)} ${native.symbol}` : '—'}
        </strong>
      </div>
      <div class="actions">
        <button type="button" class="primary" disabled={onNetwork.length === 0} onClick={() => onSend?.(onNetwork[0]?.address ?? '')}>
          Send
        </button>
        <button type="button" class="primary" aria-expanded={receiveOpen} onClick={() => setReceiveOpen(!receiveOpen)}>
          Receive
        </button>
        <button type="button" class="primary" onClick={() => onBuy?.()}>
          Buy
        </button>
      </div>
      {receiveOpen && receiving && (
        <section class="receive-box" aria-labelledby="receive-heading">
          <h3 id="receive-heading">Receive</h3>
          <Field label="Account to receive to">
            <select value={receiving} onChange={(e) => setReceiveFrom(e.currentTarget.value)}>
              {all.map((a) => (
                <option key={a.walletAccountId} value={a.address}>
                  {nameOf(a.address)} · {chainOf(a.addressFormat)} · {shortAddress(a.address)}
                </option>
              ))}
            </select>
          </Field>
          <ReceivePanel address={receiving} name={nameOf(receiving)} />
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
      <h3 id="accounts-heading">Accounts</h3>
      {wallets?.length === 0 && <p>No wallets yet.</p>}
      {wallets?.map((w) => (
        <section class="wallet" key={w.walletId} aria-label={`Wallet ${w.walletName}`}>
          {wallets.length > 1 && <h3>{w.walletName}</h3>}
          {groupByChain(w.accounts).map(([chain, accounts]) => (
            <section key={chain} class="chain" aria-label={chain}>
              <h4>{chain}</h4>
              <ul class="accounts">
                {accounts.map((a) => (
                  <AccountRow
                    key={a.walletAccountId}
                    account={a}
                    name={nameOf(a.address)}
                    network={network}
                    balances={shown?.get(a.address)}
                    client={client}
                    onSend={onSend}
                    onFunded={refreshBalances}
                    onRenamed={setNames}
                    onSessionLost={onSessionLost}
                  />
                ))}
              </ul>
            </section>
          ))}
          <form
            class="add-account"
            onSubmit={(e) => {
              e.preventDefault()
              setAdded(null)
              void add.run(
                () => client.call('addAccount', { walletId: w.walletId, addressFormat: format }),
                (r) => {
                  setAdded(r.address ? `Added ${r.address}` : `Request ${r.status.replace('ACTIVITY_STATUS_', '').toLowerCase()}`)
                  refresh()
                },
              )
            }}
          >
            <Field label="Chain for the new account">
              <select value={format} onChange={(e) => setFormat(e.currentTarget.value as typeof format)}>
                {ADDABLE_FORMATS.map((f) => (
                  <option key={f} value={f}>
                    {formatLabel(f)}
                  </option>
                ))}
              </select>
            </Field>
            <button type="submit" disabled={add.busy}>
              Add account
            </button>
            <Busy busy={add.busy} label="Adding the account…" />
            <ErrorLine error={add.error} />
            {added && <p class="ok">{added}</p>}
          </form>
        </section>
      ))}
    </section>
  )
}
