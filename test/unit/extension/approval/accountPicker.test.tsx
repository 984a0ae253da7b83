// @vitest-environment happy-dom
/** The connect window's account picker: what the user checks is what the answer carries, in order; none checked, no approval. */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { orderedChoice } from '@/src/extension/approval/AccountPicker'
import { ApprovalApp } from '@/src/extension/approval/ApprovalApp'
import type { ApprovalView } from '@/src/extension/protocol/approvalView'
import type { PopupClient } from '@/src/extension/popup/client'

const ID = '11111111-2222-4333-8444-555555555555'
const A = '0x1111111111111111111111111111111111111111'
const B = '0x2222222222222222222222222222222222222222'
const C = '0x3333333333333333333333333333333333333333'

const view: ApprovalView = {
  kind: 'connect',
  accounts: [
    { address: A, name: 'Account 1' },
    { address: B, name: 'Savings' },
    { address: C, name: 'Account 3' },
  ],
  selected: [B],
  chain: { chainId: '0x1', name: 'Ethereum' },
}

function client(): PopupClient & { calls: Array<[string, unknown]> } {
  const calls: Array<[string, unknown]> = []
  return {
    calls,
    call: (async (method: string, params?: unknown) => {
      calls.push([method, params])
      if (method === 'approvalGet')
        return { ok: true, result: { id: ID, origin: 'https://dapp.example', method: 'eth_requestAccounts', view, expiresAt: 0 } }
      return { ok: true, result: { settled: true } }
    }) as PopupClient['call'],
  }
}

const box = (address: string) => document.querySelector(`input[data-address="${address}"]`) as HTMLInputElement

afterEach(cleanup)

describe('connect window: account picker', () => {
  it('shows every account by name, the preselected one checked; Approve sends the checked ones, the preselected first', async () => {
    const c = client()
    render(<ApprovalApp client={c} id={ID} closeWindow={() => {}} />)
    await screen.findByText('Savings')
    expect([A, B, C].map((a) => box(a).checked)).toEqual([false, true, false])
    expect(screen.getByRole('group', { name: 'Ethereum accounts this site may see' })).toBeTruthy()
    fireEvent.click(box(A))
    const approve = screen.getByRole('button', { name: 'Approve' }) as HTMLButtonElement
    await waitFor(() => expect(approve.disabled).toBe(false))
    fireEvent.click(approve)
    await waitFor(() => expect(c.calls).toContainEqual(['approvalResolve', { id: ID, approved: true, accounts: [B, A] }]))
  })

  it('with nothing checked Approve is disabled and the window says to choose one; Reject sends no choice', async () => {
    const c = client()
    render(<ApprovalApp client={c} id={ID} closeWindow={() => {}} />)
    await screen.findByText('Savings')
    fireEvent.click(box(B))
    expect(screen.getByTestId('approval-account-none').textContent).toBe('Choose at least one account.')
    await new Promise((r) => setTimeout(r, 500))
    const approve = screen.getByRole('button', { name: 'Approve' }) as HTMLButtonElement
    expect(approve.disabled).toBe(true)
    fireEvent.click(approve)
    expect(c.calls.some(([m]) => m === 'approvalResolve')).toBe(false)
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }))
    await waitFor(() => expect(c.calls).toContainEqual(['approvalResolve', { id: ID, approved: false }]))
  })

  it('orderedChoice keeps the preselected order first, then the display order', () => {
    expect(orderedChoice(view.kind === 'connect' ? view.accounts : [], [C, B], new Set([A, B, C]))).toEqual([C, B, A])
    expect(orderedChoice(view.kind === 'connect' ? view.accounts : [], [C], new Set([B]))).toEqual([B])
  })
})
