/**
 * Transaction history of one account on the selected network (list_eth/sol_transaction_history),
 * with statuses; accounts and counterparties that are the user's own go by their names.
 */
import { useCallback, useEffect, useState } from 'preact/hooks'
import type { PopupApi } from '../../protocol/popupApi'
import { formatUnits } from '../../amounts'
import type { PopupClient } from '../client'
import { FORMAT_OF_FAMILY, type Network } from '../network'
import { shortAddress } from '../AddressTools'
import { explorerTxUrl } from '../../../chains/networks'
import { Busy, ErrorLine, Field } from '../ui'
import { useAction } from '../useAction'
import { PendingSends } from './PendingSends'

type History = PopupApi['history']['result']

/** What a row's badge says. */
const STATUS_LABEL: Record<string, string> = { confirmed: 'Confirmed', finalized: 'Finalized', failed: 'Failed' }

/** Props of {@link HistoryScreen}. */
/** " · View on explorer" for a transaction's explorer page; nothing without one. */
function ExplorerLink({ url }: { url: string | undefined }) {
  if (url === undefined) return null
  return (
    <>
      {' · '}
      <a href={url} target="_blank" rel="noopener noreferrer" data-testid="tx-explorer">
        View on explorer
      </a>
    </>
  )
}

export type HistoryProps = { client: PopupClient; network: Network; address?: string | null; onSessionLost(): void }

/** The History screen. */
export function HistoryScreen({ client, network, address: initial = null, onSessionLost }: HistoryProps) {
  const [addresses, setAddresses] = useState<string[] | null>(null)
  const [names, setNames] = useState<Map<string, string>>(new Map())
  const [address, setAddress] = useState(initial ?? '')
  const [history, setHistory] = useState<History | null>(null)
  const accounts = useAction(onSessionLost)
  const load = useAction(onSessionLost)
  const runAccounts = accounts.run
  const { run } = load
  const caip2 = network.caip2
  const format = FORMAT_OF_FAMILY[network.family]
  const solana = network.family === 'solana'

  useEffect(() => {
    void runAccounts(
      () => client.call('accountBook'),
      (r) => {
        const named = new Map<string, string>()
        for (const g of r.groups) for (const a of g.addresses) named.set(a.address.toLowerCase(), g.name)
        setNames(named)
        // the service keeps history for wallet accounts only, not imported keys
        const list = r.groups
          .filter((g) => g.kind === 'derived')
          .flatMap((g) =>
            g.addresses.filter((a) => a.addressFormat === format && (!g.hidden || a.address === initial)).map((a) => a.address),
          )
        setAddresses(list)
        setAddress((a) => (list.includes(a) ? a : (list[0] ?? '')))
      },
    )
  }, [client, runAccounts, format, initial])
  const nameOf = (a: string) => names.get(a.toLowerCase())

  const refresh = useCallback(() => {
    if (!address) return
    void run(
      () => client.call('history', { caip2, address }),
      (r) => setHistory(r),
    )
  }, [client, run, caip2, address])
  useEffect(refresh, [refresh])

  const shown = history && history.caip2 === caip2 && history.address === address ? history : null
  return (
    <section aria-labelledby="history-heading">
      <div class="row spread">
        <h2 id="history-heading">History on {network.name}</h2>
        <button type="button" onClick={refresh} disabled={load.busy || !address}>
          Refresh
        </button>
      </div>
      <ErrorLine error={accounts.error} />
      {addresses && addresses.length === 0 && <p>No account on this network.</p>}
      {addresses && addresses.length > 1 && (
        <Field label="Account">
          <select value={address} onChange={(e) => setAddress(e.currentTarget.value)}>
            {addresses.map((a) => (
              <option key={a} value={a}>
                {nameOf(a) ?? 'Account'} · {shortAddress(a)}
              </option>
            ))}
          </select>
        </Field>
      )}
      {address && addresses?.length === 1 && (
        <p class="hint" id="history-account">
          {nameOf(address) ?? 'Account'} · <code title={address}>{shortAddress(address)}</code>
        </p>
      )}
      <Busy busy={load.busy || accounts.busy} label="Loading history…" />
      <ErrorLine error={load.error} />
      {address && <PendingSends caip2={caip2} address={address} client={client} onSessionLost={onSessionLost} />}
      {shown && shown.rows.length === 0 && <p class="hint">No transactions yet.</p>}
      <ul class="tx-history" aria-label="Transactions">
        {shown?.rows.map((r) => {
          const status = r.failed ? 'failed' : r.status.toLowerCase()
          return (
            <li key={r.id} data-tx={r.id} data-status={status}>
              <div class="row spread">
                <span>
                  {r.transfers.length === 0 && (r.failed ? 'Transaction failed' : solana ? 'App interaction' : 'Contract call')}
                  {r.transfers.map((t, i) => (
                    <span key={i} class="transfer" data-direction={t.direction}>
                      {t.direction === 'OUT' ? 'Sent' : 'Received'} {formatUnits(t.amount, t.decimals)} {t.symbol}
                      {/* a Solana balance change may have no other side the chain names (a closed account's rent) */}
                      {t.counterparty && (
                        <>
                          {' '}
                          {t.direction === 'OUT' ? 'to' : 'from'}{' '}
                          {nameOf(t.counterparty) ? (
                            <strong title={t.counterparty}>{nameOf(t.counterparty)}</strong>
                          ) : (
                            <code title={t.counterparty}>{shortAddress(t.counterparty)}</code>
                          )}
                        </>
                      )}
                    </span>
                  ))}
                </span>
                <span class={`badge tx-${status}`}>{STATUS_LABEL[status] ?? status}</span>
              </div>
              {r.failed && (
                <span class="hint tx-failed-reason">
                  {solana ? 'Failed on chain' : 'Reverted on chain'}: nothing was moved, the network fee was paid
                </span>
              )}
              <span class="hint">
                {r.timestamp ? new Date(r.timestamp).toLocaleString() : 'time unknown'}
                {r.fee && ` · fee ${formatUnits(r.fee, shown.native.decimals)} ${shown.native.symbol}`} ·{' '}
                <code title={r.id}>{shortAddress(r.id)}</code>
                <ExplorerLink url={explorerTxUrl(network.explorerUrl, r.id)} />
              </span>
            </li>
          )
        })}
      </ul>
    </section>
  )
}
