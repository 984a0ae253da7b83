import { DEV_SERVICE_IDENTITY_KEY } from '@/src/api/serviceIdentity'
import { serviceFingerprint } from '@/src/crypto/serviceIdentity'
import { describe, expect, it, vi } from 'vitest'
import { routeDappRpc, routeMessage, routePopup, type RouterContext, type Sender } from '@/src/extension/background/router'
import { createBackgroundState } from '@/src/extension/background/state'
import { createCore } from '@/src/extension/background/core'
import { fakeDeps } from '../fakeDeps'

const EXT_ID = 'enibeleniamgnfhbmpkkldfacbjikdfa'
const BASE = `chrome-extension://${EXT_ID}/`

function ctx(): RouterContext {
  return { state: createBackgroundState(), extensionId: EXT_ID, extensionBaseUrl: BASE, core: createCore(fakeDeps().deps) }
}
const page: Sender = { id: EXT_ID, url: 'https://dapp.example/app?x=1', origin: 'https://dapp.example', tab: { id: 7 } }
const popup: Sender = { id: EXT_ID, url: `${BASE}popup.html` }
const rpc = (method: string, params?: unknown) => ({ kind: 'dapp-rpc', id: 1, method, ...(params === undefined ? {} : { params }) })
const call = (method: string, params?: unknown) => ({ kind: 'popup', method, ...(params === undefined ? {} : { params }) })

describe('dApp table', () => {
  it('eth_chainId answers 0x1 and net_version 1', async () => {
    const c = ctx()
    expect(await routeDappRpc(rpc('eth_chainId'), page, c)).toEqual({ result: '0x1' })
    expect(await routeDappRpc(rpc('eth_chainId', []), page, c)).toEqual({ result: '0x1' })
    expect(await routeDappRpc(rpc('net_version'), page, c)).toEqual({ result: '1' })
  })

  it('eth_chainId follows the chain state', async () => {
    const c = ctx()
    c.state.chain.chainId = '0x89'
    expect(await routeDappRpc(rpc('eth_chainId'), page, c)).toEqual({ result: '0x89' })
    expect(await routeDappRpc(rpc('net_version'), page, c)).toEqual({ result: '137' })
  })

  it('eth_accounts and wallet_getPermissions are empty without a session', async () => {
    expect(await routeDappRpc(rpc('eth_accounts'), page, ctx())).toEqual({ result: [] })
    expect(await routeDappRpc(rpc('wallet_getPermissions'), page, ctx())).toEqual({ result: [] })
  })

  it('refuses unknown methods with 4200, including prototype names', async () => {
    for (const m of ['eth_foo', 'toString', 'constructor', 'hasOwnProperty', 'ping', 'getStatus']) {
      expect(await routeDappRpc(rpc(m), page, ctx())).toEqual({ error: { code: 4200, message: `Unsupported method: ${m}` } })
    }
  })

  it('answers 4100 to eth_requestAccounts and every signing method', async () => {
    const addr = '0x' + 'ab'.repeat(20)
    const cases: Array<[string, unknown]> = [
      ['eth_requestAccounts', undefined],
      ['personal_sign', ['0x68656c6c6f', addr]],
      ['eth_sign', [addr, '0xdeadbeef']],
      ['eth_signTypedData_v4', [addr, '{"types":{}}']],
      ['eth_sendTransaction', [{ from: addr, to: addr, value: '0x1' }]],
    ]
    for (const [m, p] of cases) {
      const reply = await routeDappRpc(rpc(m, p), page, ctx())
      expect(reply).toEqual({ error: { code: 4100, message: 'Unauthorized: not logged in' } })
    }
  })

  it('refuses invalid params with -32602', async () => {
    const bad: Array<[string, unknown]> = [
      ['eth_chainId', ['extra']],
      ['eth_accounts', { a: 1 }],
      ['personal_sign', ['hello', '0x12']],
      ['eth_sign', []],
      ['eth_sendTransaction', [{ to: '0x' + '11'.repeat(20) }]],
      ['eth_sendTransaction', [{ from: '0x' + '11'.repeat(20), value: '0x01' }]],
    ]
    for (const [m, p] of bad) {
      const reply = await routeDappRpc(rpc(m, p), page, ctx())
      expect(reply).toEqual({ error: { code: -32602, message: `Invalid params for ${m}` } })
    }
  })

  it('refuses malformed envelopes with -32600', async () => {
    for (const msg of [
      { kind: 'dapp-rpc', id: 0, method: 'eth_chainId' },
      { kind: 'dapp-rpc', id: 1, method: 'eth chainId' },
      { kind: 'dapp-rpc', method: 'eth_chainId' },
    ]) {
      expect(await routeDappRpc(msg, page, ctx())).toMatchObject({ error: { code: -32600 } })
    }
  })

  it('requires a tab sender on an http(s) origin, read from sender only', async () => {
    const refused = { error: { code: 4100, message: 'Unauthorized: sender is not a web page' } }
    expect(await routeDappRpc(rpc('eth_chainId'), popup, ctx())).toEqual(refused)
    expect(await routeDappRpc(rpc('eth_chainId'), { ...page, id: 'other-extension' }, ctx())).toEqual(refused)
    const fileTab: Sender = { id: EXT_ID, url: 'file:///tmp/x.html', tab: {} }
    expect(await routeDappRpc(rpc('eth_chainId'), fileTab, ctx())).toEqual(refused)
    const urlOnly: Sender = { id: EXT_ID, url: 'http://127.0.0.1:9/p', tab: {} }
    expect(await routeDappRpc(rpc('eth_chainId'), urlOnly, ctx())).toEqual({ result: '0x1' })
    // an origin field inside the message is ignored (and does not make a non-tab sender acceptable)
    expect(await routeDappRpc({ ...rpc('eth_chainId'), origin: 'https://dapp.example' }, popup, ctx())).toEqual(refused)
  })
})

