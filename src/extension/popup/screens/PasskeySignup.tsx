/**
 * Passkey sign-up with a verified email: email (+ optional name) → code → passkey. The email
 * is how the account is recovered when the passkey is lost; an email that already has an
 * account is sent to the email-code login instead.
 */
import { useState } from 'preact/hooks'
import type { PopupClient } from '../client'
import { Busy, ErrorLine, Field } from '../ui'
import { useAction } from '../useAction'
import type { Webauthn } from '../webauthn'

type Step = { kind: 'email' } | { kind: 'code' | 'verified' | 'exists'; email: string }

/** Props of {@link PasskeySignup}. */
export type PasskeySignupProps = {
  client: PopupClient
  webauthn: Webauthn
  /** A sign-up left half-way (the popup closed while the user read the email). */
  pending: { email: string; verified: boolean } | null
  disabled: boolean
  onLoggedIn(): void
  /** A code for `email` was sent by `otpStart`: show the email-code login. */
  onOtpSent(email: string): void
}

/** The sign-up part of the passkey tab. */
export function PasskeySignup({ client, webauthn, pending, disabled, onLoggedIn, onOtpSent }: PasskeySignupProps) {
  const [step, setStep] = useState<Step>(
    pending ? { kind: pending.verified ? 'verified' : 'code', email: pending.email } : { kind: 'email' },
  )
  const [email, setEmail] = useState('')
  const [name, setName] = useState('')
  const [code, setCode] = useState('')
  const action = useAction()
  const busy = disabled || action.busy
  const restart = (
    <button type="button" onClick={() => setStep({ kind: 'email' })} disabled={busy}>
      Use another address
    </button>
  )
  const status = (label: string) => (
    <>
      <Busy busy={action.busy} label={label} />
      <ErrorLine error={action.error} />
    </>
  )

  if (step.kind === 'email') {
    return (
      <form
        aria-labelledby="signup-heading"
        onSubmit={(e) => {
          e.preventDefault()
          const userName = name.trim()
          void action.run(
            () => client.call('passkeySignupEmailStart', { email: email.trim(), ...(userName ? { userName } : {}) }),
            (r) => {
              setCode('')
              setStep({ kind: 'code', email: r.email })
            },
          )
        }}
      >
        <h3 id="signup-heading">New here? Create an account with a passkey</h3>
        <Field label="Email address" hint="Used to recover your account if you lose your passkey.">
          <input name="email" type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} autoComplete="email" required />
        </Field>
        <Field label="Name (optional)">
          <input name="userName" value={name} onInput={(e) => setName(e.currentTarget.value)} autoComplete="nickname" />
        </Field>
        <button type="submit" disabled={busy}>
          Send verification code
        </button>
        {status('Sending the code…')}
      </form>
    )
  }

  if (step.kind === 'code') {
    return (
      <form
        aria-labelledby="signup-code-heading"
        onSubmit={(e) => {
          e.preventDefault()
          void action.run(
            () => client.call('passkeySignupEmailVerify', { code: code.trim() }),
            (r) => setStep({ kind: r.accountExists ? 'exists' : 'verified', email: r.email }),
          )
        }}
      >
        <h3 id="signup-code-heading">Verify your email</h3>
        <p>We sent a code to {step.email}.</p>
        <Field label="Verification code">
          <input name="code" value={code} onInput={(e) => setCode(e.currentTarget.value)} autoComplete="one-time-code" required autoFocus />
        </Field>
        <div class="row">
          <button type="submit" class="primary" disabled={busy}>
            Verify email
          </button>
          {restart}
        </div>
        {status('Checking the code…')}
      </form>
    )
  }

  if (step.kind === 'exists') {
    return (
      <section aria-labelledby="signup-exists-heading">
        <h3 id="signup-exists-heading">You already have an account</h3>
        <p class="notice">An account with {step.email} already exists. Log in with an email code instead.</p>
        <div class="row">
          <button
            type="button"
            class="primary"
            disabled={busy}
            onClick={() =>
              void action.run(
                () => client.call('otpStart', { otpType: 'OTP_TYPE_EMAIL', contact: step.email }),
                (r) => onOtpSent(r.contact),
              )
            }
          >
            Log in with email code
          </button>
          {restart}
        </div>
        {status('Sending the code…')}
      </section>
    )
  }

  return (
    <form
      aria-labelledby="signup-passkey-heading"
      onSubmit={(e) => {
        e.preventDefault()
        void action.run(async () => {
          const reg = await webauthn.register({ name: step.email, displayName: name.trim() || step.email })
          return client.call('passkeySignup', {
            authenticatorName: 'Sigil passkey',
            challenge: reg.challenge,
            attestation: reg.attestation,
          })
        }, onLoggedIn)
      }}
    >
      <h3 id="signup-passkey-heading">Email verified</h3>
      <p>{step.email} will be used to recover your account. Now create your passkey.</p>
      <div class="row">
        <button type="submit" class="primary" disabled={busy}>
          Create account with passkey
        </button>
        {restart}
      </div>
      {status('Creating your account…')}
    </form>
  )
}
