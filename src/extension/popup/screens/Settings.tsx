/** Settings: service and relay URLs, auto-lock minutes; lock and log out when signed in. */
import { useState } from 'preact/hooks'
import type { PopupApi } from '../../background/popupMethods'
import type { PopupClient } from '../client'
import { Busy, ErrorLine, Field } from '../ui'
import { useAction } from '../useAction'

type Settings = PopupApi['getStatus']['result']['settings']

/** Props of {@link SettingsScreen}. */
export type SettingsProps = {
  client: PopupClient
  settings: Settings
  extensionId: string
  loggedIn: boolean
  onSaved(): void
  onEnded(): void
}

/** The settings screen. */
export function SettingsScreen({ client, settings, extensionId, loggedIn, onSaved, onEnded }: SettingsProps) {
  const [apiBaseUrl, setApi] = useState(settings.apiBaseUrl)
  const [relayUrl, setRelay] = useState(settings.relayUrl)
  const [minutes, setMinutes] = useState(String(settings.autoLockMinutes))
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
            () =>
              client.call('saveSettings', { apiBaseUrl: apiBaseUrl.trim(), relayUrl: relayUrl.trim(), autoLockMinutes: Number(minutes) }),
            () => {
              setSaved(true)
              onSaved()
            },
          )
        }}
      >
        <Field label="Service URL">
          <input name="apiBaseUrl" type="url" value={apiBaseUrl} onInput={(e) => setApi(e.currentTarget.value)} required />
        </Field>
        <Field label="Relay URL">
          <input name="relayUrl" type="url" value={relayUrl} onInput={(e) => setRelay(e.currentTarget.value)} required />
        </Field>
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
      <dl class="facts">
        <dt>Extension id</dt>
        <dd>
          <code id="extension-id">{extensionId}</code>
        </dd>
      </dl>
    </section>
  )
}