describe('popup table', () => {
  it('ping counts calls, getStatus reports the extension id', async () => {
    const c = ctx()
    expect(await routePopup(call('ping'), popup, c)).toEqual({ ok: true, result: { pong: 1 } })
    expect(await routePopup(call('ping'), popup, c)).toEqual({ ok: true, result: { pong: 2 } })
    expect(await routePopup(call('getStatus'), popup, c)).toMatchObject({
      ok: true,
      result: { loggedIn: false, extensionId: EXT_ID, session: null },
    })
  })

  it('refuses unknown methods with METHOD_NOT_FOUND', async () => {
    for (const m of ['eth_chainId', 'toString', '__proto__', 'unlock']) {
      expect(await routePopup(call(m), popup, ctx())).toEqual({ ok: false, error: { code: 'METHOD_NOT_FOUND' } })
    }
  })

  it('refuses invalid params', async () => {
    expect(await routePopup(call('ping', { n: 5 }), popup, ctx())).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } })
    expect(await routePopup({ kind: 'popup', method: 42 }, popup, ctx())).toEqual({ ok: false, error: { code: 'INVALID_ARGUMENT' } })
  })

  it('refuses popup methods from web pages and other extensions', async () => {
    const c = ctx()
    const refused = { ok: false, error: { code: 'ORIGIN_NOT_ALLOWED' } }
    expect(await routePopup(call('ping'), page, c)).toEqual(refused)
    expect(await routePopup(call('getStatus'), { id: EXT_ID, url: 'https://evil.example/', tab: {} }, c)).toEqual(refused)
    expect(await routePopup(call('ping'), { id: EXT_ID, url: `chrome-extension://${'a'.repeat(32)}/popup.html` }, c)).toEqual(refused)
    expect(await routePopup(call('ping'), {}, c)).toEqual(refused)
    expect(c.state.pongCount).toBe(0)
  })
})

describe('routeMessage', () => {
  it('dispatches by kind and ignores anything else', async () => {
    const c = ctx()
    expect(await routeMessage(rpc('eth_chainId'), page, c)).toEqual({ result: '0x1' })
    expect(await routeMessage(call('ping'), popup, c)).toEqual({ ok: true, result: { pong: 1 } })
    expect(routeMessage({ kind: 'other' }, popup, c)).toBeUndefined()
    expect(routeMessage('ping', popup, c)).toBeUndefined()
    expect(routeMessage(null, popup, c)).toBeUndefined()
  })
})

