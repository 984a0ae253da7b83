/**
 * The origin matcher and the lists the service and relay build: outside production any Firefox
 * add-on origin (`moz-extension://<lower-case UUID>`, nothing else) may use the interface and the
 * relay; production answers only what the operator configured, where `moz-extension://*` may be
 * written; WebAuthn's check never takes the wildcard.
 */
import { describe, expect, it } from 'vitest'
import { EXTENSION_ORIGIN } from '../../../../src/api/identity'
import { relayAllowedOrigins } from '../../../../src/relay/options'
import { originAllowed, requestOriginAllowed } from '../../../../src/service/auth/origins'
import { ANY_FIREFOX_EXTENSION, allowedOriginsList, resolveConfig } from '../../../../src/service/config'

const UUID = '0f6b7a52-3c1d-4e5f-8a9b-0c1d2e3f4a5b'
const FIREFOX = `moz-extension://${UUID}`

const dev = resolveConfig({}).allowedOrigins
const production = resolveConfig({ NODE_ENV: 'production' }).allowedOrigins

describe('requestOriginAllowed (CORS and the relay)', () => {
  it('accepts any Firefox add-on origin outside production, for the service and the standalone relay', () => {
    expect(requestOriginAllowed(FIREFOX, dev)).toBe(true)
    expect(requestOriginAllowed('moz-extension://ffffffff-0000-4000-8000-000000000000', dev)).toBe(true)
    expect(requestOriginAllowed(FIREFOX, relayAllowedOrigins([], false))).toBe(true)
  })

  it('refuses Firefox add-on origins in production unless the operator wrote moz-extension://*', () => {
    expect(requestOriginAllowed(FIREFOX, production)).toBe(false)
    expect(requestOriginAllowed(FIREFOX, relayAllowedOrigins([], true))).toBe(false)
    const configured = resolveConfig({ NODE_ENV: 'production', SIGIL_ALLOWED_ORIGINS: 'https://app.example, moz-extension://*' })
    expect(requestOriginAllowed(FIREFOX, configured.allowedOrigins)).toBe(true)
    expect(requestOriginAllowed(FIREFOX, relayAllowedOrigins([ANY_FIREFOX_EXTENSION], true))).toBe(true)
    // one named add-on only
    const one = resolveConfig({ NODE_ENV: 'production', SIGIL_ALLOWED_ORIGINS: FIREFOX }).allowedOrigins
    expect(requestOriginAllowed(FIREFOX, one)).toBe(true)
    expect(requestOriginAllowed('moz-extension://ffffffff-0000-4000-8000-000000000000', one)).toBe(false)
  })

  it.each([
    ['no UUID', 'moz-extension://x'],
    ['a suffix after the UUID', `moz-extension://${UUID}.evil.com`],
    ['a port', `moz-extension://${UUID}:80`],
    ['a path', `moz-extension://${UUID}/popup.html`],
    ['a trailing slash', `moz-extension://${UUID}/`],
    ['upper-case hex', `moz-extension://${UUID.toUpperCase()}`],
    ['a UUID without dashes', `moz-extension://${UUID.replaceAll('-', '')}`],
    ['credentials', `moz-extension://user@${UUID}`],
    ['a leading space', ` ${FIREFOX}`],
    ['the wildcard itself', 'moz-extension://*'],
    ['another scheme', `chrome-extension://${UUID}`],
    ['a web page', `https://${UUID}.example`],
  ])('refuses a malformed Firefox origin (%s) even in development', (_why, origin) => {
    expect(requestOriginAllowed(origin, dev)).toBe(false)
  })

  it('keeps the other entries as they were: the extension, localhost on any port, exact configured origins', () => {
    expect(requestOriginAllowed(EXTENSION_ORIGIN, production)).toBe(true)
    expect(requestOriginAllowed('http://localhost:5173', dev)).toBe(true)
    expect(requestOriginAllowed('http://localhost:5173', production)).toBe(false)
    expect(requestOriginAllowed('https://evil.example', dev)).toBe(false)
  })
})

describe('originAllowed (WebAuthn clientDataJSON.origin)', () => {
  it('never takes the Firefox wildcard: a passkey cannot claim a moz-extension origin', () => {
    expect(dev).toContain(ANY_FIREFOX_EXTENSION)
    expect(originAllowed(FIREFOX, dev)).toBe(false)
    expect(originAllowed('moz-extension://*', dev)).toBe(false)
    expect(originAllowed(EXTENSION_ORIGIN, dev)).toBe(true)
    expect(originAllowed('http://localhost:8080', dev)).toBe(true)
  })
})

describe('SIGIL_ALLOWED_ORIGINS', () => {
  it('refuses any wildcard but moz-extension://*, naming the variable', () => {
    for (const bad of ['https://*.example', 'chrome-extension://*', '*', 'moz-extension://*.evil.com']) {
      expect(() => resolveConfig({ SIGIL_ALLOWED_ORIGINS: bad })).toThrow(
        /^invalid configuration: SIGIL_ALLOWED_ORIGINS: .*only moz-extension:\/\/\* may/,
      )
    }
  })
})

describe('the standalone relay’s --allowed-origins', () => {
  it('takes exact origins and the Firefox wildcard, and refuses any other wildcard naming its setting', () => {
    expect(allowedOriginsList(' https://app.example , moz-extension://* ', '--allowed-origins')).toEqual([
      'https://app.example',
      ANY_FIREFOX_EXTENSION,
    ])
    expect(() => allowedOriginsList('https://*.example', '--allowed-origins (SIGIL_RELAY_ALLOWED_ORIGINS)')).toThrow(
      'invalid configuration: --allowed-origins (SIGIL_RELAY_ALLOWED_ORIGINS): "https://*.example" holds a wildcard; only moz-extension://* may',
    )
  })
})
