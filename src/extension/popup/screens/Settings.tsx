/**
 * Settings: the auto-lock time; the service the wallet is connected to, with the fingerprint
 * of its pinned identity key, and the "connect to a service" step (check, compare the
 * fingerprint, confirm); lock and log out, and the wallet password, when signed in.
 */
import { useState } from 'preact/hooks'
import type { PopupApi } from '../../protocol/popupApi'
import type { PopupClient } from '../client'
import { ensureHostAccess, noHostAccess, type RequestHostAccess } from '../hostAccess'
import { Busy, ErrorLine, Field } from '../ui'
import { useAction } from '../useAction'
import { PasswordSettings } from './Password'

type Status = PopupApi['getStatus']['result']
type Candidate = PopupApi['serviceProbe']['result']

/** Props of {@link SettingsScreen}. */
export type SettingsProps = {
  client: PopupClient
  settings: Status['settings']
  service: Status['service']
  extensionId: string
  loggedIn: boolean
  onSaved(): void
  onEnded(): void
  /** The browser's host-permission prompt. */
  requestHostAccess?: RequestHostAccess
}

/** The settings screen. */
export function SettingsScreen({
  client,
  settings,
  service,
  extensionId,
  loggedIn,
  onSaved,
  onEnded,
  requestHostAccess = noHostAccess,
}: SettingsProps) {
  const [minutes, setMinutes] = useState(String(settings.autoLockMinutes))
  const [phishingUrl, setPhishingUrl] = useState(settings.phishingListUrl ?? '')
  const [saved, setSaved] = useState(false)
  const save = useAction()
  const end = useAction()
  return (
    <section aria-labelledby="settings-heading">
      <h2 id="settings-heading">Settings</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          setSaved(false)
          void save.run(
            () => client.call('savePreferences', { autoLockMinutes: Number(minutes), phishingListUrl: phishingUrl.trim() }),
            () => {
              setSaved(true)
              onSaved()
            },
          )
        }}
      >
        <Field label="Lock after (minutes without use)">
          <input
            name="autoLockMinutes"
            type="number"
            min={1}
            max={1440}
            value={minutes}
            onInput={(e) => setMinutes(e.currentTarget.value)}
            required
          />
        </Field>
        <Field label="Phishing list URL (empty: the list built into Sigil)">
          <input
            name="phishingListUrl"
            type="url"
            placeholder="https://…"
            value={phishingUrl}
            onInput={(e) => setPhishingUrl(e.currentTarget.value)}
          />
        </Field>
        <button type="submit" class="primary" disabled={save.busy}>
          Save settings
        </button>
        <Busy busy={save.busy} label="Saving…" />
        <ErrorLine error={save.error} />
        {saved && <p class="ok">Saved.</p>}
      </form>
      {loggedIn && (
        <div class="row">
          <button type="button" disabled={end.busy} onClick={() => void end.run(() => client.call('lock'), onEnded)}>
            Lock now
          </button>
          <button type="button" class="danger" disabled={end.busy} onClick={() => void end.run(() => client.call('logout'), onEnded)}>
            Log out
          </button>
        </div>
      )}
      {loggedIn && <PasswordSettings client={client} />}
      <ServiceSection client={client} settings={settings} service={service} onConnected={onSaved} requestHostAccess={requestHostAccess} />
      <dl class="facts">
        <dt>Extension id</dt>
        <dd>
          <code id="extension-id">{extensionId}</code>
        </dd>
      </dl>
    </section>
  )
}

function ServiceSection(props: {
  client: PopupClient
  settings: Status['settings']
  service: Status['service']
  onConnected(): void
  requestHostAccess: RequestHostAccess
}) {
  const { client, settings, service } = props
  const [apiBaseUrl, setApi] = useState(settings.apiBaseUrl)
  const [relayUrl, setRelay] = useState(settings.relayUrl)
  const [candidate, setCandidate] = useState<Candidate | null>(null)
  const [connected, setConnected] = useState(false)
  const [refused, setRefused] = useState<string | null>(null)
  const probe = useAction()
  const connect = useAction()
  return (
    <section aria-labelledby="service-heading">
      <h3 id="service-heading">Service</h3>
      <dl class="facts">
        <dt>Service</dt>
        <dd>
          <code id="service-url">{settings.apiBaseUrl}</code>
        </dd>
        <dt>Relay</dt>
        <dd>
          <code id="relay-url">{settings.relayUrl}</code>
        </dd>
        <dt>Pinned key fingerprint</dt>
        <dd>
          <code id="service-fingerprint">{service.fingerprint}</code>
        </dd>
      </dl>
      {connected && <p class="ok">Connected.</p>}
      {service.locked ? (
        <p class="hint">This build of the wallet is tied to its service.</p>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault()
            setCandidate(null)
            setConnected(false)
            setRefused(null)
            const urls = { apiBaseUrl: apiBaseUrl.trim(), relayUrl: relayUrl.trim() }
            // The prompt first, inside the click (a user gesture); no service request before it.
            void ensureHostAccess(props.requestHostAccess, [urls.apiBaseUrl, urls.relayUrl]).then((why) => {
              if (why) setRefused(why)
              else void probe.run(() => client.call('serviceProbe', urls), setCandidate)
            })
          }}
        >
          <Field label="Service URL">
            <input name="apiBaseUrl" type="url" value={apiBaseUrl} onInput={(e) => setApi(e.currentTarget.value)} required />
          </Field>
          <Field label="Relay URL">
            <input name="relayUrl" type="url" value={relayUrl} onInput={(e) => setRelay(e.currentTarget.value)} required />
          </Field>
          <button type="submit" disabled={probe.busy || connect.busy}>
            Check service
          </button>
          <Busy busy={probe.busy} label="Checking the service…" />
          <ErrorLine error={refused ?? probe.error} />
        </form>
      )}
      {candidate && !service.locked && (
        <div class="confirm" role="group" aria-labelledby="candidate-heading">
          <h4 id="candidate-heading">Connect to this service?</h4>
          <dl class="facts">
            <dt>Fingerprint</dt>
            <dd>
              <code id="candidate-fingerprint">{candidate.fingerprint}</code>
            </dd>
          </dl>
          <p class={candidate.samePinnedKey ? 'hint' : 'warning'}>
            {candidate.samePinnedKey
              ? 'Same service key as now.'
              : 'This is a different service than the one you use now. Compare the fingerprint with the one its operator publishes.'}
          </p>
          <p class="hint">Connecting ends your session and disconnects every site.</p>
          <button
            type="button"
            class="primary"
            disabled={connect.busy}
            onClick={() =>
              void connect.run(
                () => client.call('serviceConnect', { fingerprint: candidate.fingerprint }),
                () => {
                  setCandidate(null)
                  setConnected(true)
                  props.onConnected()
                },
              )
            }
          >
            Trust and connect
          </button>
          <Busy busy={connect.busy} label="Connecting…" />
          <ErrorLine error={connect.error} />
        </div>
      )}
    </section>
  )
}
