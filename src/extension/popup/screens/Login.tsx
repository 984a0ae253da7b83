/**
 * Logged-out screen: email / SMS OTP, passkey login and sign-up (PasskeySignup.tsx), links to
 * recovery and settings. After a lock or logout the last account comes first:
 * "Unlock with passkey" when it has one (asking for its own credential when Sigil knows it), and
 * its email pre-filled for an email code. Where the browser has no passkeys (the Firefox build),
 * every passkey button is shown disabled beside a sentence saying why, before anyone clicks.
 */
import { useEffect, useState } from 'preact/hooks'
import type { PopupApi } from '../../protocol/popupApi'
import type { PopupClient } from '../client'
import { Busy, ErrorLine, Field } from '../ui'
import { useAction } from '../useAction'
import type { Webauthn } from '../webauthn'
import { PasskeySignup, type PasskeySignupProps } from './PasskeySignup'

type Method = 'email' | 'sms' | 'passkey'

/** Props of {@link Login}. */
export type LoginProps = {
  client: PopupClient
  webauthn: Webauthn
  pendingOtp: { otpType: 'OTP_TYPE_EMAIL' | 'OTP_TYPE_SMS'; contact: string } | null
  pendingPasskeySignup: PasskeySignupProps['pending']
  /** The last account's way back in (non-secret), or null. */
  lastLogin?: LastLoginView | null
  onLoggedIn(): void
  onRecover(): void
}

/** What the background remembers of the last login (login/lastLogin.ts). */
export type LastLoginView = NonNullable<PopupApi['getStatus']['result']['lastLogin']>

/** Why passkeys cannot be used here, for the disabled buttons it describes (`id`). */
function PasskeysUnavailable({ id, why }: { id: string; why: string }) {
  return (
    <p class="notice" id={id} role="note">
      {why}
    </p>
  )
}

/** Passkey login; with `credentialId` only that passkey may answer, with `credentialIds` one of them. */
function passkeyLogin(client: PopupClient, webauthn: Webauthn, credentialId?: string, credentialIds?: readonly string[]) {
  return async () => {
    const begin = await client.call(
      'passkeyLoginBegin',
      credentialId ? { credentialId } : credentialIds?.length ? { credentialIds: [...credentialIds] } : {},
    )
    if (!begin.ok) return begin
    const assertion = await webauthn.assert(begin.result.challenge, begin.result.allowCredentials)
    return client.call('passkeyLoginFinish', assertion)
  }
}

function Unlock({
  client,
  webauthn,
  last,
  onLoggedIn,
}: {
  client: PopupClient
  webauthn: Webauthn
  last: LastLoginView
  onLoggedIn(): void
}) {
  const unlock = useAction()
  const off = webauthn.unavailable
  return (
    <div class="unlock" aria-label="Unlock" role="group">
      <p>Welcome back{last.email ? `, ${last.email}` : ''}.</p>
      {off && <PasskeysUnavailable id="passkeys-unavailable-unlock" why={off} />}
      <button
        type="button"
        class="primary"
        disabled={unlock.busy || off !== undefined}
        {...(off ? { 'aria-describedby': 'passkeys-unavailable-unlock' } : {})}
        onClick={() => void unlock.run(passkeyLogin(client, webauthn, last.credentialId, last.credentialIds), onLoggedIn)}
      >
        Unlock with passkey
      </button>
      <Busy busy={unlock.busy} label="Waiting for your passkey…" />
      <ErrorLine error={unlock.error} />
      <p class="hint">Or log in another way:</p>
    </div>
  )
}

