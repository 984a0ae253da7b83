/**
 * Buy crypto through the on-ramp: form → init_fiat_on_ramp → provider page in a new tab → status,
 * followed while the popup is open (the order, then the receiving account's balance).
 */
import { useEffect, useRef, useState } from 'preact/hooks'
import { formatUnits } from '../../amounts'
import type { PopupApi } from '../../protocol/popupApi'
import { shortAddress } from '../AddressTools'
import type { PopupClient } from '../client'
import { FIATS, NETWORKS, PAYMENT_METHODS, PROVIDERS, short } from '../onRampOptions'
import { Busy, ErrorLine, Field } from '../ui'
import { useAction } from '../useAction'

type Wallets = PopupApi['listAccounts']['result']['wallets']
type Served = PopupApi['onRampNetworks']['result']['networks']

/** How often an open purchase's status (then the balance) is read while the popup shows it. */
export const BUY_POLL_MS = 2000

/** An order's status in words: never the wire's enum names. */
export function purchaseStatusText(status: string): string {
  switch (status) {
    case 'PENDING':
      return 'Waiting for the purchase on the provider page.'
    case 'COMPLETED':
      return 'Delivered to your account.'
    case 'FAILED':
      return 'The purchase did not go through; nothing was sent.'
    case 'NOT_DELIVERED':
      return 'Sandbox: nothing is delivered on this network.'
    default:
      return `The provider reports: ${status
        .replace(/^.*_STATUS_/, '')
        .replace(/_/g, ' ')
        .toLowerCase()}.`
  }
}

/** Where a purchase started in this popup lands: the service network and the receiving address. */
type Landing = { caip2: string; address: string; symbol: string; decimals: number }

/** Props of {@link Buy}. */
export type BuyProps = { client: PopupClient; lastTransactionId: string | null; onSessionLost(): void }

