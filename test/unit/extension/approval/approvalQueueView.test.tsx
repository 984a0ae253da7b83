// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { ApprovalApp, waitingText } from '@/src/extension/approval/ApprovalApp'
import type { ApprovalDetails } from '@/src/extension/protocol/approvalView'
import type { PopupClient } from '@/src/extension/popup/client'

const A = '11111111-2222-4333-8444-555555555555'
const B = '22222222-2222-4333-8444-555555555555'
const C = '33333333-2222-4333-8444-555555555555'
const ME = '0x4242424242424242424242424242424242424242'

const request = (id: string, origin: string, text: string): ApprovalDetails => ({
  id,
  origin,
  method: 'personal_sign',
  view: { kind: 'message', address: ME, text, hex: '0x', byteLength: text.length },
  expiresAt: 0,
  names: { [ME]: 'Account 2' },
})

/** A background holding a queue of requests: answering the shown one moves on to the next. */
function queueClient(requests: ApprovalDetails[]) {
  const calls: Array<[string, any]> = []
  const pending = new Map(requests.map((r) => [r.id, r]))
  const order = requests.map((r) => r.id)
  const shown = () => order.find((id) => pending.has(id)) ?? null
  const c: PopupClient = {
    call: (async (method: string, params: any) => {
      calls.push([method, params])
      if (method === 'approvalGet') {
        const r = pending.get(params.id)
        return r ? { ok: true, result: r } : { ok: false, error: { code: 'INVALID_ARGUMENT', message: 'gone' } }
      }
      if (method === 'approvalResolve') {
        pending.delete(params.id)
        return { ok: true, result: { settled: true } }
      }
      if (method === 'approvalShown') {
        const id = pending.has(params.id) ? params.id : shown()
        return { ok: true, result: { id, waiting: id === null ? 0 : pending.size - 1 } }
      }
      if (method === 'approvalRejectAll') {
        const n = pending.size
        pending.clear()
        return { ok: true, result: { rejected: n } }
      }
      throw new Error(`unexpected ${method}`)
    }) as PopupClient['call'],
  }
  return { c, calls, pending }
}

afterEach(() => cleanup())

describe('approval window: the request queue', () => {
  it('counter text', () => {
    expect([0, 1, 2].map(waitingText)).toEqual(['', '1 more request waiting', '2 more requests waiting'])
  })

  it('shows each request in turn in the same window, with the counter, re-armed, named account; closes after the last', async () => {
    const { c, calls } = queueClient([
      request(A, 'https://one.example', 'first'),
      request(B, 'https://two.example', 'second'),
      request(C, 'https://one.example', 'third'),
    ])
    let closed = 0
    render(<ApprovalApp client={c} id={A} closeWindow={() => closed++} />)
    for (const [id, text, waiting] of [
      [A, 'first', '2 more requests waiting'],
      [B, 'second', '1 more request waiting'],
      [C, 'third', ''],
    ] as const) {
      await screen.findByText(text)
      await waitFor(() => expect(screen.getByTestId('approval-queue-count').textContent).toBe(waiting))
      expect(screen.getByTestId('approval-queue-count').getAttribute('aria-live')).toBe('polite')
      expect(screen.getByTestId('approval-account-name').textContent).toBe('Account 2')
      const approve = screen.getByRole('button', { name: 'Approve' }) as HTMLButtonElement
      expect(approve.disabled).toBe(true) // each request is armed anew
      await waitFor(() => expect(approve.disabled).toBe(false))
      fireEvent.click(approve)
      await waitFor(() => expect(calls).toContainEqual(['approvalResolve', { id, approved: true }]))
    }
    await waitFor(() => expect(closed).toBe(1))
    expect(calls.filter(([m]) => m === 'approvalResolve').map(([, p]) => p.id)).toEqual([A, B, C])
    expect(screen.getByTestId('approval-result').textContent).toBe('Approved.')
  })

  it('"Reject all" rejects the queue through the shown id and closes the window', async () => {
    const { c, calls, pending } = queueClient([request(A, 'https://one.example', 'first'), request(B, 'https://two.example', 'second')])
    let closed = 0
    render(<ApprovalApp client={c} id={A} closeWindow={() => closed++} />)
    await screen.findByText('first')
    fireEvent.click(await screen.findByRole('button', { name: 'Reject all (2)' }))
    await waitFor(() => expect(closed).toBe(1))
    expect(calls).toContainEqual(['approvalRejectAll', { id: A }])
    expect(pending.size).toBe(0)
    expect(screen.getByTestId('approval-result').textContent).toBe('Rejected 2 requests.')
    expect(calls.some(([m]) => m === 'approvalResolve')).toBe(false)
  })

  it('a request settled elsewhere (timed out) gives way to the next one', async () => {
    const { c, pending } = queueClient([request(A, 'https://one.example', 'first'), request(B, 'https://two.example', 'second')])
    render(<ApprovalApp client={c} id={A} closeWindow={() => {}} />)
    await screen.findByText('first')
    pending.delete(A)
    await screen.findByText('second', undefined, { timeout: 3000 })
    expect(screen.getByTestId('approval-origin').textContent).toContain('two.example')
  })
})