function CodeForm({
  client,
  otpType,
  contact,
  onLoggedIn,
  onRestart,
}: {
  client: PopupClient
  otpType: 'OTP_TYPE_EMAIL' | 'OTP_TYPE_SMS'
  contact: string
  onLoggedIn(): void
  onRestart(): void
}) {
  const [code, setCode] = useState('')
  const [resent, setResent] = useState(false)
  const action = useAction()
  const resend = useAction()
  const busy = action.busy || resend.busy
  return (
    <form
      aria-labelledby="code-heading"
      onSubmit={(e) => {
        e.preventDefault()
        void action.run(() => client.call('otpVerify', { code }), onLoggedIn)
      }}
    >
      <h2 id="code-heading">Enter your code</h2>
      <p>{resent ? `We sent a new code to ${contact}. Earlier codes no longer work.` : `We sent a code to ${contact}.`}</p>
      <Field label="Code" error={action.field === 'code' ? action.error : null}>
        <input
          name="code"
          value={code}
          onInput={(e) => setCode(e.currentTarget.value)}
          autoComplete="one-time-code"
          inputMode="text"
          required
          autoFocus
        />
      </Field>
      <div class="row">
        <button type="submit" class="primary" disabled={busy}>
          Log in
        </button>
        <button type="button" onClick={onRestart} disabled={busy}>
          Use another address
        </button>
      </div>
      {/* A wrong or expired code is not a dead end: a new code is one click away. */}
      <p class="hint">
        {action.error ? 'Wrong or expired code? ' : 'No code? '}
        <button
          type="button"
          class="link"
          disabled={busy}
          onClick={() =>
            void resend.run(
              () => client.call('otpStart', { otpType, contact }),
              () => {
                setCode('')
                setResent(true)
                action.clear()
              },
            )
          }
        >
          Send a new code
        </button>
      </p>
      <Busy busy={action.busy} label="Checking the code…" />
      <Busy busy={resend.busy} label="Sending a new code…" />
      <ErrorLine error={action.field === 'code' ? null : action.error} />
      <ErrorLine error={resend.error} />
    </form>
  )
}

function ContactForm({
  client,
  method,
  initial,
  onSent,
}: {
  client: PopupClient
  method: 'email' | 'sms'
  initial?: string | undefined
  onSent(contact: string): void
}) {
  const [contact, setContact] = useState(initial ?? '')
  const action = useAction()
  const email = method === 'email'
  return (
    <form
      aria-label={email ? 'Log in with email' : 'Log in with SMS'}
      onSubmit={(e) => {
        e.preventDefault()
        void action.run(
          () => client.call('otpStart', { otpType: email ? 'OTP_TYPE_EMAIL' : 'OTP_TYPE_SMS', contact: contact.trim() }),
          (r) => onSent(r.contact),
        )
      }}
    >
      <p class="hint">New here? The same code signs you up.</p>
      <Field
        label={email ? 'Email address' : 'Phone number'}
        {...(email ? {} : { hint: 'International form, e.g. +15555550123' })}
        error={action.field === 'contact' ? action.error : null}
      >
        {email ? (
          <input
            name="contact"
            type="email"
            value={contact}
            onInput={(e) => setContact(e.currentTarget.value)}
            autoComplete="email"
            required
          />
        ) : (
          <input name="contact" type="tel" value={contact} onInput={(e) => setContact(e.currentTarget.value)} autoComplete="tel" required />
        )}
      </Field>
      <button type="submit" class="primary" disabled={action.busy}>
        Send code
      </button>
      <Busy busy={action.busy} label="Sending the code…" />
      {/* A failure about the number or address shows under its field; any other, here. */}
      <ErrorLine error={action.field === 'contact' ? null : action.error} />
    </form>
  )
}

type PasskeyPanelProps = Omit<PasskeySignupProps, 'disabled'>

function PasskeyPanel({ client, webauthn, onLoggedIn, ...signup }: PasskeyPanelProps) {
  const login = useAction()
  const off = webauthn.unavailable
  if (off) {
    // Shown, not hidden, so the user learns why; a disabled fieldset turns off every control of the sign-up too.
    return (
      <div>
        <PasskeysUnavailable id="passkeys-unavailable" why={off} />
        <fieldset class="passkeys-off" disabled aria-describedby="passkeys-unavailable">
          <button type="button" class="primary" disabled aria-describedby="passkeys-unavailable">
            Log in with passkey
          </button>
          <PasskeySignup client={client} webauthn={webauthn} onLoggedIn={onLoggedIn} disabled {...signup} />
        </fieldset>
      </div>
    )
  }
  return (
    <div>
      <button
        type="button"
        class="primary"
        disabled={login.busy}
        onClick={() => void login.run(passkeyLogin(client, webauthn), onLoggedIn)}
      >
        Log in with passkey
      </button>
      <Busy busy={login.busy} label="Waiting for your passkey…" />
      <ErrorLine error={login.error} />
      <PasskeySignup client={client} webauthn={webauthn} onLoggedIn={onLoggedIn} disabled={login.busy} {...signup} />
    </div>
  )
}

