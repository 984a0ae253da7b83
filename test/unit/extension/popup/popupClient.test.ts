import { describe, expect, it } from 'vitest'
import { createPopupClient } from '@/src/extension/popup/client'

describe('createPopupClient', () => {
  it('sends kind popup and returns typed results', async () => {
    const sent: unknown[] = []
    const client = createPopupClient(async (m) => {
      sent.push(m)
      return { ok: true, result: { loggedIn: false, extensionId: 'abc' } }
    })
    await expect(client.call('getStatus')).resolves.toEqual({ ok: true, result: { loggedIn: false, extensionId: 'abc' } })
    expect(sent).toEqual([{ kind: 'popup', method: 'getStatus' }])
  })

  it('sends params and passes failure messages through', async () => {
    const sent: unknown[] = []
    const client = createPopupClient(async (m) => {
      sent.push(m)
      return { ok: false, error: { code: 'NOT_LOGGED_IN', message: 'You are not logged in.' } }
    })
    await expect(client.call('approveActivity', { fingerprint: 'sha256:ab' })).resolves.toEqual({
      ok: false,
      error: { code: 'NOT_LOGGED_IN', message: 'You are not logged in.' },
    })
    expect(sent).toEqual([{ kind: 'popup', method: 'approveActivity', params: { fingerprint: 'sha256:ab' } }])
  })

  it('passes background error codes through', async () => {
    const client = createPopupClient(async () => ({ ok: false, error: { code: 'METHOD_NOT_FOUND' } }))
    await expect(client.call('ping')).resolves.toEqual({ ok: false, error: { code: 'METHOD_NOT_FOUND' } })
  })

  it('maps transport failures and malformed replies to INTERNAL', async () => {
    const internal = { ok: false, error: { code: 'INTERNAL' } }
    await expect(createPopupClient(() => Promise.reject(new Error('x'))).call('ping')).resolves.toEqual(internal)
    await expect(createPopupClient(async () => undefined).call('ping')).resolves.toEqual(internal)
    await expect(createPopupClient(async () => ({ ok: true })).call('ping')).resolves.toEqual(internal)
    await expect(createPopupClient(async () => ({ ok: false, error: { code: 'NOPE' } })).call('ping')).resolves.toEqual(internal)
  })
})
