/** Logged-out screen: email / SMS OTP, passkey login and sign-up (PasskeySignup.tsx), links to recovery and settings. */
import { useState } from 'preact/hooks'
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
  onLoggedIn(): void
  onRecover(): void
}

function CodeForm({
  client,
  contact,
  onLoggedIn,
  onRestart,
}: {
  client: PopupClient
  contact: string
  onLoggedIn(): void
  onRestart(): void
}) {
  const [code, setCode] = useState('')
  const action = useAction()
  return (
    <form
      aria-labelledby="code-heading"
      onSubmit={(e) => {
        e.preventDefault()
        void action.run(() => client.call('otpVerify', { code }), onLoggedIn)
      }}
    >
      <h2 id="code-heading">Enter your code</h2>
      <p>We sent a code to {contact}.</p>
      <Field label="Code">
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
        <button type="submit" class="primary" disabled={action.busy}>
          Log in
        </button>
        <button type="button" onClick={onRestart} disabled={action.busy}>
          Use another address
        </button>
      </div>
      <Busy busy={action.busy} label="Checking the code…" />
      <ErrorLine error={action.error} />
    </form>
  )
}

function ContactForm({ client, method, onSent }: { client: PopupClient; method: 'email' | 'sms'; onSent(contact: string): void }) {
  const [contact, setContact] = useState('')
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
      <Field label={email ? 'Email address' : 'Phone number'} {...(email ? {} : { hint: 'International form, e.g. +15555550123' })}>
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
      <ErrorLine error={action.error} />
    </form>
  )
}

type PasskeyPanelProps = Omit<PasskeySignupProps, 'disabled'>

function PasskeyPanel({ client, webauthn, onLoggedIn, ...signup }: PasskeyPanelProps) {
  const login = useAction()
  return (
    <div>
      <button
        type="button"
        class="primary"
        disabled={login.busy}
        onClick={() =>
          void login.run(async () => {
            const begin = await client.call('passkeyLoginBegin')
            if (!begin.ok) return begin
            const assertion = await webauthn.assert(begin.result.challenge)
            return client.call('passkeyLoginFinish', assertion)
          }, onLoggedIn)
        }
      >
        Log in with passkey
      </button>
      <Busy busy={login.busy} label="Waiting for your passkey…" />
      <ErrorLine error={login.error} />
      <PasskeySignup client={client} webauthn={webauthn} onLoggedIn={onLoggedIn} disabled={login.busy} {...signup} />
    </div>
  )
}

const METHODS: Array<[Method, string]> = [
  ['email', 'Email'],
  ['sms', 'SMS'],
  ['passkey', 'Passkey'],
]

/** The logged-out screen. */
export function Login({ client, webauthn, pendingOtp, pendingPasskeySignup, onLoggedIn, onRecover }: LoginProps) {
  const [method, setMethod] = useState<Method>(
    pendingOtp ? (pendingOtp.otpType === 'OTP_TYPE_SMS' ? 'sms' : 'email') : pendingPasskeySignup ? 'passkey' : 'email',
  )
  const [sentTo, setSentTo] = useState<string | null>(pendingOtp?.contact ?? null)
  const emailCodeSent = (contact: string) => {
    setMethod('email')
    setSentTo(contact)
  }
  if (sentTo !== null && method !== 'passkey') {
    return <CodeForm client={client} contact={sentTo} onLoggedIn={onLoggedIn} onRestart={() => setSentTo(null)} />
  }
  return (
    <section aria-labelledby="login-heading">
      <h2 id="login-heading">Log in or sign up</h2>
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
        <ContactForm key={method} client={client} method={method} onSent={setSentTo} />
      )}
      <p class="links">
        <button type="button" class="link" onClick={onRecover}>
          Lost your passkey? Recover by email
        </button>
      </p>
    </section>
  )
}