/**
 * "Continue with <provider>" for each OIDC provider the service offers. The browser's
 * sign-in window takes the focus (and may close this popup): the background finishes the login,
 * and a reopened popup shows the wallet.
 */
function OauthButtons({ client, passkeys, onLoggedIn }: { client: PopupClient; passkeys: boolean; onLoggedIn(): void }) {
  const [providers, setProviders] = useState<Array<{ name: string; issuer: string }>>([])
  const [active, setActive] = useState<string | null>(null)
  const action = useAction()
  useEffect(() => {
    let live = true
    void client.call('oauthProviders').then((r) => {
      if (live && r.ok) setProviders(r.result)
    })
    return () => {
      live = false
    }
  }, [client])
  if (providers.length === 0) return null
  return (
    <div class="oauth" role="group" aria-label="Sign in with a provider">
      {providers.map((p) => (
        <button
          key={p.issuer}
          type="button"
          disabled={action.busy}
          onClick={() => {
            setActive(p.name)
            void action.run(() => client.call('oauthLogin', { issuer: p.issuer }), onLoggedIn)
          }}
        >
          Continue with {p.name}
        </button>
      ))}
      <Busy busy={action.busy} label={`Waiting for ${active ?? 'the provider'}…`} />
      <ErrorLine error={action.error} />
      <p class="hint">{passkeys ? 'Or with your email, phone or passkey:' : 'Or with your email or phone:'}</p>
    </div>
  )
}

const METHODS: Array<[Method, string]> = [
  ['email', 'Email'],
  ['sms', 'SMS'],
  ['passkey', 'Passkey'],
]

/** The logged-out screen. */
export function Login({ client, webauthn, pendingOtp, pendingPasskeySignup, lastLogin = null, onLoggedIn, onRecover }: LoginProps) {
  const unlockable = lastLogin !== null && (lastLogin.method === 'passkey' || lastLogin.hasPasskey) && !pendingOtp && !pendingPasskeySignup
  const [method, setMethod] = useState<Method>(
    pendingOtp ? (pendingOtp.otpType === 'OTP_TYPE_SMS' ? 'sms' : 'email') : pendingPasskeySignup ? 'passkey' : 'email',
  )
  const [sentTo, setSentTo] = useState<string | null>(pendingOtp?.contact ?? null)
  const emailCodeSent = (contact: string) => {
    setMethod('email')
    setSentTo(contact)
  }
  if (sentTo !== null && method !== 'passkey') {
    return (
      <CodeForm
        client={client}
        otpType={method === 'sms' ? 'OTP_TYPE_SMS' : 'OTP_TYPE_EMAIL'}
        contact={sentTo}
        onLoggedIn={onLoggedIn}
        onRestart={() => setSentTo(null)}
      />
    )
  }
  return (
    <section aria-labelledby="login-heading">
      <h2 id="login-heading">{unlockable ? 'Unlock Sigil' : 'Log in or sign up'}</h2>
      {unlockable && lastLogin && <Unlock client={client} webauthn={webauthn} last={lastLogin} onLoggedIn={onLoggedIn} />}
      <OauthButtons client={client} passkeys={webauthn.unavailable === undefined} onLoggedIn={onLoggedIn} />
      <div class="segmented" role="group" aria-label="Login method">
        {METHODS.map(([m, label]) => (
          <button key={m} type="button" aria-pressed={method === m} onClick={() => setMethod(m)}>
            {label}
          </button>
        ))}
      </div>
      {method === 'passkey' ? (
        <PasskeyPanel
          client={client}
          webauthn={webauthn}
          pending={pendingPasskeySignup}
          onLoggedIn={onLoggedIn}
          onOtpSent={emailCodeSent}
        />
      ) : (
        <ContactForm
          key={method}
          client={client}
          method={method}
          initial={method === 'email' ? lastLogin?.email : undefined}
          onSent={setSentTo}
        />
      )}
      <p class="links">
        <button type="button" class="link" onClick={onRecover}>
          Lost your passkey? Recover by email
        </button>
      </p>
    </section>
  )
}
