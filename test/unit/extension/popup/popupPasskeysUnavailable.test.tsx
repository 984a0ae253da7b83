// @vitest-environment happy-dom
/**
 * A browser without passkeys (the Firefox build: `webauthn.unavailable`): every passkey button —
 * log in, sign up, unlock, recovery's new passkey — is shown disabled beside the sentence saying why
 * and naming the email/SMS way, before any click; nothing reaches the background or the ceremonies.
 * The same popup with passkeys (Chromium) shows no such sentence and enabled buttons.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { App } from '@/src/extension/popup/App'
import { PASSKEYS_UNAVAILABLE } from '@/src/extension/popup/useAction'
import { browserWebauthn, type Webauthn } from '@/src/extension/popup/webauthn'
import { fakeClient } from '../fakePopupClient'

afterEach(cleanup)

const loggedOut = {
  loggedIn: false,
  extensionId: 'sigil@sigil.local',
  session: null,
  settings: {
    apiBaseUrl: 'http://127.0.0.1:8787',
    relayUrl: 'http://127.0.0.1:8787/auth',
    autoLockMinutes: 15,
    sessionSeconds: 900,
    identityKey: '04ab',
  },
  service: { fingerprint: 'AAAA BBBB CCCC DDDD EEEE FFFF 0000 1111', locked: false },
  pendingOtp: null,
  pendingRecovery: null,
  pendingPasskeySignup: null,
  lastEnd: null,
  lastOnRamp: null,
  lastLogin: null as null | Record<string, unknown>,
  loginWanted: [] as string[],
}

/** WebAuthn that records any ceremony it is asked for. */
function ceremonies(unavailable?: string): Webauthn & { used: string[] } {
  const used: string[] = []
  return {
    used,
    ...(unavailable ? { unavailable } : {}),
    register: () => (used.push('register'), Promise.reject(new Error('no'))),
    assert: () => (used.push('assert'), Promise.reject(new Error('no'))),
  }
}

function button(name: string): HTMLButtonElement {
  return screen.getByRole('button', { name }) as HTMLButtonElement
}

/** The sentence is the described-by text of `b`. */
function describedBySentence(b: HTMLElement): string | undefined {
  const ids = (b.getAttribute('aria-describedby') ?? b.closest('fieldset')?.getAttribute('aria-describedby') ?? '').split(' ')
  return ids.map((id) => document.getElementById(id)?.textContent).find(Boolean) ?? undefined
}

describe('popup in a browser without passkeys (Firefox)', () => {
  it('says why on the Passkey tab, before a click, with log in and sign-up disabled', async () => {
    const client = fakeClient({ getStatus: () => ({ ok: true, result: loggedOut }) })
    const webauthn = ceremonies(PASSKEYS_UNAVAILABLE)
    render(<App client={client} webauthn={webauthn} />)
    await screen.findByRole('heading', { name: 'Log in or sign up' })
    expect(screen.queryByText(PASSKEYS_UNAVAILABLE)).toBeNull() // the email tab is what opens
    fireEvent.click(button('Passkey'))
    const note = await screen.findByRole('note')
    expect(note.textContent).toBe(PASSKEYS_UNAVAILABLE)
    expect(PASSKEYS_UNAVAILABLE).toMatch(/not available in Firefox/)
    expect(PASSKEYS_UNAVAILABLE).toMatch(/email or SMS code/)
    for (const name of ['Log in with passkey', 'Send verification code']) {
      const b = button(name)
      expect(b.disabled || b.closest('fieldset')?.disabled).toBe(true)
      expect(describedBySentence(b)).toBe(PASSKEYS_UNAVAILABLE)
      fireEvent.click(b)
    }
    expect((screen.getByLabelText(/Email address/) as HTMLInputElement).closest('fieldset')?.disabled).toBe(true)
    expect(webauthn.used).toEqual([])
    expect(client.calls.map(([m]) => m).filter((m) => /passkey/i.test(m))).toEqual([])
    // email and SMS stay as they were
    fireEvent.click(button('Email'))
    expect(button('Send code').disabled).toBe(false)
  })

  it('a half-done passkey sign-up shows the sentence and no enabled step', async () => {
    const client = fakeClient({
      getStatus: () => ({ ok: true, result: { ...loggedOut, pendingPasskeySignup: { email: 'pat@example.test', verified: true } } }),
    })
    render(<App client={client} webauthn={ceremonies(PASSKEYS_UNAVAILABLE)} />)
    expect((await screen.findByRole('note')).textContent).toBe(PASSKEYS_UNAVAILABLE)
    expect(button('Create account with passkey').closest('fieldset')?.disabled).toBe(true)
  })

  it('the unlock of an account with a passkey is disabled with the sentence; the email code is offered', async () => {
    const last = { v: 1, method: 'passkey', email: 'alice@example.test', hasPasskey: true, credentialId: 'Y3JlZEE' }
    const client = fakeClient({ getStatus: () => ({ ok: true, result: { ...loggedOut, lastLogin: last } }) })
    const webauthn = ceremonies(PASSKEYS_UNAVAILABLE)
    render(<App client={client} webauthn={webauthn} />)
    await screen.findByRole('heading', { name: 'Unlock Sigil' })
    const unlock = button('Unlock with passkey')
    expect(unlock.disabled).toBe(true)
    expect(describedBySentence(unlock)).toBe(PASSKEYS_UNAVAILABLE)
    fireEvent.click(unlock)
    expect(webauthn.used).toEqual([])
    expect(button('Send code').disabled).toBe(false)
  })

  it('recovery, which ends in a new passkey, says why and sends no email', async () => {
    const client = fakeClient({ getStatus: () => ({ ok: true, result: loggedOut }) })
    render(<App client={client} webauthn={ceremonies(PASSKEYS_UNAVAILABLE)} />)
    fireEvent.click(await screen.findByRole('button', { name: 'Lost your passkey? Recover by email' }))
    await screen.findByRole('heading', { name: 'Recover your account' })
    expect(screen.getByRole('note').textContent).toBe(PASSKEYS_UNAVAILABLE)
    const send = button('Send recovery email')
    expect(send.closest('fieldset')?.disabled).toBe(true)
    fireEvent.click(send)
    expect(client.calls.some(([m]) => m === 'recoveryStart')).toBe(false)
  })
})

describe('popup in a browser with passkeys (Chromium)', () => {
  it('the build flag leaves passkeys on outside the Firefox build', () => {
    expect(browserWebauthn.unavailable).toBeUndefined()
  })

  it('shows no sentence and enabled passkey buttons', async () => {
    const client = fakeClient({ getStatus: () => ({ ok: true, result: loggedOut }) })
    render(<App client={client} webauthn={ceremonies()} />)
    fireEvent.click(await screen.findByRole('button', { name: 'Passkey' }))
    expect(button('Log in with passkey').disabled).toBe(false)
    expect(button('Send verification code').disabled).toBe(false)
    expect(screen.queryByText(PASSKEYS_UNAVAILABLE)).toBeNull()
    expect(screen.queryByRole('note')).toBeNull()
  })
})
