/**
 * Popup root: asks the background for its status, then shows the logged-out screens (login,
 * recovery, settings) or the wallet (accounts, buy, activity, settings). Every call goes
 * through the typed client; WebAuthn is injected (tests fake it).
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'
import type { PopupApi } from '../protocol/popupApi'
import type { PopupClient } from './client'
import { Accounts } from './screens/Accounts'
import { Activity } from './screens/Activity'
import { Buy } from './screens/Buy'
import { HistoryScreen } from './screens/History'
import { ImportToken } from './screens/ImportToken'
import { Send } from './screens/Send'
import { NetworkPicker } from './NetworkPicker'
import type { Network } from './network'
import { Login } from './screens/Login'
import { PasswordOffer, type PasswordStatus, Unlock } from './screens/Password'
import { type RecoveredAccount, Recovery } from './screens/Recovery'
import { SettingsScreen } from './screens/Settings'
import { ConnectedSites } from './screens/Sites'
import { browserWebauthn, type Webauthn } from './webauthn'
import { noHostAccess, type RequestHostAccess } from './hostAccess'
import { noSessionWatch, type WatchSession } from './sessionWatch'

type StatusResult = PopupApi['getStatus']['result']
type Status = { state: 'loading' } | ({ state: 'ready' } & StatusResult) | { state: 'failed'; code: string }

type OutView = 'login' | 'recovery' | 'settings'
type InView = 'accounts' | 'send' | 'history' | 'buy' | 'activity' | 'sites' | 'settings' | 'importToken'

/** Props: the background client, WebAuthn, host access and the session watch (injected so tests can fake them). */
export type AppProps = { client: PopupClient; webauthn?: Webauthn; requestHostAccess?: RequestHostAccess; watchSession?: WatchSession }

const END_TEXT: Record<string, string> = {
  'auto-lock': 'Locked after a while without use.',
  expired: 'Your session expired.',
  lock: 'Locked.',
  logout: 'Logged out.',
}

