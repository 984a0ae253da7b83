/** Popup shell: header, status from the background, extension id. */
import { useCallback, useEffect, useState } from 'preact/hooks'
import type { PopupClient } from './client'

type Status =
  | { state: 'loading' }
  | { state: 'ready'; loggedIn: boolean; extensionId: string }
  | { state: 'failed'; code: string }

/** Props: the background client (injected so tests can fake it). */
export type AppProps = { client: PopupClient }

function statusText(status: Status): string {
  if (status.state === 'loading') return 'Contacting the background…'
  if (status.state === 'failed') return `Background unavailable (${status.code})`
  return status.loggedIn ? 'Signed in' : 'Not signed in'
}

/** The popup's root component. */
export function App({ client }: AppProps) {
  const [status, setStatus] = useState<Status>({ state: 'loading' })

  const load = useCallback(() => {
    setStatus({ state: 'loading' })
    void client.call('getStatus').then((reply) => {
      setStatus(reply.ok ? { state: 'ready', ...reply.result } : { state: 'failed', code: reply.error.code })
    })
  }, [client])

  useEffect(load, [load])

  return (
    <div class="shell">
      <header class="app-header">
        <img src="/icon-48.png" alt="" width={24} height={24} />
        <h1>Sigil</h1>
      </header>
      <main class="app-main" aria-labelledby="status-heading">
        <h2 id="status-heading">Account</h2>
        <p id="status" role="status" aria-live="polite" data-state={status.state}>
          {statusText(status)}
        </p>
        {status.state === 'ready' && (
          <dl class="facts">
            <dt>Extension id</dt>
            <dd>
              <code id="extension-id">{status.extensionId}</code>
            </dd>
          </dl>
        )}
        {status.state === 'failed' && (
          <button type="button" onClick={load}>
            Retry
          </button>
        )}
      </main>
    </div>
  )
}
