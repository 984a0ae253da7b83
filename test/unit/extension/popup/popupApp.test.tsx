// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { App } from '@/src/extension/popup/App'
import { fakeClient } from '../fakePopupClient'
import { storageSessionWatch } from '@/src/extension/popup/sessionWatch'
import type { Webauthn } from '@/src/extension/popup/webauthn'

afterEach(cleanup)

const settings = {
  apiBaseUrl: 'http://127.0.0.1:8787',
  relayUrl: 'http://127.0.0.1:8787/auth',
  autoLockMinutes: 15,
  sessionSeconds: 900,
  identityKey: '04ab',
}
const service = { fingerprint: 'AAAA BBBB CCCC DDDD EEEE FFFF 0000 1111', locked: false }
const loggedOut = {
  loggedIn: false,
  extensionId: 'abcdefgh',
  session: null,
  settings,
  service,
  pendingOtp: null,
  pendingRecovery: null,
  pendingPasskeySignup: null,
  lastEnd: null,
  lastOnRamp: null,
  lastLogin: null,
  loginWanted: [],
}
const loggedIn = {
  ...loggedOut,
  loggedIn: true,
  session: { organizationId: 'o', userId: 'u', username: 'alice@example.test', method: 'email', expiresAt: Date.now() + 60_000 },
}
const wallets = {
  wallets: [
    {
      walletId: 'w1',
      walletName: 'Default Wallet',
      accounts: [
        {
          walletAccountId: 'a1',
          address: '0x' + 'ab'.repeat(20),
          addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
          path: "m/44'/60'/0'/0/0",
          curve: 'CURVE_SECP256K1',
        },
        {
          walletAccountId: 'a2',
          address: 'bc1qexample',
          addressFormat: 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH',
          path: "m/84'/0'/0'/0/0",
          curve: 'CURVE_SECP256K1',
        },
      ],
    },
  ],
}

