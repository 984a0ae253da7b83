/**
 * The wallet password in the popup: the unlock screen (shown instead of the login when this
 * browser has a password), the offer after a login, and the Settings section to set, change or
 * remove it. The password goes to the background only (session/vault.ts), is never kept here
 * after the call, and a wrong one is refused by the background without reaching the service.
 */
import { useState } from 'preact/hooks'
import type { PopupApi } from '../../protocol/popupApi'
import type { PopupClient } from '../client'
import { Busy, ErrorLine, Field } from '../ui'
import { useAction } from '../useAction'

/** What the background says about the password (`passwordStatus`). */
export type PasswordStatus = PopupApi['passwordStatus']['result']

/** Unlock with the wallet password; `onOtherWay` shows the email / passkey login. */
export function Unlock(props: { client: PopupClient; status: PasswordStatus; onUnlocked(): void; onOtherWay(): void }) {
  const [password, setPassword] = useState('')
  const unlock = useAction()
  return (
    <section aria-labelledby="unlock-heading">
      <h2 id="unlock-heading">Unlock</h2>
      {props.status.username && <p class="hint">Wallet of {props.status.username}</p>}
      <form
        onSubmit={(e) => {
          e.preventDefault()
          void unlock.run(
            () => props.client.call('passwordUnlock', { password }),
            () => {
              setPassword('')
              props.onUnlocked()
            },
          )
        }}
      >
        <Field label="Wallet password" error={unlock.field === 'password' ? unlock.error : null}>
          <input
            name="password"
            type="password"
            autocomplete="current-password"
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
            required
            minLength={8}
          />
        </Field>
        <button type="submit" class="primary" disabled={unlock.busy}>
          Unlock
        </button>
        <Busy busy={unlock.busy} label="Unlocking…" />
        <ErrorLine error={unlock.field === 'password' ? null : unlock.error} />
      </form>
      <button type="button" class="link" onClick={props.onOtherWay}>
        Log in with email or passkey instead
      </button>
    </section>
  )
}

/** Choose a password (twice); `onSet` after the background sealed it. */
function PasswordForm(props: { client: PopupClient; submitLabel: string; onSet(status: PasswordStatus): void }) {
  const [password, setPassword] = useState('')
  const [again, setAgain] = useState('')
  const [mismatch, setMismatch] = useState(false)
  const save = useAction()
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        if (password !== again) {
          setMismatch(true)
          return
        }
        setMismatch(false)
        void save.run(
          () => props.client.call('passwordSetup', { password }),
          (status) => {
            setPassword('')
            setAgain('')
            props.onSet(status)
          },
        )
      }}
    >
      <Field label="New wallet password" hint="At least 8 characters." error={save.field === 'password' ? save.error : null}>
        <input
          name="new-password"
          type="password"
          autocomplete="new-password"
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
          required
          minLength={8}
        />
      </Field>
      <Field label="Repeat the password" error={mismatch ? 'The two passwords differ.' : null}>
        <input
          name="repeat-password"
          type="password"
          autocomplete="new-password"
          value={again}
          onInput={(e) => setAgain(e.currentTarget.value)}
          required
          minLength={8}
        />
      </Field>
      <button type="submit" class="primary" disabled={save.busy}>
        {props.submitLabel}
      </button>
      <Busy busy={save.busy} label="Sealing the key (a few seconds)…" />
      <ErrorLine error={save.field === 'password' ? null : save.error} />
    </form>
  )
}

/** The offer after the first login in this browser: set a password, or not now (not asked again). */
export function PasswordOffer(props: { client: PopupClient; onDone(): void }) {
  const later = useAction()
  return (
    <section class="offer" aria-labelledby="offer-heading">
      <h2 id="offer-heading">Unlock without an email next time</h2>
      <p class="hint">A wallet password unlocks Sigil in this browser. It stays on this device; Sigil cannot recover it.</p>
      <PasswordForm client={props.client} submitLabel="Set password" onSet={() => props.onDone()} />
      <button
        type="button"
        class="link"
        disabled={later.busy}
        onClick={() => void later.run(() => props.client.call('passwordOfferDismiss'), props.onDone)}
      >
        Not now
      </button>
    </section>
  )
}

/** Settings: set, change or remove the wallet password. */
export function PasswordSettings(props: { client: PopupClient }) {
  const [status, setStatus] = useState<PasswordStatus | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const load = useAction()
  const remove = useAction()
  if (status === null && !load.busy && !load.error) void load.run(() => props.client.call('passwordStatus'), setStatus)
  return (
    <section aria-labelledby="password-heading">
      <h3 id="password-heading">Wallet password</h3>
      {status && (
        <p class="hint" data-testid="password-state">
          {status.hasPassword ? 'Set: this browser unlocks with your password.' : 'Not set: unlocking needs an email code or a passkey.'}
        </p>
      )}
      <ErrorLine error={load.error} />
      {status && (
        <PasswordForm
          client={props.client}
          submitLabel={status.hasPassword ? 'Change password' : 'Set password'}
          onSet={(s) => {
            setStatus(s)
            setDone('Password saved.')
          }}
        />
      )}
      {status?.hasPassword && (
        <button
          type="button"
          class="danger"
          disabled={remove.busy}
          onClick={() =>
            void remove.run(
              () => props.client.call('passwordRemove'),
              (s) => {
                setStatus(s)
                setDone('Password removed.')
              },
            )
          }
        >
          Remove password
        </button>
      )}
      <ErrorLine error={remove.error} />
      {done && <p class="ok">{done}</p>}
    </section>
  )
}
