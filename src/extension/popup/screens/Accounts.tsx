/**
 * Wallets and their accounts grouped by chain, with copy, QR code and "add account"; on the
 * selected network, each account's balances (native and tokens), a Refresh, "Send" and, on dev
 * networks, "Fund from faucet".
 */
import { useCallback, useEffect, useLayoutEffect, useState } from 'preact/hooks'
import type { PopupApi } from '../../background/popupMethods'
import { formatShort, formatUnits } from '../../amounts'
import { ADDABLE_FORMATS, chainOf, formatLabel, variantOf } from '../chains'
import type { PopupClient } from '../client'
import { QrCode } from '../QrCode'
import { Busy, ErrorLine, Field } from '../ui'
import { useAction } from '../useAction'
import { FORMAT_OF_FAMILY, type Network } from '../network'

type Wallets = PopupApi['listAccounts']['result']['wallets']
type Account = Wallets[number]['accounts'][number]
type Balances = PopupApi['balances']['result']['accounts'][number]['balances']

/** Performance mark set once, when balances are first shown (bench: accounts screen with balances interactive). */
export const BALANCES_MARK = 'sigil-balances-shown'

function BalanceList({ balances }: { balances: Balances }) {
  return (
    <ul class="balances" aria-label="Balances">
      {balances.map((b) => (
        <li key={b.caip19} data-symbol={b.symbol} data-balance={b.balance} title={`${formatUnits(b.balance, b.decimals)} ${b.symbol}`}>
          <span class="amount">{formatShort(b.balance, b.decimals)}</span> <span class="symbol">{b.symbol}</span>
        </li>
      ))}
    </ul>
  )
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
        aria-label={`Fund ${address} from faucet`}
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

type RowProps = {
  account: Account
  network: Network | null
  balances: Balances | undefined
  client: PopupClient
  onSend?: ((address: string) => void) | undefined
  onFunded(): void
  onSessionLost(): void
}

function AccountRow({ account, network, balances, client, onSend, onFunded, onSessionLost }: RowProps) {
  const [showQr, setShowQr] = useState(false)
  const [copied, setCopied] = useState(false)
  const variant = variantOf(account.addressFormat)
  const onNetwork = network !== null && FORMAT_OF_FAMILY[network.family] === account.addressFormat
  return (
    <li class="account" data-address={account.address} data-format={account.addressFormat}>
      <code class="address">{account.address}</code>
      <span class="hint">
        {variant ? `${variant} · ` : ''}
        {account.path}
      </span>
      {onNetwork && balances && <BalanceList balances={balances} />}
      <div class="row">
        <button
          type="button"
          aria-label={`Copy address ${account.address}`}
          onClick={() => {
            void navigator.clipboard.writeText(account.address).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" aria-expanded={showQr} aria-label={`QR code for ${account.address}`} onClick={() => setShowQr(!showQr)}>
          {showQr ? 'Hide QR' : 'QR'}
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
      {showQr && <QrCode text={account.address} label={`QR code of address ${account.address}`} />}
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
export type AccountsProps = { client: PopupClient; network?: Network | null; onSend?: (address: string) => void; onSessionLost(): void }

/** The accounts screen. */
export function Accounts({ client, network = null, onSend, onSessionLost }: AccountsProps) {
  const [wallets, setWallets] = useState<Wallets | null>(null)
  const [balances, setBalances] = useState<{ caip2: string; byAddress: Map<string, Balances> } | null>(null)
  const [format, setFormat] = useState<(typeof ADDABLE_FORMATS)[number]>('ADDRESS_FORMAT_ETHEREUM')
  const [added, setAdded] = useState<string | null>(null)
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
    refreshBalances()
  }, [client, run, refreshBalances])
  useEffect(refresh, [refresh])
  const shown = balances !== null && balances.caip2 === caip2 ? balances.byAddress : undefined
  useLayoutEffect(() => {
    if (shown && wallets && performance.getEntriesByName(BALANCES_MARK).length === 0) performance.mark(BALANCES_MARK)
  }, [shown, wallets])

  return (
    <section aria-labelledby="accounts-heading">
      <div class="row spread">
        <h2 id="accounts-heading">Accounts</h2>
        <button type="button" onClick={refresh} disabled={load.busy || loadBalances.busy}>
          Refresh
        </button>
      </div>
      <Busy busy={load.busy} label="Loading accounts…" />
      <Busy busy={loadBalances.busy} label={`Loading balances on ${network?.name ?? 'the network'}…`} />
      <ErrorLine error={load.error} />
      {loadBalances.error && (
        <p class="error" role="alert" id="balances-error">
          Balances unavailable: {loadBalances.error}
        </p>
      )}
      {wallets?.length === 0 && <p>No wallets yet.</p>}
      {wallets?.map((w) => (
        <section class="wallet" key={w.walletId} aria-label={`Wallet ${w.walletName}`}>
          <h3>{w.walletName}</h3>
          {groupByChain(w.accounts).map(([chain, accounts]) => (
            <section key={chain} class="chain" aria-label={chain}>
              <h4>{chain}</h4>
              <ul class="accounts">
                {accounts.map((a) => (
                  <AccountRow
                    key={a.walletAccountId}
                    account={a}
                    network={network}
                    balances={shown?.get(a.address)}
                    client={client}
                    onSend={onSend}
                    onFunded={refreshBalances}
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
