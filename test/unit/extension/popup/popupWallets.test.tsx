// @vitest-environment happy-dom
/**
 * Add wallet (a phrase checked before it is sent, the field cleared once sent) and Export (a
 * warning first, the wallet password confirmed when the last login is old, the secret masked until
 * Reveal and gone when the screen closes), with a fake background client.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { ExportSecret } from '@/src/extension/popup/screens/ExportSecret'
import { WalletAdd, phraseProblem } from '@/src/extension/popup/screens/WalletAdd'
import { fakeClient } from '../fakePopupClient'

afterEach(cleanup)

const ABANDON = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'
const noop = () => {}

describe('add wallet', () => {
  it('names the problem of a phrase without repeating it', () => {
    expect(phraseProblem('abandon abandon')).toBe('Enter 12 or 24 words (2 so far).')
    expect(phraseProblem(ABANDON.replace('about', 'abuot'))).toBe('Word 12 is not a seed-phrase word.')
    expect(phraseProblem('abandon '.repeat(12))).toMatch(/do not form a valid seed phrase/)
    expect(phraseProblem(` ${ABANDON.toUpperCase()} `)).toBeNull()
  })

  it('sends nothing for a bad phrase; sends a good one and clears the field', async () => {
    let done = 0
    const client = fakeClient<any>({ importWallet: () => ({ ok: true, result: { walletId: 'w9', addresses: [] } }) })
    render(<WalletAdd client={client} onDone={() => done++} onBack={noop} onSessionLost={noop} />)
    fireEvent.click(screen.getByRole('button', { name: 'Import seed phrase' }))
    fireEvent.input(screen.getByLabelText('Wallet name'), { target: { value: 'Cold' } })
    const phrase = screen.getByLabelText(/^Seed phrase/) as HTMLTextAreaElement
    fireEvent.input(phrase, { target: { value: 'abandon '.repeat(12) } })
    fireEvent.click(screen.getByRole('button', { name: 'Import' }))
    await screen.findByText(/do not form a valid seed phrase/)
    expect(client.calls).toEqual([])
    fireEvent.input(phrase, { target: { value: ABANDON } })
    fireEvent.click(screen.getByRole('button', { name: 'Import' }))
    await waitFor(() => expect(done).toBe(1))
    expect(client.calls).toEqual([['importWallet', { walletName: 'Cold', mnemonic: ABANDON }]])
    expect(phrase.value).toBe('')
  })
})

describe('export', () => {
  it('asks for the wallet password when the login is old, then shows the phrase masked until Reveal', async () => {
    let confirmed = false
    const client = fakeClient<any>({
      exportSecret: () =>
        confirmed
          ? { ok: true, result: { secret: ABANDON, kind: 'mnemonic' } }
          : { ok: false, error: { code: 'REAUTH_REQUIRED', message: 'Confirm it is you first.' } },
      passwordStatus: () => ({ ok: true, result: { hasPassword: true, username: 'a', retryAfterMs: 0, offer: false } }),
      confirmPassword: () => {
        confirmed = true
        return { ok: true, result: { authenticatedAt: 1 } }
      },
    })
    const view = render(
      <ExportSecret client={client} what={{ kind: 'wallet', walletId: 'w1', label: 'Cold' }} onBack={noop} onSessionLost={noop} />,
    )
    expect(screen.getByRole('note').textContent).toContain('Anyone with this seed phrase can take your funds.')
    fireEvent.click(screen.getByRole('button', { name: 'I understand, export' }))
    const password = (await screen.findByLabelText(/^Wallet password/)) as HTMLInputElement
    fireEvent.input(password, { target: { value: 'correct horse' } })
    fireEvent.click(screen.getByRole('button', { name: 'Confirm and export' }))
    const secret = await screen.findByTestId('secret')
    expect(secret.textContent).not.toContain('abandon')
    fireEvent.click(screen.getByRole('button', { name: 'Reveal' }))
    expect(secret.textContent).toBe(ABANDON)
    expect(client.calls.map(([m]) => m)).toEqual(['exportSecret', 'passwordStatus', 'confirmPassword', 'exportSecret'])
    expect(client.calls[2]).toEqual(['confirmPassword', { password: 'correct horse' }])
    view.unmount()
    expect(document.body.textContent).not.toContain('abandon')
  })

  it('without a wallet password, says to log in again', async () => {
    const client = fakeClient<any>({
      exportSecret: () => ({ ok: false, error: { code: 'REAUTH_REQUIRED', message: 'Confirm it is you first.' } }),
      passwordStatus: () => ({ ok: true, result: { hasPassword: false, username: null, retryAfterMs: 0, offer: true } }),
    })
    render(
      <ExportSecret client={client} what={{ kind: 'account', address: '0xabc', label: 'Account 1' }} onBack={noop} onSessionLost={noop} />,
    )
    fireEvent.click(screen.getByRole('button', { name: 'I understand, export' }))
    expect((await screen.findByTestId('reauth')).textContent).toMatch(/log in again/)
    expect(screen.queryByLabelText(/^Wallet password/)).toBeNull()
  })
})
