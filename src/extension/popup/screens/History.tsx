/** Transaction history of one account on the selected network (list_eth/sol_transaction_history), with statuses. */
import { useCallback, useEffect, useState } from 'preact/hooks'
import type { PopupApi } from '../../protocol/popupApi'
import { formatUnits } from '../../amounts'
import type { PopupClient } from '../client'
import { FORMAT_OF_FAMILY, type Network } from '../network'
import { Busy, ErrorLine, Field } from '../ui'
import { useAction } from '../useAction'

type History = PopupApi['history']['result']

const short = (a: string) => (a.length > 14 ? `${a.slice(0, 8)}…${a.slice(-6)}` : a)

/** Props of {@link HistoryScreen}. */
export type HistoryProps = { client: PopupClient; network: Network; address?: string | null; onSessionLost(): void }

/** The History screen. */
export function HistoryScreen({ client, network, address: initial = null, onSessionLost }: HistoryProps) {
  const [addresses, setAddresses] = useState<string[] | null>(null)
  const [address, setAddress] = useState(initial ?? '')
  const [history, setHistory] = useState<History | null>(null)
  const accounts = useAction(onSessionLost)
  const load = useAction(onSessionLost)
  const runAccounts = accounts.run
  const { run } = load
  const caip2 = network.caip2
  const format = FORMAT_OF_FAMILY[network.family]

  useEffect(() => {
    void runAccounts(
      () => client.call('listAccounts'),
      (r) => {
        const list = r.wallets.flatMap((w) => w.accounts.filter((a) => a.addressFormat === format).map((a) => a.address))
        setAddresses(list)
        setAddress((a) => (list.includes(a) ? a : (list[0] ?? '')))
      },
    )
  }, [client, runAccounts, format])

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
                {a}
              </option>
            ))}
          </select>
        </Field>
      )}
      <Busy busy={load.busy || accounts.busy} label="Loading history…" />
      <ErrorLine error={load.error} />
      {shown && shown.rows.length === 0 && <p class="hint">No transactions yet.</p>}
      <ul class="tx-history" aria-label="Transactions">
        {shown?.rows.map((r) => {
          const status = r.failed ? 'failed' : r.status.toLowerCase()
          return (
            <li key={r.id} data-tx={r.id} data-status={status}>
              <div class="row spread">
                <span>
                  {r.transfers.length === 0 && 'Contract call'}
                  {r.transfers.map((t, i) => (
                    <span key={i} class="transfer" data-direction={t.direction}>
                      {t.direction === 'OUT' ? 'Sent' : 'Received'} {formatUnits(t.amount, t.decimals)} {t.symbol}{' '}
                      {t.direction === 'OUT' ? 'to' : 'from'} <code title={t.counterparty}>{short(t.counterparty)}</code>
                    </span>
                  ))}
                </span>
                <span class={`badge tx-${status}`}>{status}</span>
              </div>
              <span class="hint">
                {r.timestamp ? new Date(r.timestamp).toLocaleString() : 'time unknown'}
                {r.fee && ` · fee ${formatUnits(r.fee, shown.native.decimals)} ${shown.native.symbol}`} ·{' '}
                <code title={r.id}>{short(r.id)}</code>
              </span>
            </li>
          )
        })}
      </ul>
    </section>
  )
}
