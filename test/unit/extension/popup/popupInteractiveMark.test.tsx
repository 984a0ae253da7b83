// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { App, INTERACTIVE_MARK } from '@/src/extension/popup/App'
import type { PopupClient } from '@/src/extension/popup/client'

afterEach(cleanup)

const loggedOut = {
  loggedIn: false,
  extensionId: 'abcdefgh',
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
  lastLogin: null,
  loginWanted: [],
}

describe('popup interactive mark (bench/extension.ts)', () => {
  it('is set once, only after the status reply has rendered', async () => {
    performance.clearMarks(INTERACTIVE_MARK)
    let reply: (v: unknown) => void = () => {}
    const noPassword = { ok: true, result: { hasPassword: false, username: null, retryAfterMs: 0, offer: false } }
    const client = {
      call: (method: string) => (method === 'getStatus' ? new Promise((r) => (reply = r)) : Promise.resolve(noPassword)),
    } as unknown as PopupClient
    render(<App client={client} />)
    expect(performance.getEntriesByName(INTERACTIVE_MARK)).toHaveLength(0)
    reply({ ok: true, result: loggedOut })
    await screen.findByText('Not signed in')
    expect(performance.getEntriesByName(INTERACTIVE_MARK)).toHaveLength(1)
    cleanup()
    render(<App client={{ call: async () => ({ ok: true, result: loggedOut }) } as unknown as PopupClient} />)
    await screen.findByText('Not signed in')
    expect(performance.getEntriesByName(INTERACTIVE_MARK)).toHaveLength(1)
  })
})
