/** Buy crypto through the on-ramp: form → init_fiat_on_ramp → provider page in a new tab → status. */
import { useEffect, useState } from 'preact/hooks'
import type { PopupApi } from '../../protocol/popupApi'
import type { PopupClient } from '../client'
import { FIATS, NETWORKS, PAYMENT_METHODS, PROVIDERS, short } from '../onRampOptions'
import { Busy, ErrorLine, Field } from '../ui'
import { useAction } from '../useAction'

type Wallets = PopupApi['listAccounts']['result']['wallets']

/** Props of {@link Buy}. */
export type BuyProps = { client: PopupClient; lastTransactionId: string | null; onSessionLost(): void }

/** The buy screen. */
export function Buy({ client, lastTransactionId, onSessionLost }: BuyProps) {
  const [wallets, setWallets] = useState<Wallets>([])
  const [provider, setProvider] = useState(PROVIDERS[0]![0])
  const [networkIndex, setNetworkIndex] = useState(0)
  const [crypto, setCrypto] = useState<string>(NETWORKS[0]!.cryptos[0]!)
  const [address, setAddress] = useState('')
  const [fiat, setFiat] = useState<string>(FIATS[0]!)
  const [amount, setAmount] = useState('50')
  const [payment, setPayment] = useState<string>(PAYMENT_METHODS[0]![0])
  const [sandbox, setSandbox] = useState(true)
  const [txId, setTxId] = useState<string | null>(lastTransactionId)
  const [txStatus, setTxStatus] = useState<string | null>(null)
  const load = useAction(onSessionLost)
  const buy = useAction(onSessionLost)
  const status = useAction(onSessionLost)
  const net = NETWORKS[networkIndex] ?? NETWORKS[0]!
  const addresses = wallets.flatMap((w) => w.accounts).filter((a) => net.formats.test(a.addressFormat))

  useEffect(
    () =>
      void load.run(
        () => client.call('listAccounts'),
        (r) => setWallets(r.wallets),
      ),
    [client],
  )
  useEffect(() => {
    if (!net.cryptos.includes(crypto as never)) setCrypto(net.cryptos[0]!)
    if (!addresses.some((a) => a.address === address)) setAddress(addresses[0]?.address ?? '')
  }, [networkIndex, wallets])

  return (
    <section aria-labelledby="buy-heading">
      <h2 id="buy-heading">Buy crypto</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          setTxStatus(null)
          void buy.run(
            () =>
              client.call('onRampStart', {
                onrampProvider: provider,
                walletAddress: address,
                network: net.network,
                cryptoCurrencyCode: crypto,
                fiatCurrencyCode: fiat,
                fiatCurrencyAmount: amount.trim(),
                paymentMethod: payment,
                sandboxMode: sandbox,
              }),
            (r) => setTxId(r.onRampTransactionId || null),
          )
        }}
      >
        <Field label="Provider">
          <select value={provider} onChange={(e) => setProvider(e.currentTarget.value as typeof provider)}>
            {PROVIDERS.map(([v, l]) => (
              <option key={v} value={v}>
                {l}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Network">
          <select value={String(networkIndex)} onChange={(e) => setNetworkIndex(Number(e.currentTarget.value))}>
            {NETWORKS.map((n, i) => (
              <option key={n.network} value={String(i)}>
                {n.label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Crypto">
          <select value={crypto} onChange={(e) => setCrypto(e.currentTarget.value)}>
            {net.cryptos.map((c) => (
              <option key={c} value={c}>
                {short(c)}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Receiving address" error={buy.field === 'walletAddress' ? buy.error : null}>
          <select value={address} onChange={(e) => setAddress(e.currentTarget.value)} required>
            {addresses.length === 0 && <option value="">No {net.label} account</option>}
            {addresses.map((a) => (
              <option key={a.walletAccountId} value={a.address}>
                {a.address}
              </option>
            ))}
          </select>
        </Field>
        <div class="row">
          <Field label="Amount" error={buy.field === 'fiatCurrencyAmount' ? buy.error : null}>
            <input name="amount" inputMode="decimal" value={amount} onInput={(e) => setAmount(e.currentTarget.value)} required />
          </Field>
          <Field label="Currency">
            <select value={fiat} onChange={(e) => setFiat(e.currentTarget.value)}>
              {FIATS.map((f) => (
                <option key={f} value={f}>
                  {short(f)}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <Field label="Payment method">
          <select value={payment} onChange={(e) => setPayment(e.currentTarget.value)}>
            {PAYMENT_METHODS.map(([v, l]) => (
              <option key={v} value={v}>
                {l}
              </option>
            ))}
          </select>
        </Field>
        <label class="check">
          <input type="checkbox" checked={sandbox} onChange={(e) => setSandbox(e.currentTarget.checked)} /> Sandbox (test purchase)
        </label>
        <button type="submit" class="primary" disabled={buy.busy || load.busy}>
          Continue to provider
        </button>
        <Busy busy={buy.busy || load.busy} label={buy.busy ? 'Starting the purchase…' : 'Loading accounts…'} />
        <ErrorLine error={(buy.field === 'fiatCurrencyAmount' || buy.field === 'walletAddress' ? null : buy.error) ?? load.error} />
      </form>
      {txId && (
        <div class="purchase" aria-live="polite">
          <p>
            Purchase <code>{txId}</code> opened in a new tab.
          </p>
          <button
            type="button"
            disabled={status.busy}
            onClick={() =>
              void status.run(
                () => client.call('onRampStatus', { transactionId: txId }),
                (r) => setTxStatus(r.transactionStatus),
              )
            }
          >
            Check purchase status
          </button>
          <Busy busy={status.busy} label="Checking…" />
          <ErrorLine error={status.error} />
          {txStatus && (
            <p id="onramp-status" data-status={txStatus}>
              Status: {txStatus.replace(/^.*_STATUS_/, '').toLowerCase()}
            </p>
          )}
        </div>
      )}
    </section>
  )
}
