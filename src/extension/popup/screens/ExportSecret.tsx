/**
 * Export a wallet's seed phrase or an account's private key: a warning first, then the background
 * decrypts the service's export bundle and the secret is shown once, masked until "Reveal". It
 * lives only in this screen's state and is dropped when the screen closes. The export needs a login
 * or password check within 5 minutes: with a wallet password the user confirms it here, without one
 * they log in again.
 */
import { useEffect, useState } from 'preact/hooks'
import type { PopupClient } from '../client'
import { Busy, ErrorLine, Field } from '../ui'
import { useAction } from '../useAction'

/** What to export, with the label the screen names it by. */
export type ExportWhat =
  | { kind: 'wallet'; walletId: string; label: string }
  | { kind: 'account'; address: string; label: string }
  | { kind: 'privateKey'; privateKeyId: string; label: string }

/** Props of {@link ExportSecret}. */
export type ExportSecretProps = { client: PopupClient; what: ExportWhat; onBack(): void; onSessionLost(): void }

/** The export screen. */
export function ExportSecret({ client, what, onBack, onSessionLost }: ExportSecretProps) {
  const [secret, setSecret] = useState<string | null>(null)
  const [revealed, setRevealed] = useState(false)
  const [needsLogin, setNeedsLogin] = useState(false)
  const [hasPassword, setHasPassword] = useState(false)
  const [password, setPassword] = useState('')
  const action = useAction(onSessionLost)
  const confirm = useAction(onSessionLost)
  // The secret is dropped when the screen closes.
  useEffect(() => () => setSecret(null), [])
  const phrase = what.kind === 'wallet'
  const noun = phrase ? 'seed phrase' : 'private key'
  const { label: _label, ...target } = what
  const exportNow = () => {
    setNeedsLogin(false)
    void action.run(
      async () => {
        const reply = await client.call('exportSecret', target)
        if (!reply.ok && reply.error.code === 'REAUTH_REQUIRED') {
          const status = await client.call('passwordStatus')
          setHasPassword(status.ok && status.result.hasPassword)
          setNeedsLogin(true)
        }
        return reply
      },
      (r) => setSecret(r.secret),
    )
  }
  return (
    <section aria-labelledby="export-heading" class="export">
      <h2 id="export-heading">Export {noun}</h2>
      <p class="hint">{what.label}</p>
      {secret === null ? (
        <>
          <div class="warning" role="note">
            <strong>Anyone with this {noun} can take your funds.</strong>
            <p>Never share it, never type it into a website, and keep any copy offline. Sigil's support will never ask for it.</p>
          </div>
          {needsLogin && !hasPassword && (
            <p class="notice" data-testid="reauth">
              For your safety, exporting needs a login in the last 5 minutes. Choose “Log out” in Settings, log in again, then come back.
            </p>
          )}
          {needsLogin && hasPassword && (
            <form
              class="reauth"
              data-testid="reauth"
              onSubmit={(e) => {
                e.preventDefault()
                const typed = password
                setPassword('')
                void confirm.run(() => client.call('confirmPassword', { password: typed }), exportNow)
              }}
            >
              <Field label="Wallet password" hint="Confirm it is you: exporting needs a login or your password in the last 5 minutes.">
                <input
                  type="password"
                  value={password}
                  autocomplete="current-password"
                  onInput={(e) => setPassword(e.currentTarget.value)}
                />
              </Field>
              <button type="submit" class="primary" disabled={confirm.busy}>
                Confirm and export
              </button>
              <ErrorLine error={confirm.error} />
            </form>
          )}
          <div class="row">
            <button type="button" class="danger" disabled={action.busy} onClick={exportNow}>
              I understand, export
            </button>
            <button type="button" onClick={onBack}>
              Cancel
            </button>
          </div>
          <Busy busy={action.busy} label="Decrypting the export…" />
          <ErrorLine error={action.error} />
        </>
      ) : (
        <>
          <p class="hint">Shown once: it is not stored and is gone when you leave this screen.</p>
          <output class={revealed ? 'secret' : 'secret masked'} aria-label={`Your ${noun}`} data-testid="secret">
            {revealed ? secret : '•'.repeat(24)}
          </output>
          <div class="row">
            <button type="button" onClick={() => setRevealed(!revealed)}>
              {revealed ? 'Mask' : 'Reveal'}
            </button>
            <button
              type="button"
              class="primary"
              onClick={() => {
                setSecret(null)
                onBack()
              }}
            >
              Done
            </button>
          </div>
        </>
      )}
    </section>
  )
}