describe('popup table: sessions and validation', () => {
  it('refuses every session method when logged out, without any network call', async () => {
    const f = fakeDeps()
    const c = { state: createBackgroundState(), extensionId: EXT_ID, extensionBaseUrl: BASE, core: createCore(f.deps) }
    for (const [m, p] of [
      ['listAccounts', undefined],
      ['listActivities', undefined],
      ['approveActivity', { fingerprint: 'sha256:ab' }],
      ['rejectActivity', { fingerprint: 'sha256:ab' }],
      ['addAccount', { walletId: 'w' }],
      ['importWallet', { walletName: 'w', mnemonic: 'abandon' }],
      ['exportSecret', { kind: 'wallet', walletId: 'w' }],
      ['onRampStatus', { transactionId: 't' }],
    ] as const) {
      expect(await routePopup(call(m, p), popup, c)).toMatchObject({ ok: false, error: { code: 'NOT_LOGGED_IN' } })
    }
    expect(f.deps.fetch).not.toHaveBeenCalled()
  })

  it('validates inputs with zod before any handler runs', async () => {
    const f = fakeDeps()
    const c = { state: createBackgroundState(), extensionId: EXT_ID, extensionBaseUrl: BASE, core: createCore(f.deps) }
    const invalid = { ok: false, error: { code: 'INVALID_ARGUMENT' } }
    expect(await routePopup(call('otpStart', { otpType: 'OTP_TYPE_EMAIL', contact: 'not-an-email' }), popup, c)).toMatchObject(invalid)
    // in words, at the field
    expect(await routePopup(call('otpStart', { otpType: 'OTP_TYPE_SMS', contact: '12345' }), popup, c)).toEqual({
      ok: false,
      error: { code: 'INVALID_ARGUMENT', field: 'contact', message: 'Include the country code, e.g. +1 for the US: +14155550123.' },
    })
    expect(await routePopup(call('otpStart', { otpType: 'OTP_TYPE_FAX', contact: 'a@b.co' }), popup, c)).toMatchObject(invalid)
    expect(await routePopup(call('otpVerify', { code: '12 34' }), popup, c)).toMatchObject(invalid)
    expect(await routePopup(call('serviceProbe', { apiBaseUrl: 'javascript:alert(1)', relayUrl: 'http://x' }), popup, c)).toMatchObject(
      invalid,
    )
    // plain http: only on loopback
    expect(
      await routePopup(call('serviceProbe', { apiBaseUrl: 'http://kms.example', relayUrl: 'http://127.0.0.1/auth' }), popup, c),
    ).toMatchObject(invalid)
    expect(await routePopup(call('serviceConnect', { fingerprint: 'not one' }), popup, c)).toMatchObject(invalid)
    expect(await routePopup(call('savePreferences', { autoLockMinutes: 0 }), popup, c)).toMatchObject(invalid)
    // the URLs are not preferences: an attempt to slip them in changes nothing
    await routePopup(call('savePreferences', { autoLockMinutes: 5, apiBaseUrl: 'https://evil.example' }), popup, c)
    expect(await routePopup(call('getStatus'), popup, c)).toMatchObject({ result: { settings: { apiBaseUrl: 'http://127.0.0.1:8787' } } })
    expect(await routePopup(call('addAccount', { walletId: 'w', addressFormat: 'ADDRESS_FORMAT_ETHEREUM' }), popup, c)).toMatchObject(
      invalid,
    )
    expect(await routePopup(call('exportSecret', { kind: 'seed', walletId: 'w' }), popup, c)).toMatchObject(invalid)
    expect(
      await routePopup(
        call('passkeyLoginFinish', { authenticatorData: 'a b', clientDataJson: 'x', credentialId: 'x', signature: 'x' }),
        popup,
        c,
      ),
    ).toMatchObject(invalid)
    expect(f.deps.fetch).not.toHaveBeenCalled()
  })

  it('reports a missing pending step and unreachable relays with stable codes', async () => {
    const f = fakeDeps()
    const c = { state: createBackgroundState(), extensionId: EXT_ID, extensionBaseUrl: BASE, core: createCore(f.deps) }
    expect(await routePopup(call('otpVerify', { code: 'ABCDEF' }), popup, c)).toMatchObject({
      ok: false,
      error: { code: 'NO_PENDING_LOGIN' },
    })
    const reply = await routePopup(call('otpStart', { otpType: 'OTP_TYPE_EMAIL', contact: 'a@b.co' }), popup, c)
    expect(reply).toMatchObject({ ok: false, error: { code: 'NETWORK' } })
    // The first thing sent anywhere is the check of the pinned service's identity.
    expect(vi.mocked(f.deps.fetch).mock.calls[0]?.[0]).toBe('http://127.0.0.1:8787/.well-known/sigil-service')
  })

  it('saves preferences and getStatus reports them with the pinned fingerprint', async () => {
    const c = ctx()
    expect(await routePopup(call('savePreferences', { autoLockMinutes: 5 }), popup, c)).toMatchObject({
      ok: true,
      result: { apiBaseUrl: 'http://127.0.0.1:8787', autoLockMinutes: 5 },
    })
    expect(await routePopup(call('getStatus'), popup, c)).toMatchObject({
      ok: true,
      result: {
        settings: { apiBaseUrl: 'http://127.0.0.1:8787', autoLockMinutes: 5, identityKey: DEV_SERVICE_IDENTITY_KEY },
        service: { fingerprint: serviceFingerprint(DEV_SERVICE_IDENTITY_KEY), locked: false },
      },
    })
  })
})