/** The same wallet as the account book lists it: one account (Ethereum and Solana at index 0), Bitcoin view only. */
const book = {
  groups: [
    {
      group: 'w1/0',
      walletId: 'w1',
      walletName: 'Default Wallet',
      kind: 'derived',
      index: 0,
      name: 'Account 1',
      named: false,
      hidden: false,
      addresses: [
        { walletAccountId: 'a1', address: '0x' + 'ab'.repeat(20), addressFormat: 'ADDRESS_FORMAT_ETHEREUM', path: "m/44'/60'/0'/0/0" },
        { walletAccountId: 'a3', address: 'So1example', addressFormat: 'ADDRESS_FORMAT_SOLANA', path: "m/44'/501'/0'/0'" },
      ],
    },
  ],
  other: [{ walletId: 'w1', walletName: 'Default Wallet', address: 'bc1qexample', addressFormat: 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH' }],
}

const noWebauthn: Webauthn = { register: () => Promise.reject(new Error('no')), assert: () => Promise.reject(new Error('no')) }

describe('popup App', () => {
  it('logs in by email OTP and shows accounts grouped per path index with a QR code; Bitcoin view only', async () => {
    let session = false
    const client = fakeClient({
      getStatus: () => ({ ok: true, result: session ? loggedIn : loggedOut }),
      otpStart: (p) => ({ ok: true, result: p }),
      otpVerify: () => {
        session = true
        return { ok: true, result: loggedIn.session }
      },
      accountBook: () => ({ ok: true, result: book }),
    })
    render(<App client={client} webauthn={noWebauthn} />)
    await waitFor(() => expect(document.getElementById('status')?.textContent).toBe('Not signed in'))
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Sigil')
    fireEvent.input(screen.getByLabelText('Email address'), { target: { value: ' alice@example.test ' } })
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }))
    await screen.findByRole('heading', { name: 'Enter your code' })
    expect(client.calls).toContainEqual(['otpStart', { otpType: 'OTP_TYPE_EMAIL', contact: 'alice@example.test' }])
    fireEvent.input(screen.getByLabelText('Code'), { target: { value: 'ABC123XYZ' } })
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }))
    await screen.findByRole('heading', { name: 'Wallet' })
    expect(client.calls).toContainEqual(['otpVerify', { code: 'ABC123XYZ' }])
    await screen.findByText('0xabab…abab')
    expect(screen.getByRole('listitem', { name: 'Account 1' })).toBeTruthy()
    expect(screen.getByRole('listitem', { name: 'Account 1 · Ethereum' })).toBeTruthy()
    expect(screen.getByRole('listitem', { name: 'Account 1 · Solana' })).toBeTruthy()
    // one primary action; paths, Rename, Hide and Export folded behind the account's "More"
    expect(screen.getByRole('button', { name: 'Send', exact: true }).classList.contains('primary')).toBe(true)
    expect(screen.getByRole('button', { name: 'Receive', exact: true }).classList.contains('primary')).toBe(false)
    expect(screen.queryByText("m/44'/60'/0'/0/0")).toBeNull()
    expect(screen.queryByRole('button', { name: 'Rename Account 1' })).toBeNull()
    const more = screen.getByRole('button', { name: 'More for Account 1' })
    expect(more.getAttribute('aria-expanded')).toBe('false')
    fireEvent.click(more)
    expect(more.getAttribute('aria-expanded')).toBe('true')
    const menu = document.getElementById(more.getAttribute('aria-controls') ?? '')
    expect(menu?.contains(screen.getByText("m/44'/60'/0'/0/0"))).toBe(true)
    expect(menu?.contains(screen.getByRole('button', { name: 'Rename Account 1' }))).toBe(true)
    expect(menu?.contains(screen.getByRole('button', { name: 'Hide Account 1' }))).toBe(true)
    fireEvent.keyDown(screen.getByRole('button', { name: 'Hide Account 1' }), { key: 'Escape' })
    expect(more.getAttribute('aria-expanded')).toBe('false')
    expect(document.activeElement).toBe(more)
    expect(document.querySelector('li.account-group svg.identicon')?.getAttribute('data-address')).toBe(`0x${'ab'.repeat(20)}`)
    // Bitcoin: listed view only, apart, with no Receive
    const other = screen.getByText('bc1qexample').closest('details')
    expect(other?.classList.contains('other-addresses')).toBe(true)
    expect(screen.queryByRole('button', { name: /Receive to .*Bitcoin/ })).toBeNull()
    expect(document.getElementById('status')?.textContent).toMatch(/^Signed in as alice@example.test/)
    fireEvent.click(screen.getByRole('button', { name: 'Receive to Account 1 on Solana' }))
    const qr = await screen.findByRole('img', { name: 'QR code of address So1example' })
    expect(qr.closest('.receive')?.querySelector('.full-address')?.textContent).toBe('So1example')
    expect(qr.querySelector('path')?.getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/)
  })

  it('after a wrong code, "Send a new code" sends one to the same address and clears the field', async () => {
    let attempts = 0
    const client = fakeClient({
      getStatus: () => ({ ok: true, result: loggedOut }),
      otpStart: (p) => ({ ok: true, result: p }),
      otpVerify: () => {
        attempts++
        return { ok: false, error: { code: 'INVALID_CODE', message: 'That code is wrong or has expired.', field: 'code' } }
      },
    })
    render(<App client={client} webauthn={noWebauthn} />)
    fireEvent.input(await screen.findByLabelText('Email address'), { target: { value: 'alice@example.test' } })
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }))
    await screen.findByRole('heading', { name: 'Enter your code' })
    expect(screen.getByText(/^No code\?/)).toBeTruthy()
    fireEvent.input(screen.getByLabelText('Code'), { target: { value: 'WRONG1' } })
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }))
    await screen.findByText(/^Wrong or expired code\?/)
    expect(attempts).toBe(1)
    fireEvent.click(screen.getByRole('button', { name: 'Send a new code' }))
    await screen.findByText('We sent a new code to alice@example.test. Earlier codes no longer work.')
    const starts = client.calls.filter(([m]) => m === 'otpStart')
    expect(starts).toEqual([
      ['otpStart', { otpType: 'OTP_TYPE_EMAIL', contact: 'alice@example.test' }],
      ['otpStart', { otpType: 'OTP_TYPE_EMAIL', contact: 'alice@example.test' }],
    ])
    expect((screen.getByLabelText('Code') as HTMLInputElement).value).toBe('')
  })

  it('an open popup notices a login made elsewhere (the login window) and a logout, without a reload', async () => {
    let session = false
    const client = fakeClient({
      getStatus: () => ({ ok: true, result: session ? loggedIn : loggedOut }),
      listAccounts: () => ({ ok: true, result: wallets }),
    })
    const listeners: Array<(changes: Record<string, unknown>) => void> = []
    const area = {
      onChanged: {
        addListener: (l: (changes: Record<string, unknown>) => void) => void listeners.push(l),
        removeListener: (l: (changes: Record<string, unknown>) => void) => void listeners.splice(listeners.indexOf(l), 1),
      },
    }
    const watch = storageSessionWatch(area)
    const view = render(<App client={client} webauthn={noWebauthn} watchSession={watch} />)
    await waitFor(() => expect(document.getElementById('status')?.textContent).toBe('Not signed in'))
    fireEvent.click(screen.getByRole('button', { name: 'Settings' })) // the logged-out settings: a login still opens the wallet
    const asked = () => client.calls.filter(([m]) => m === 'getStatus').length
    const before = asked()
    session = true
    for (const l of listeners) l({ 'sigil.pendingOtp': { newValue: {} } }) // not the session: no reload
    expect(asked()).toBe(before)
    for (const l of listeners) l({ 'sigil.session': { newValue: {} } })
    await screen.findByRole('heading', { name: 'Wallet' })
    session = false
    for (const l of listeners) l({ 'sigil.session': { oldValue: {} }, 'sigil.lastEnd': { newValue: { reason: 'logout' } } })
    await waitFor(() => expect(document.getElementById('status')?.textContent).toBe('Not signed in'))
    expect(listeners).toHaveLength(1)
    view.unmount()
    await waitFor(() => expect(listeners).toHaveLength(0))
  })

  it('passkey sign-up asks for an email, verifies the code, then creates the passkey', async () => {
    let session = false
    const reg = {
      challenge: 'Y2hhbGxlbmdl',
      attestation: {
        credentialId: 'aWQ',
        clientDataJson: 'Y2Q',
        attestationObject: 'YW8',
        transports: ['AUTHENTICATOR_TRANSPORT_INTERNAL'],
      },
    }
    const registered: unknown[] = []
    const webauthn: Webauthn = { register: async (u) => (registered.push(u), reg as never), assert: () => Promise.reject(new Error('no')) }
    const client = fakeClient({
      getStatus: () => ({ ok: true, result: session ? loggedIn : loggedOut }),
      passkeySignupEmailStart: (p) => ({ ok: true, result: { email: (p as { email: string }).email, verified: false } }),
      passkeySignupEmailVerify: () => ({ ok: true, result: { email: 'pat@example.test', verified: true, accountExists: false } }),
      passkeySignup: () => {
        session = true
        return { ok: true, result: loggedIn.session }
      },
      listAccounts: () => ({ ok: true, result: wallets }),
    })
    render(<App client={client} webauthn={webauthn} />)
    fireEvent.click(await screen.findByRole('button', { name: 'Passkey' }))
    expect(screen.getByText('Used to recover your account if you lose your passkey.')).toBeTruthy()
    fireEvent.input(screen.getByLabelText(/Email address/), { target: { value: 'pat@example.test' } })
    fireEvent.input(screen.getByLabelText('Name (optional)'), { target: { value: 'Pat' } })
    fireEvent.click(screen.getByRole('button', { name: 'Send verification code' }))
    fireEvent.input(await screen.findByLabelText('Verification code'), { target: { value: 'ABC123XYZ' } })
    fireEvent.click(screen.getByRole('button', { name: 'Verify email' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Create account with passkey' }))
    await screen.findByRole('heading', { name: 'Wallet' })
    expect(client.calls).toContainEqual(['passkeySignupEmailStart', { email: 'pat@example.test', userName: 'Pat' }])
    expect(client.calls).toContainEqual(['passkeySignupEmailVerify', { code: 'ABC123XYZ' }])
    expect(client.calls).toContainEqual([
      'passkeySignup',
      { authenticatorName: 'Sigil passkey', challenge: reg.challenge, attestation: reg.attestation },
    ])
    expect(registered).toEqual([{ name: 'pat@example.test', displayName: 'Pat' }])
  })

  it('passkey sign-up for an email that has an account offers the email-code login', async () => {
    const client = fakeClient({
      getStatus: () => ({ ok: true, result: { ...loggedOut, pendingPasskeySignup: { email: 'old@example.test', verified: false } } }),
      passkeySignupEmailVerify: () => ({ ok: true, result: { email: 'old@example.test', verified: true, accountExists: true } }),
      otpStart: (p) => ({ ok: true, result: p }),
    })
    render(<App client={client} webauthn={noWebauthn} />)
    fireEvent.input(await screen.findByLabelText('Verification code'), { target: { value: 'ABC123XYZ' } })
    fireEvent.click(screen.getByRole('button', { name: 'Verify email' }))
    await screen.findByText('An account with old@example.test already exists. Log in with an email code instead.')
    expect(client.calls.some(([m]) => m === 'passkeySignup')).toBe(false)
    fireEvent.click(screen.getByRole('button', { name: 'Log in with email code' }))
    await screen.findByRole('heading', { name: 'Enter your code' })
    expect(client.calls).toContainEqual(['otpStart', { otpType: 'OTP_TYPE_EMAIL', contact: 'old@example.test' }])
  })

  it('shows the background failure message in an alert', async () => {
    const client = fakeClient({
      getStatus: () => ({ ok: true, result: loggedOut }),
      otpStart: () => ({ ok: false, error: { code: 'NETWORK' } }),
    })
    render(<App client={client} webauthn={noWebauthn} />)
    fireEvent.input(await screen.findByLabelText('Email address'), { target: { value: 'a@b.co' } })
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }))
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toBe('The Sigil service is not answering. Try again in a moment.')
  })

  it('an SMS number without the country code shows the rule under the phone field, not under the form', async () => {
    const rule = 'Include the country code, e.g. +1 for the US: +14155550123.'
    const client = fakeClient({
      getStatus: () => ({ ok: true, result: loggedOut }),
      otpStart: () => ({ ok: false, error: { code: 'INVALID_ARGUMENT', message: rule, field: 'contact' } }),
    })
    render(<App client={client} webauthn={noWebauthn} />)
    fireEvent.click(await screen.findByRole('button', { name: 'SMS' }))
    const phone = await screen.findByLabelText(/^Phone number/)
    fireEvent.input(phone, { target: { value: '4155550123' } })
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }))
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toBe(rule)
    // the message sits in the phone field's wrapper, after the same input (not re-created), and nowhere else
    expect(alert.closest('.field-with-error')?.contains(phone)).toBe(true)
    expect(screen.getByLabelText(/^Phone number/)).toBe(phone)
    expect(screen.getAllByText(rule)).toHaveLength(1)
    // a failure about no field stays under the form
    cleanup()
    const down = fakeClient({
      getStatus: () => ({ ok: true, result: loggedOut }),
      otpStart: () => ({ ok: false, error: { code: 'NETWORK' } }),
    })
    render(<App client={down} webauthn={noWebauthn} />)
    fireEvent.click(await screen.findByRole('button', { name: 'SMS' }))
    fireEvent.input(await screen.findByLabelText(/^Phone number/), { target: { value: '+14155550123' } })
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }))
    expect((await screen.findByRole('alert')).closest('.field-with-error')).toBeNull()
  })

  it('approves a pending activity by fingerprint', async () => {
    let done = false
    const activity = (status: string) => ({
      id: 'act-1',
      type: 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS',
      title: 'Added an account',
      status,
      statusText: status.endsWith('NEEDED') ? 'Waiting for approval' : 'Done',
      fingerprint: 'sha256:aa',
      canApprove: status.endsWith('NEEDED'),
      canReject: status.endsWith('NEEDED'),
      createdAtMs: 1,
    })
    const client = fakeClient({
      getStatus: () => ({ ok: true, result: loggedIn }),
      listAccounts: () => ({ ok: true, result: wallets }),
      listActivities: () => ({
        ok: true,
        result: { activities: [activity(done ? 'ACTIVITY_STATUS_COMPLETED' : 'ACTIVITY_STATUS_CONSENSUS_NEEDED')] },
      }),
      approveActivity: () => {
        done = true
        return { ok: true, result: activity('ACTIVITY_STATUS_COMPLETED') }
      },
    })
    render(<App client={client} webauthn={noWebauthn} />)
    fireEvent.click(await screen.findByRole('button', { name: 'Activity' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Approve Added an account' }))
    await screen.findByText('Nothing to approve.')
    expect(screen.getByText('Done')).toBeTruthy()
    expect(screen.queryByText(/create wallet accounts|ACTIVITY_TYPE/i)).toBeNull()
    expect(client.calls).toContainEqual(['approveActivity', { fingerprint: 'sha256:aa' }])
  })

  it('shows the failure code and retries', async () => {
    const replies = [
      { ok: false, error: { code: 'INTERNAL' } },
      { ok: true, result: loggedOut },
    ]
    const client = fakeClient({ getStatus: () => replies.shift() })
    render(<App client={client} webauthn={noWebauthn} />)
    await waitFor(() => expect(document.getElementById('status')?.textContent).toBe('Background unavailable (INTERNAL)'))
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
    await waitFor(() => expect(document.getElementById('status')?.textContent).toBe('Not signed in'))
  })
})
