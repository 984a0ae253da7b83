// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { App } from '@/src/extension/popup/App'
import type { PopupClient } from '@/src/extension/popup/client'

afterEach(cleanup)

function clientReturning(...replies: Array<Awaited<ReturnType<PopupClient['call']>>>): PopupClient {
  return { call: async () => replies.shift() ?? { ok: false, error: { code: 'INTERNAL' } } } as PopupClient
}

describe('popup App', () => {
  it('renders the header, landmarks, status and extension id', async () => {
    render(<App client={clientReturning({ ok: true, result: { loggedIn: false, extensionId: 'abcdefgh' } })} />)
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Sigil')
    expect(screen.getByRole('banner')).toBeTruthy()
    expect(screen.getByRole('main')).toBeTruthy()
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Not signed in'))
    expect(screen.getByText('abcdefgh')).toBeTruthy()
  })

  it('shows the failure code and retries', async () => {
    render(
      <App
        client={clientReturning(
          { ok: false, error: { code: 'INTERNAL' } },
          { ok: true, result: { loggedIn: false, extensionId: 'id2' } },
        )}
      />,
    )
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Background unavailable (INTERNAL)'))
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
    await waitFor(() => expect(screen.getByText('id2')).toBeTruthy())
  })
})
