/** Connected sites: each origin the account granted, its account and chain, with Disconnect. */
import { useCallback, useEffect, useState } from 'preact/hooks'
import type { PopupApi } from '../../protocol/popupApi'
import { shortAddress } from '../AddressTools'
import type { PopupClient } from '../client'
import { Busy, ErrorLine } from '../ui'
import { useAction } from '../useAction'

type Site = PopupApi['connectedSites']['result']['sites'][number]

/** Props of {@link ConnectedSites}. */
export type ConnectedSitesProps = { client: PopupClient; onSessionLost(): void }

/** The connected-sites screen. */
export function ConnectedSites({ client, onSessionLost }: ConnectedSitesProps) {
  const [sites, setSites] = useState<Site[] | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const load = useAction(onSessionLost)
  const disconnect = useAction(onSessionLost)
  const { run } = load
  const refresh = useCallback(
    () =>
      void run(
        () => client.call('connectedSites'),
        (r) => setSites(r.sites),
      ),
    [client, run],
  )
  useEffect(refresh, [refresh])
  return (
    <section aria-labelledby="sites-heading">
      <h2 id="sites-heading">Connected sites</h2>
      <p class="hint">Sites you connected can see these accounts and ask you to sign. Disconnect a site to stop that.</p>
      <Busy busy={load.busy} label="Loading sites…" />
      <ErrorLine error={load.error} />
      <ErrorLine error={disconnect.error} />
      {done && (
        <p class="ok" role="status">
          {done}
        </p>
      )}
      {sites && sites.length === 0 && <p>No site is connected.</p>}
      <ul class="sites" aria-labelledby="sites-heading">
        {sites?.map((s) => (
          <li key={s.origin} class="site" data-origin={s.origin}>
            <strong class="origin">{s.origin}</strong>
            <span class="hint">
              {s.accounts.map((a) => (
                <code key={a} title={a}>
                  {shortAddress(a)}
                </code>
              ))}{' '}
              · {s.chain.name} · since {new Date(s.grantedAt).toLocaleString()}
            </span>
            <button
              type="button"
              class="danger"
              disabled={disconnect.busy}
              aria-label={`Disconnect ${s.origin}`}
              onClick={() =>
                void disconnect.run(
                  () => client.call('disconnectSite', { origin: s.origin }),
                  () => {
                    setDone(`Disconnected ${s.origin}.`)
                    refresh()
                  },
                )
              }
            >
              Disconnect
            </button>
          </li>
        ))}
      </ul>
    </section>
  )
}
