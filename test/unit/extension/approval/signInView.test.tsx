// @vitest-environment happy-dom
/**
 * The approval window's sign-in body (SignInView.tsx): "Sign in to <domain>", the account, the
 * statement, rows and resources as text, the exact text; a message for another site shows the red
 * panel and Approve waits for the override, which the answer then carries (`acknowledged: true`).
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { ApprovalApp } from '@/src/extension/approval/ApprovalApp'
import type { SignInView } from '@/src/extension/protocol/approvalView'
import type { PopupClient } from '@/src/extension/popup/client'

const ID = '11111111-2222-4333-8444-555555555555'
const ADDRESS = '0x4242424242424242424242424242424242424242'

function client(view: SignInView, answers: unknown[]): PopupClient {
  return {
    call: (async (name: string, params: unknown) => {
      if (name === 'approvalGet')
        return { ok: true, result: { id: ID, origin: 'https://dapp.example', method: 'personal_sign', view, expiresAt: 0 } }
      if (name === 'approvalResolve') answers.push(params)
      return { ok: true, result: name === 'approvalShown' ? { id: null, waiting: 0 } : { settled: true } }
    }) as PopupClient['call'],
  }
}

const view: SignInView = {
  kind: 'signIn',
  chain: 'ethereum',
  address: ADDRESS,
  domain: 'dapp.example',
  statement: '<b>Welcome</b> back',
  rows: [
    ['URI', 'https://dapp.example/login'],
    ['Version', '1'],
    ['Chain ID', '1'],
    ['Nonce', 'abcdef12345'],
  ],
  resources: ['https://dapp.example/terms'],
  mismatches: [],
  text: 'dapp.example wants you to sign in with your Ethereum account:\n…',
}

afterEach(cleanup)

describe('approval window: sign-in', () => {
  it('titles "Sign in to <domain>", shows the statement as text, the rows, resources and exact text; Approve needs no override', async () => {
    const answers: unknown[] = []
    render(<ApprovalApp client={client(view, answers)} id={ID} closeWindow={() => {}} />)
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Sign in to dapp.example')
    expect(screen.getByTestId('approval-account').textContent).toBe(ADDRESS)
    const statement = screen.getByTestId('signin-statement')
    expect(statement.textContent).toBe('<b>Welcome</b> back')
    expect(statement.querySelector('b')).toBeNull()
    expect(screen.getByTestId('signin-rows').textContent).toBe('URIhttps://dapp.example/loginVersion1Chain ID1Nonceabcdef12345')
    expect(screen.getByTestId('signin-resources').textContent).toBe('https://dapp.example/terms')
    expect(screen.getByTestId('signin-text').querySelector('pre')?.textContent).toBe(view.text)
    expect(screen.queryByTestId('signin-mismatch')).toBeNull()
    const approve = screen.getByRole('button', { name: 'Approve' }) as HTMLButtonElement
    await waitFor(() => expect(approve.disabled).toBe(false))
    fireEvent.click(approve)
    await waitFor(() => expect(answers).toEqual([{ id: ID, approved: true }]))
  })

  it('another site: the red panel names both, Approve stays disabled until the override, and the answer carries it', async () => {
    const answers: unknown[] = []
    const phishing: SignInView = {
      ...view,
      domain: 'bank.example',
      mismatches: [{ field: 'domain', stated: 'bank.example', site: 'https://dapp.example' }],
    }
    render(<ApprovalApp client={client(phishing, answers)} id={ID} closeWindow={() => {}} />)
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Sign in to bank.example')
    expect(screen.getByTestId('signin-mismatch').textContent).toContain(
      'This site (https://dapp.example) is asking you to sign in to bank.example. It may be trying to steal your login there.',
    )
    const approve = screen.getByRole('button', { name: 'Approve' }) as HTMLButtonElement
    await new Promise((r) => setTimeout(r, 600)) // past the arm delay
    expect(approve.disabled).toBe(true)
    fireEvent.click(screen.getByLabelText('I understand, sign in anyway'))
    await waitFor(() => expect(approve.disabled).toBe(false))
    fireEvent.click(approve)
    await waitFor(() => expect(answers).toEqual([{ id: ID, approved: true, acknowledged: true }]))
  })
})
