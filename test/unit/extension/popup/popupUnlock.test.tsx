// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { App } from '@/src/extension/popup/App'
import { fakeClient } from '../fakePopupClient'
import type { Webauthn } from '@/src/extension/popup/webauthn'

/** The passkey Sigil expects, the recovered account, the last account's way back in. */
afterEach(cleanup)

const settings = {
  apiBaseUrl: 'http://127.0.0.1:8787',
  relayUrl: 'http://127.0.0.1:8787/auth',
  autoLockMinutes: 15,
  sessionSeconds: 900,
  identityKey: '04ab',
}
const loggedOut = {
  loggedIn: false,
  extensionId: 'abcdefgh',
  session: null,
  settings,
  service: { fingerprint: 'AAAA BBBB CCCC DDDD EEEE FFFF 0000 1111', locked: false },
  pendingOtp: null,
  pendingRecovery: null,
  pendingPasskeySignup: null,
  lastEnd: { reason: 'lock', at: 1 },
  lastOnRamp: null,
  lastLogin: null as null | Record<string, unknown>,
  loginWanted: [] as string[],
}
const loggedIn = {
  ...loggedOut,
  loggedIn: true,
  lastEnd: null,
  session: { organizationId: 'o', userId: 'u', username: 'alice@example.test', method: 'passkey', expiresAt: Date.now() + 60_000 },
}
const ADDRESS = `0x${'ab'.repeat(20)}`
const wallets = {
  wallets: [
    {
      walletId: 'w1',
      walletName: 'Default Wallet',
      accounts: [
        {
          walletAccountId: 'a1',
          address: ADDRESS,
          addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
          path: "m/44'/60'/0'/0/0",
          curve: 'CURVE_SECP256K1',
        },
      ],
    },
  ],
}
const assertion = { authenticatorData: 'YWQ', clientDataJson: 'Y2Q', credentialId: 'Y3JlZEE', signature: 'c2ln' }

/** A fake WebAuthn that records which credentials each assertion was allowed to use. */
function fakeWebauthn(): Webauthn & { asked: Array<readonly string[] | undefined> } {
  const asked: Array<readonly string[] | undefined> = []
  return {
    asked,
    register: async () =>
      ({
        challenge: 'Y2hhbGxlbmdl',
        attestation: {
          credentialId: 'Y3JlZEE',
          clientDataJson: 'Y2Q',
          attestationObject: 'YW8',
          transports: ['AUTHENTICATOR_TRANSPORT_INTERNAL'],
        },
      }) as never,
    assert: async (_challenge, allow) => {
      asked.push(allow)
      return assertion
    },
  }
}

function passkeyBackend(status: () => unknown, onLogin: () => void) {
  return fakeClient({
    getStatus: () => ({ ok: true, result: status() }),
    passkeyLoginBegin: (p) => {
      const id = (p as { credentialId?: string }).credentialId
      return { ok: true, result: { challenge: 'Y2g', allowCredentials: id ? [id] : [] } }
    },
    passkeyLoginFinish: () => {
      onLogin()
      return { ok: true, result: loggedIn.session }
    },
    recoveryFinish: () => ({ ok: true, result: { authenticatorIds: ['auth-1'], email: 'alice@example.test' } }),
    listAccounts: () => ({ ok: true, result: wallets }),
  })
}

describe('popup: the account the user means', () => {
  it('unlocks with the last account passkey first, asking for that credential only', async () => {
    let session = false
    const last = { v: 1, method: 'passkey', email: 'alice@example.test', hasPasskey: true, credentialId: 'Y3JlZEE' }
    const client = passkeyBackend(
      () => (session ? loggedIn : { ...loggedOut, lastLogin: last }),
      () => (session = true),
    )
    const webauthn = fakeWebauthn()
    render(<App client={client} webauthn={webauthn} />)
    await screen.findByRole('heading', { name: 'Unlock Sigil' })
    expect(screen.getByText('Welcome back, alice@example.test.')).toBeTruthy()
    const buttons = screen.getAllByRole('button').map((b) => b.textContent)
    expect(buttons.indexOf('Unlock with passkey')).toBeLessThan(buttons.indexOf('Email'))
    fireEvent.click(screen.getByRole('button', { name: 'Unlock with passkey' }))
    await screen.findByRole('heading', { name: 'Accounts' })
    expect(client.calls).toContainEqual(['passkeyLoginBegin', { credentialId: 'Y3JlZEE' }])
    expect(webauthn.asked).toEqual([['Y3JlZEE']])
    expect(client.calls.some(([m]) => m === 'otpStart')).toBe(false)
  })

  it('pre-fills the last email when email is the way back, and offers no passkey unlock without one', async () => {
    const last = { v: 1, method: 'email', email: 'bob@example.test', hasPasskey: false }
    const client = passkeyBackend(
      () => ({ ...loggedOut, lastLogin: last }),
      () => {},
    )
    render(<App client={client} webauthn={fakeWebauthn()} />)
    await screen.findByRole('heading', { name: 'Log in or sign up' })
    expect((screen.getByLabelText('Email address') as HTMLInputElement).value).toBe('bob@example.test')
    expect(screen.queryByRole('button', { name: 'Unlock with passkey' })).toBeNull()
  })

  it('an email login of an account with a passkey still offers the passkey, for any credential', async () => {
    let session = false
    const last = { v: 1, method: 'email', email: 'carol@example.test', hasPasskey: true }
    const client = passkeyBackend(
      () => (session ? loggedIn : { ...loggedOut, lastLogin: last }),
      () => (session = true),
    )
    const webauthn = fakeWebauthn()
    render(<App client={client} webauthn={webauthn} />)
    fireEvent.click(await screen.findByRole('button', { name: 'Unlock with passkey' }))
    await screen.findByRole('heading', { name: 'Accounts' })
    expect(client.calls).toContainEqual(['passkeyLoginBegin', {}])
    expect((webauthn.asked[0] ?? ['x']).length).toBe(0)
  })

  it('recovery logs in with the passkey it just registered, and shows the recovered email and first address', async () => {
    let session = false
    const client = passkeyBackend(
      () => (session ? loggedIn : { ...loggedOut, pendingRecovery: { email: 'alice@example.test' } }),
      () => (session = true),
    )
    const webauthn = fakeWebauthn()
    render(<App client={client} webauthn={webauthn} />)
    fireEvent.click(await screen.findByRole('button', { name: 'Lost your passkey? Recover by email' }))
    fireEvent.input(await screen.findByLabelText('Recovery code'), { target: { value: 'abc123' } })
    fireEvent.click(screen.getByRole('button', { name: 'Add a new passkey and log in' }))
    const notice = await screen.findByTestId('recovered-account')
    expect(notice.textContent).toBe(`Recovered alice@example.test · ${ADDRESS}`)
    expect(client.calls).toContainEqual(['passkeyLoginBegin', { credentialId: 'Y3JlZEE' }])
    expect(webauthn.asked).toEqual([['Y3JlZEE']])
  })

  it('names the site waiting for a login', async () => {
    const client = passkeyBackend(
      () => ({ ...loggedOut, loginWanted: ['http://dapp.example'] }),
      () => {},
    )
    render(<App client={client} webauthn={fakeWebauthn()} />)
    await waitFor(() =>
      expect(screen.getByTestId('login-wanted').textContent).toBe('http://dapp.example wants to connect. Log in to continue.'),
    )
  })
})