/** The buy screen. */
export function Buy({ client, lastTransactionId, onSessionLost }: BuyProps) {
  const [wallets, setWallets] = useState<Wallets>([])
  const [served, setServed] = useState<Served | null>(null)
  const [provider, setProvider] = useState(PROVIDERS[0]![0])
  const [networkIndex, setNetworkIndex] = useState(0)
  const [crypto, setCrypto] = useState<string>(NETWORKS[0]!.cryptos[0]!)
  const [landing, setLanding] = useState<Landing | null>(null)
  const [txHash, setTxHash] = useState<string | null>(null)
  const [balance, setBalance] = useState<{ before: string | null; now: string | null }>({ before: null, now: null })
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
  // Only networks the pinned service serves; the label names the service's network when it is a dev one.
  const offered = NETWORKS.flatMap((n) => {
    const on = served?.find((s) => s.network === n.network)
    return on ? [{ ...n, on, label: on.dev ? `${n.label} (${on.name})` : n.label }] : []
  })
  const net = offered[networkIndex] ?? offered[0]
  const addresses = net ? wallets.flatMap((w) => w.accounts).filter((a) => net.formats.test(a.addressFormat)) : []

  useEffect(() => {
    void load.run(
      () => client.call('onRampNetworks'),
      (r) => setServed(r.networks),
    )
    void load.run(
      () => client.call('listAccounts'),
      (r) => setWallets(r.wallets),
    )
  }, [client])

  /** The receiving account's native balance on the landing network, or null when it cannot be read. */
  const readBalance = async (l: Landing): Promise<string | null> => {
    const reply = await client.call('balances', { caip2: l.caip2 })
    if (!reply.ok) return null
    const native = reply.result.accounts.find((a) => a.address === l.address)?.balances.find((b) => b.token === undefined)
    return native?.balance ?? null
  }

  // Follow an open purchase: its status until it is final, then the balance until it rises.
  const polling = useRef<ReturnType<typeof setTimeout> | null>(null)
  useEffect(() => {
    if (!txId) return
    let stopped = false
    const tick = async () => {
      if (stopped) return
      const reply = await client.call('onRampStatus', { transactionId: txId })
      if (stopped) return
      if (reply.ok) {
        setTxStatus(reply.result.transactionStatus)
        if (reply.result.txHash) setTxHash(reply.result.txHash)
      }
      const final = reply.ok && reply.result.transactionStatus !== 'PENDING'
      if (final && reply.result.transactionStatus === 'COMPLETED' && landing) {
        const now = await readBalance(landing)
        if (stopped) return
        setBalance((b) => ({ ...b, now }))
        if (now !== null && (balance.before === null || BigInt(now) > BigInt(balance.before))) return
      } else if (final) return
      polling.current = setTimeout(() => void tick(), BUY_POLL_MS)
    }
    void tick()
    return () => {
      stopped = true
      if (polling.current) clearTimeout(polling.current)
    }
  }, [txId, landing])
  useEffect(() => {
    if (!net) return
    if (!net.cryptos.includes(crypto as never)) setCrypto(net.cryptos[0]!)
    if (!addresses.some((a) => a.address === address)) setAddress(addresses[0]?.address ?? '')
  }, [networkIndex, wallets, served])

  if (served !== null && offered.length === 0) {
    return (
      <section aria-labelledby="buy-heading">
        <h2 id="buy-heading">Buy crypto</h2>
        <p>This service serves no network the on-ramp can buy on (Ethereum, Base or Solana).</p>
      </section>
    )
  }

  return (
    <section aria-labelledby="buy-heading">
      <h2 id="buy-heading">Buy crypto</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          if (!net) return
          setTxStatus(null)
          setTxHash(null)
          const target: Landing = {
            caip2: net.on.caip2,
            address,
            symbol: net.network === 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_SOLANA' ? 'SOL' : 'ETH',
            decimals: net.network === 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_SOLANA' ? 9 : 18,
          }
          void buy.run(
            async () => {
              const before = await readBalance(target)
              setBalance({ before, now: before })
              return client.call('onRampStart', {
                onrampProvider: provider,
                walletAddress: address,
                network: net.network,
                cryptoCurrencyCode: crypto,
                fiatCurrencyCode: fiat,
                fiatCurrencyAmount: amount.trim(),
                paymentMethod: payment,
                sandboxMode: sandbox,
              })
            },
            (r) => {
              setLanding(target)
              setTxId(r.onRampTransactionId || null)
            },
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
            {offered.map((n, i) => (
              <option key={n.network} value={String(i)}>
                {n.label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Crypto">
          <select value={crypto} onChange={(e) => setCrypto(e.currentTarget.value)}>
            {(net?.cryptos ?? []).map((c) => (
              <option key={c} value={c}>
                {short(c)}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Receiving address" error={buy.field === 'walletAddress' ? buy.error : null}>
          <select value={address} onChange={(e) => setAddress(e.currentTarget.value)} required>
            {addresses.length === 0 && <option value="">No {net?.label ?? ''} account</option>}
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
          {txStatus && (
            <p id="onramp-status" data-status={txStatus}>
              {purchaseStatusText(txStatus)}
            </p>
          )}
          {txHash && (
            <details class="tx-hash">
              <summary>
                Transaction <code>{shortAddress(txHash)}</code>
              </summary>
              <code data-hash>{txHash}</code>
            </details>
          )}
          {landing && balance.now !== null && (
            <p id="onramp-balance" data-balance={balance.now}>
              Balance {formatUnits(balance.now, landing.decimals)} {landing.symbol}
              {balance.before !== null && BigInt(balance.now) > BigInt(balance.before)
                ? ` (+${formatUnits(BigInt(balance.now) - BigInt(balance.before), landing.decimals)})`
                : ''}
            </p>
          )}
          <button
            type="button"
            disabled={status.busy}
            onClick={() =>
              void status.run(
                () => client.call('onRampStatus', { transactionId: txId }),
                (r) => {
                  setTxStatus(r.transactionStatus)
                  if (r.txHash) setTxHash(r.txHash)
                },
              )
            }
          >
            Check purchase status
          </button>
          <Busy busy={status.busy} label="Checking…" />
          <ErrorLine error={status.error} />
        </div>
      )}
    </section>
  )
}
