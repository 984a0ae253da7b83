/** Wallets and their accounts grouped by chain, with copy, QR code and "add account". */
import { useCallback, useEffect, useState } from 'preact/hooks'
import type { PopupApi } from '../../background/popupMethods'
import { ADDABLE_FORMATS, chainOf, formatLabel, variantOf } from '../chains'
import type { PopupClient } from '../client'
import { QrCode } from '../QrCode'
import { Busy, ErrorLine, Field } from '../ui'
import { useAction } from '../useAction'

type Wallets = PopupApi['listAccounts']['result']['wallets']
type Account = Wallets[number]['accounts'][number]

function AccountRow({ account }: { account: Account }) {
  const [showQr, setShowQr] = useState(false)
  const [copied, setCopied] = useState(false)
  const variant = variantOf(account.addressFormat)
  return (
    <li class="account" data-address={account.address} data-format={account.addressFormat}>
      <code class="address">{account.address}</code>
      <span class="hint">
        {variant ? `${variant} · ` : ''}
        {account.path}
      </span>
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
export type AccountsProps = { client: PopupClient; onSessionLost(): void }

/** The accounts screen. */
export function Accounts({ client, onSessionLost }: AccountsProps) {
  const [wallets, setWallets] = useState<Wallets | null>(null)
  const [format, setFormat] = useState<(typeof ADDABLE_FORMATS)[number]>('ADDRESS_FORMAT_ETHEREUM')
  const [added, setAdded] = useState<string | null>(null)
  const load = useAction(onSessionLost)
  const add = useAction(onSessionLost)
  const { run } = load
  const refresh = useCallback(
    () =>
      void run(
        () => client.call('listAccounts'),
        (r) => setWallets(r.wallets),
      ),
    [client, run],
  )
  useEffect(refresh, [refresh])

  return (
    <section aria-labelledby="accounts-heading">
      <div class="row spread">
        <h2 id="accounts-heading">Accounts</h2>
        <button type="button" onClick={refresh} disabled={load.busy}>
          Refresh
        </button>
      </div>
      <Busy busy={load.busy} label="Loading accounts…" />
      <ErrorLine error={load.error} />
      {wallets?.length === 0 && <p>No wallets yet.</p>}
      {wallets?.map((w) => (
        <section class="wallet" key={w.walletId} aria-label={`Wallet ${w.walletName}`}>
          <h3>{w.walletName}</h3>
          {groupByChain(w.accounts).map(([chain, accounts]) => (
            <section key={chain} class="chain" aria-label={chain}>
              <h4>{chain}</h4>
              <ul class="accounts">
                {accounts.map((a) => (
                  <AccountRow key={a.walletAccountId} account={a} />
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