function statusText(status: Status): string {
  if (status.state === 'loading') return 'Contacting the background…'
  if (status.state === 'failed') return `Background unavailable (${status.code})`
  if (!status.session) return 'Not signed in'
  const until = new Date(status.session.expiresAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
  return `Signed in as ${status.session.username || 'you'} · session until ${until}`
}

/** Performance mark set once, when the popup's controls first become usable. */
export const INTERACTIVE_MARK = 'sigil-interactive'

/** The tabs; Send, Receive and Buy are actions on the wallet home. */
const TABS: Array<[InView, string]> = [
  ['accounts', 'Wallet'],
  ['history', 'History'],
  ['activity', 'Activity'],
  ['sites', 'Sites'],
  ['settings', 'Settings'],
]

/** The popup's root component. */
export function App({ client, webauthn = browserWebauthn, requestHostAccess = noHostAccess, watchSession = noSessionWatch }: AppProps) {
  const [status, setStatus] = useState<Status>({ state: 'loading' })
  const [outView, setOutView] = useState<OutView>('login')
  const [inView, setInView] = useState<InView>('accounts')
  const [network, setNetwork] = useState<Network | null>(null)
  const [sendFrom, setSendFrom] = useState<string | null>(null)
  const [recovered, setRecovered] = useState<RecoveredAccount | null>(null)
  // The wallet password: unlock instead of a login when set, the offer after a login when not.
  const [password, setPassword] = useState<PasswordStatus | null | undefined>(undefined)
  const [otherWay, setOtherWay] = useState(false)
  const onSend = useCallback((address: string) => {
    setSendFrom(address)
    setInView('send')
  }, [])

  // Whichever window logged in (this one, or the login window Sigil opens for a site), a login opens on the wallet home.
  const wasLoggedIn = useRef(false)
  const load = useCallback(() => {
    void client.call('getStatus').then((reply) => {
      if (reply.ok) {
        if (reply.result.loggedIn && !wasLoggedIn.current) setInView('accounts')
        wasLoggedIn.current = reply.result.loggedIn
      }
      setStatus(reply.ok ? { state: 'ready', ...reply.result } : { state: 'failed', code: reply.error.code })
    })
    void client.call('passwordStatus').then((reply) => setPassword(reply.ok ? reply.result : null))
  }, [client])
  const onLoggedIn = useCallback(() => {
    setInView('accounts')
    load()
  }, [load])
  const onRecovered = useCallback(
    (account: RecoveredAccount) => {
      setRecovered(account)
      onLoggedIn()
    },
    [onLoggedIn],
  )
  const onEnded = useCallback(() => {
    setRecovered(null)
    setOutView('login')
    load()
  }, [load])

  useEffect(load, [load])
  // A login in the login window (or a lock / logout elsewhere) shows here without a reload.
  useEffect(() => watchSession(load), [watchSession, load])
  // "Interactive" (bench/extension.ts): the first commit after the status reply.
  useLayoutEffect(() => {
    if (status.state !== 'loading' && performance.getEntriesByName(INTERACTIVE_MARK).length === 0) performance.mark(INTERACTIVE_MARK)
  }, [status.state])

  let body
  if (status.state === 'failed') {
    body = (
      <button type="button" onClick={load}>
        Retry
      </button>
    )
  } else if (status.state === 'ready' && !status.session) {
    body = (
      <>
        {status.lastEnd && outView === 'login' && <p class="notice">{END_TEXT[status.lastEnd.reason]}</p>}
        {status.loginWanted.length > 0 && outView === 'login' && (
          <p class="notice" data-testid="login-wanted">
            {status.loginWanted.join(', ')} wants to connect. Log in to continue.
          </p>
        )}
        {outView === 'login' && password?.hasPassword && !otherWay && (
          <Unlock client={client} status={password} onUnlocked={onLoggedIn} onOtherWay={() => setOtherWay(true)} />
        )}
        {outView === 'login' && password !== undefined && (!password?.hasPassword || otherWay) && (
          <Login
            client={client}
            webauthn={webauthn}
            pendingOtp={status.pendingOtp}
            pendingPasskeySignup={status.pendingPasskeySignup}
            lastLogin={status.lastLogin}
            onLoggedIn={onLoggedIn}
            onRecover={() => setOutView('recovery')}
          />
        )}
        {outView === 'recovery' && (
          <Recovery
            client={client}
            webauthn={webauthn}
            pendingEmail={status.pendingRecovery?.email ?? null}
            onLoggedIn={onRecovered}
            onBack={() => setOutView('login')}
          />
        )}
        {outView === 'settings' && (
          <SettingsScreen
            client={client}
            settings={status.settings}
            service={status.service}
            extensionId={status.extensionId}
            loggedIn={false}
            requestHostAccess={requestHostAccess}
            onSaved={load}
            onEnded={onEnded}
          />
        )}
        <nav class="footer" aria-label="More">
          {outView !== 'settings' ? (
            <button type="button" class="link" onClick={() => setOutView('settings')}>
              Settings
            </button>
          ) : (
            <button type="button" class="link" onClick={() => setOutView('login')}>
              Back to login
            </button>
          )}
        </nav>
      </>
    )
  } else if (status.state === 'ready') {
    body = (
      <>
        {recovered && (
          <p class="notice" data-testid="recovered-account">
            Recovered {recovered.email}
            {recovered.address ? ` · ${recovered.address}` : ''}
          </p>
        )}
        {password?.offer && inView === 'accounts' && <PasswordOffer client={client} onDone={load} />}
        <nav class="tabs" aria-label="Wallet">
          {TABS.map(([v, label]) => (
            <button
              key={v}
              type="button"
              aria-current={inView === v || (v === 'accounts' && (inView === 'send' || inView === 'buy')) ? 'page' : undefined}
              onClick={() => setInView(v)}
            >
              {label}
            </button>
          ))}
        </nav>
        {inView === 'accounts' && (
          <Accounts
            client={client}
            network={network}
            onSend={onSend}
            onBuy={() => setInView('buy')}
            onImportToken={() => setInView('importToken')}
            onSessionLost={load}
          />
        )}
        {inView === 'importToken' && network && (
          <ImportToken key={network.caip2} client={client} network={network} onDone={() => setInView('accounts')} onSessionLost={load} />
        )}
        {inView === 'send' && network && (
          <Send
            key={network.caip2}
            client={client}
            network={network}
            from={sendFrom}
            onSessionLost={load}
            onHistory={() => setInView('history')}
          />
        )}
        {inView === 'history' && network && (
          <HistoryScreen key={network.caip2} client={client} network={network} address={sendFrom} onSessionLost={load} />
        )}
        {inView === 'buy' && <Buy client={client} lastTransactionId={status.lastOnRamp?.transactionId ?? null} onSessionLost={load} />}
        {inView === 'activity' && <Activity client={client} onSessionLost={load} />}
        {inView === 'sites' && <ConnectedSites client={client} onSessionLost={load} />}
        {inView === 'settings' && (
          <SettingsScreen
            client={client}
            settings={status.settings}
            service={status.service}
            extensionId={status.extensionId}
            loggedIn
            requestHostAccess={requestHostAccess}
            onSaved={load}
            onEnded={onEnded}
          />
        )}
      </>
    )
  }

  return (
    <div class="shell">
      <header class="app-header">
        <img src="/icon-48.png" alt="" width={24} height={24} />
        <h1>Sigil</h1>
        {status.state === 'ready' && status.session && <NetworkPicker client={client} onChange={setNetwork} onSessionLost={load} />}
      </header>
      <main class="app-main">
        <p
          id="status"
          role="status"
          aria-live="polite"
          data-state={status.state}
          data-logged-in={status.state === 'ready' ? String(status.loggedIn) : undefined}
        >
          {statusText(status)}
        </p>
        {body}
      </main>
    </div>
  )
}
