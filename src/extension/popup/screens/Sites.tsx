/**
 * Connected sites: each origin the organization granted, with its Ethereum accounts (and chain)
 * and its Solana accounts by name. Per family the user switches the site's active account, gives
 * it another of their accounts or takes one away (nothing is asked of the site: the user is in our
 * popup), and disconnects it; the site hears `accountsChanged` / the Wallet Standard `change`.
 */
import { useCallback, useEffect, useState } from 'preact/hooks'
import type { PopupApi } from '../../protocol/popupApi'
import { shortAddress } from '../AddressTools'
import type { PopupClient } from '../client'
import { Busy, ErrorLine } from '../ui'
import { useAction, type Action } from '../useAction'

type Listing = PopupApi['connectedSites']['result']
type Site = Listing['sites'][number]
type Option = Listing['choices']['evm'][number]
type Family = 'evm' | 'solana'

const FAMILY_NAME: Record<Family, string> = { evm: 'Ethereum', solana: 'Solana' }

/** Props of {@link ConnectedSites}. */
export type ConnectedSitesProps = { client: PopupClient; onSessionLost(): void }

/** The connected-sites screen. */
export function ConnectedSites({ client, onSessionLost }: ConnectedSitesProps) {
  const [listing, setListing] = useState<Listing | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const load = useAction(onSessionLost)
  const change = useAction(onSessionLost)
  const { run } = load
  const refresh = useCallback(
    () =>
      void run(
        () => client.call('connectedSites'),
        (r) => setListing(r),
      ),
    [client, run],
  )
  useEffect(refresh, [refresh])

  const setAccounts = (origin: string, family: Family, accounts: string[], message: string) =>
    void change.run(
      () => client.call('setSiteAccounts', { origin, family, accounts }),
      () => {
        setDone(message)
        refresh()
      },
    )
  const disconnect = (origin: string, family: Family | undefined, message: string) =>
    void change.run(
      () => client.call('disconnectSite', family === undefined ? { origin } : { origin, family }),
      () => {
        setDone(message)
        refresh()
      },
    )

  const sites = listing?.sites
  return (
    <section aria-labelledby="sites-heading">
      <h2 id="sites-heading">Connected sites</h2>
      <p class="hint">Sites you connected can see these accounts and ask you to sign. Choose the account a site uses, or disconnect it.</p>
      <Busy busy={load.busy} label="Loading sites…" />
      <ErrorLine error={load.error} />
      <ErrorLine error={change.error} />
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
            {s.evm && (
              <Grant
                site={s}
                family="evm"
                accounts={s.evm.accounts}
                detail={s.evm.chain.name}
                grantedAt={s.evm.grantedAt}
                choices={listing?.choices.evm ?? []}
                both={s.solana !== null}
                action={change}
                setAccounts={setAccounts}
                disconnect={disconnect}
              />
            )}
            {s.solana && (
              <Grant
                site={s}
                family="solana"
                accounts={s.solana.accounts}
                detail={null}
                grantedAt={s.solana.grantedAt}
                choices={listing?.choices.solana ?? []}
                both={s.evm !== null}
                action={change}
                setAccounts={setAccounts}
                disconnect={disconnect}
              />
            )}
            <button
              type="button"
              class="danger"
              disabled={change.busy}
              aria-label={s.evm && s.solana ? `Disconnect all from ${s.origin}` : `Disconnect ${s.origin}`}
              onClick={() => disconnect(s.origin, undefined, `Disconnected ${s.origin}.`)}
            >
              {s.evm && s.solana ? 'Disconnect all' : 'Disconnect'}
            </button>
          </li>
        ))}
      </ul>
    </section>
  )
}

type GrantProps = {
  site: Site
  family: Family
  accounts: Option[]
  /** The site's network (Ethereum), or null. */
  detail: string | null
  grantedAt: number
  /** The user's accounts of the family that may be given. */
  choices: Option[]
  /** True when the site also has the other family's grant (then each family disconnects on its own too). */
  both: boolean
  action: Action
  setAccounts(origin: string, family: Family, accounts: string[], message: string): void
  disconnect(origin: string, family: Family | undefined, message: string): void
}

/** One family's grant of a site: the active account, the others, add one, disconnect. */
function Grant({ site, family, accounts, detail, grantedAt, choices, both, action, setAccounts, disconnect }: GrantProps) {
  const name = FAMILY_NAME[family]
  const addresses = accounts.map((a) => a.address)
  const same = (a: string, b: string) => (family === 'evm' ? a.toLowerCase() === b.toLowerCase() : a === b)
  const addable = choices.filter((c) => !addresses.some((a) => same(a, c.address)))
  const [toAdd, setToAdd] = useState('')
  const adding = addable.find((c) => c.address === toAdd) ?? addable[0]
  const id = `site-${family}-${site.origin.replace(/[^A-Za-z0-9]/g, '-')}`
  return (
    <section class="site-grant" data-family={family} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{name} accounts</h3>
      <label class="field">
        <span class="label">Active account</span>
        <select
          data-testid={`site-active-${family}`}
          value={addresses[0]}
          disabled={action.busy || accounts.length < 2}
          onChange={(e) => {
            const active = (e.currentTarget as HTMLSelectElement).value
            const picked = accounts.find((a) => a.address === active)
            setAccounts(
              site.origin,
              family,
              [active, ...addresses.filter((a) => a !== active)],
              `${site.origin} now uses ${picked?.name ?? shortAddress(active)}.`,
            )
          }}
        >
          {accounts.map((a) => (
            <option key={a.address} value={a.address}>
              {a.name} ({shortAddress(a.address)})
            </option>
          ))}
        </select>
      </label>
      <ul class="site-accounts" aria-label={`${name} accounts of ${site.origin}`}>
        {accounts.map((a) => (
          <li key={a.address} class="site-account" data-address={a.address}>
            <span>
              {a.name}{' '}
              <code class="address" title={a.address}>
                {shortAddress(a.address)}
              </code>
            </span>
            {accounts.length > 1 && (
              <button
                type="button"
                class="small"
                disabled={action.busy}
                aria-label={`Remove ${a.name} from ${site.origin}`}
                onClick={() =>
                  setAccounts(
                    site.origin,
                    family,
                    addresses.filter((x) => x !== a.address),
                    `${site.origin} no longer sees ${a.name}.`,
                  )
                }
              >
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
      {adding && (
        <div class="row">
          <label class="field">
            <span class="label">Give another account</span>
            <select
              data-testid={`site-add-${family}`}
              value={adding.address}
              disabled={action.busy}
              onChange={(e) => setToAdd((e.currentTarget as HTMLSelectElement).value)}
            >
              {addable.map((c) => (
                <option key={c.address} value={c.address}>
                  {c.name} ({shortAddress(c.address)})
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            disabled={action.busy}
            aria-label={`Add ${adding.name} to ${site.origin}`}
            onClick={() => setAccounts(site.origin, family, [...addresses, adding.address], `${site.origin} can now see ${adding.name}.`)}
          >
            Add
          </button>
        </div>
      )}
      <div class="row spread">
        <span class="hint">
          {detail ? `Network: ${detail} · ` : ''}since {new Date(grantedAt).toLocaleString()}
        </span>
        {both && (
          <button
            type="button"
            class="danger small"
            disabled={action.busy}
            aria-label={`Disconnect ${name} from ${site.origin}`}
            onClick={() => disconnect(site.origin, family, `Disconnected ${name} from ${site.origin}.`)}
          >
            Disconnect {name}
          </button>
        )}
      </div>
    </section>
  )
}
