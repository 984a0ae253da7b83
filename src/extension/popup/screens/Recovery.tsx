/**
 * Email recovery: request the email, paste its code, register a new passkey, log in with it (and only it).
 * Where the browser has no passkeys (the Firefox build) it ends in one it cannot make: the screen
 * says why and turns its controls off before an email is sent.
 */
import { useState } from 'preact/hooks'
import type { PopupClient } from '../client'
import { Busy, ErrorLine, Field } from '../ui'
import { useAction } from '../useAction'
import type { Webauthn } from '../webauthn'

/** The account recovery opened, shown after the login so the user sees it is the one they meant. */
export type RecoveredAccount = { email: string; address: string }

/** Props of {@link Recovery}. */
export type RecoveryProps = {
  client: PopupClient
  webauthn: Webauthn
  pendingEmail: string | null
  /** Logged in to the recovered account: its email and first address (empty when it has none yet). */
  onLoggedIn(recovered: RecoveredAccount): void
  onBack(): void
}

/** The recovery screen. */
export function Recovery({ client, webauthn, pendingEmail, onLoggedIn, onBack }: RecoveryProps) {
  const [email, setEmail] = useState(pendingEmail ?? '')
  const [sent, setSent] = useState(pendingEmail !== null)
  const [bundle, setBundle] = useState('')
  const start = useAction()
  const finish = useAction()
  const [step, setStep] = useState('')
  const off = webauthn.unavailable
  return (
    <section aria-labelledby="recovery-heading">
      <h2 id="recovery-heading">Recover your account</h2>
      {off ? (
        <>
          <p class="notice" id="passkeys-unavailable-recovery" role="note">
            {off}
          </p>
          <fieldset class="passkeys-off" disabled aria-describedby="passkeys-unavailable-recovery">
            <Field label="Email address">
              <input name="email" type="email" value={email} autoComplete="email" />
            </Field>
            <button type="button" class="primary" aria-describedby="passkeys-unavailable-recovery">
              Send recovery email
            </button>
          </fieldset>
        </>
      ) : !sent ? (
        <form
          onSubmit={(e) => {
            e.preventDefault()
            void start.run(
              () => client.call('recoveryStart', { email: email.trim() }),
              () => setSent(true),
            )
          }}
        >
          <Field label="Email address">
            <input name="email" type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} required autoComplete="email" />
          </Field>
          <button type="submit" class="primary" disabled={start.busy}>
            Send recovery email
          </button>
          <Busy busy={start.busy} label="Sending the recovery email…" />
          <ErrorLine error={start.error} />
        </form>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault()
            void finish.run(async () => {
              setStep('Creating your new passkey…')
              const reg = await webauthn.register({ name: email || 'Sigil user', displayName: email || 'Sigil user' })
              setStep('Registering the passkey…')
              const rec = await client.call('recoveryFinish', {
                bundle: bundle.trim(),
                authenticatorName: 'Sigil recovery passkey',
                challenge: reg.challenge,
                attestation: reg.attestation,
              })
              if (!rec.ok) return rec
              setStep('Logging in with the new passkey…')
              // Only the passkey just registered: another account's passkey on this authenticator must not open.
              const credentialId = reg.attestation.credentialId
              const begin = await client.call('passkeyLoginBegin', { credentialId })
              if (!begin.ok) return begin
              const assertion = await webauthn.assert(begin.result.challenge, begin.result.allowCredentials)
              const login = await client.call('passkeyLoginFinish', assertion)
              if (!login.ok) return login
              const listed = await client.call('listAccounts')
              const first = listed.ok ? listed.result.wallets.flatMap((w) => w.accounts)[0] : undefined
              return { ok: true as const, result: { email: rec.result.email, address: first?.address ?? '' } }
            }, onLoggedIn)
          }}
        >
          <p>We sent a recovery code to {email}. Paste it below, then create a new passkey.</p>
          <Field label="Recovery code">
            <textarea name="bundle" rows={3} value={bundle} onInput={(e) => setBundle(e.currentTarget.value)} required spellcheck={false} />
          </Field>
          <button type="submit" class="primary" disabled={finish.busy}>
            Add a new passkey and log in
          </button>
          <Busy busy={finish.busy} label={step} />
          <ErrorLine error={finish.error} />
        </form>
      )}
      <p class="links">
        <button type="button" class="link" onClick={onBack}>
          Back to login
        </button>
      </p>
    </section>
  )
}
