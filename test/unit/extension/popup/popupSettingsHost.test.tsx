// @vitest-environment happy-dom
/** Settings asks for host access before checking a service that is not on loopback. */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import type { PopupClient } from '@/src/extension/popup/client'
import { neededOrigins } from '@/src/extension/popup/hostAccess'
import { SettingsScreen } from '@/src/extension/popup/screens/Settings'

afterEach(cleanup)

const settings = {
  apiBaseUrl: 'http://127.0.0.1:8787',
  relayUrl: 'http://127.0.0.1:8787/auth',
  autoLockMinutes: 15,
  sessionSeconds: 900,
  identityKey: '04ab',
}
const service = { fingerprint: 'AAAA BBBB CCCC DDDD EEEE FFFF 0000 1111', locked: false }

function setup(granted: boolean) {
  const calls: string[] = []
  const asked: string[][] = []
  const client = {
    call: async (method: string) => {
      calls.push(method)
      return { ok: true, result: { fingerprint: service.fingerprint, samePinnedKey: false } }
    },
  } as unknown as PopupClient
  const request = async (origins: string[]) => {
    asked.push(origins)
    return granted
  }
  render(
    <SettingsScreen
      client={client}
      settings={settings}
      service={service}
      extensionId="x"
      loggedIn={false}
      onSaved={() => {}}
      onEnded={() => {}}
      requestHostAccess={request}
    />,
  )
  const check = (api: string, relay: string) => {
    fireEvent.input(screen.getByLabelText('Service URL'), { target: { value: api } })
    fireEvent.input(screen.getByLabelText('Relay URL'), { target: { value: relay } })
    fireEvent.click(screen.getByRole('button', { name: 'Check service' }))
  }
  return { calls, asked, check }
}

describe('Settings: host access for the service URL', () => {
  it('needs nothing for loopback, one pattern per https host', () => {
    expect(neededOrigins(['http://127.0.0.1:8787', 'http://localhost:1/auth'])).toEqual([])
    expect(neededOrigins(['https://kms.example/api', 'https://kms.example/auth'])).toEqual(['https://kms.example/*'])
  })

  it('refuses with a sentence when the browser prompt is declined, and never checks the service', async () => {
    const t = setup(false)
    t.check('https://kms.example', 'https://relay.example/auth')
    await screen.findByText(/^Sigil may not reach kms\.example and relay\.example: /)
    expect(t.asked).toEqual([['https://kms.example/*', 'https://relay.example/*']])
    expect(t.calls).toEqual([])
  })

  it('checks the service once access is granted; loopback asks nothing', async () => {
    const t = setup(true)
    t.check('https://kms.example', 'https://kms.example/auth')
    await waitFor(() => expect(t.calls).toEqual(['serviceProbe']))
    t.check('http://127.0.0.1:9000', 'http://127.0.0.1:9000/auth')
    await waitFor(() => expect(t.calls).toEqual(['serviceProbe', 'serviceProbe']))
    expect(t.asked).toEqual([['https://kms.example/*']])
  })
})
