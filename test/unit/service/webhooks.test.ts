import { verifyTurnkeyWebhookSignature } from '@turnkey/crypto'
import { describe, expect, it } from 'vitest'
import { parseWebhookFilters } from '../../../src/api/webhooks.js'
import { bytesToHex, utf8Encode } from '../../../src/crypto/encoding.js'
import { backoffMs } from '../../../src/service/webhooks/dispatcher.js'
import { webhookSigner } from '../../../src/service/webhooks/signing.js'
import { checkDestination, isNonPublicAddress, parseWebhookUrl } from '../../../src/service/webhooks/urls.js'

describe('webhook destinations', () => {
  it('classifies loopback, private, link-local, CGNAT, unique-local, mapped and reserved addresses as non-public', () => {
    for (const ip of [
      '127.0.0.1',
      '127.255.0.9',
      '10.0.0.1',
      '172.16.5.4',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd12:3456::1',
      'fc00::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      'not an ip',
    ])
      expect(isNonPublicAddress(ip), ip).toBe(true)
    for (const ip of ['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(isNonPublicAddress(ip), ip).toBe(false)
  })

  it('takes http(s) URLs without credentials only', () => {
    expect(parseWebhookUrl('https://hooks.example.com/x?y=1').ok).toBe(true)
    expect(parseWebhookUrl('http://127.0.0.1:8080/x').ok).toBe(true)
    for (const bad of ['ftp://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'https://u:p@example.com/', 'example.com/x', ''])
      expect(parseWebhookUrl(bad).ok, bad).toBe(false)
  })

  it('outside dev mode refuses a name resolving to any private address; dev mode allows it', async () => {
    const url = new URL('https://rebind.example/hook')
    const mixed = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ]
    expect(await checkDestination(url, false, mixed)).toMatchObject({ ok: false })
    expect(await checkDestination(url, true, mixed)).toEqual({ ok: true })
    expect(await checkDestination(url, false, async () => [{ address: '93.184.215.14', family: 4 }])).toEqual({ ok: true })
    expect(
      await checkDestination(url, false, async () => {
        throw new Error('ENOTFOUND')
      }),
    ).toEqual({ ok: false, message: 'host does not resolve' })
    expect(await checkDestination(new URL('https://[::1]/'), false)).toMatchObject({ ok: false })
  })
})

describe('webhook filters', () => {
  it('parses the filters of each event type and refuses anything else', () => {
    expect(parseWebhookFilters('ACTIVITY_UPDATES', '')).toEqual({ ok: true, filters: {} })
    expect(parseWebhookFilters('ACTIVITY_UPDATES', '{"activityStatuses":["ACTIVITY_STATUS_FAILED"]}')).toEqual({
      ok: true,
      filters: { activityStatuses: ['ACTIVITY_STATUS_FAILED'] },
    })
    expect(parseWebhookFilters('SEND_TRANSACTION_STATUS_UPDATES', '{"txStatuses":["FAILED"],"caip2s":["eip155:1"]}').ok).toBe(true)
    for (const [type, json] of [
      ['ACTIVITY_UPDATES', '{'],
      ['ACTIVITY_UPDATES', 'null'],
      ['ACTIVITY_UPDATES', '"x"'],
      ['ACTIVITY_UPDATES', '{"txStatuses":["FAILED"]}'],
      ['SEND_TRANSACTION_STATUS_UPDATES', '{"txStatuses":["DONE"]}'],
      ['BALANCE_CONFIRMED_UPDATES', '{"anything":1}'],
    ] as const)
      expect(parseWebhookFilters(type, json).ok, `${type} ${json}`).toBe(false)
  })
})

describe('webhook signatures and retries', () => {
  it('signs as @turnkey/crypto verifies (hosted scheme), over the exact body', () => {
    const signer = webhookSigner(new Uint8Array(32).fill(7))
    const body = '{"id":"a","status":"ACTIVITY_STATUS_COMPLETED"}'
    const timestampMs = String(Date.now())
    const headers = {
      'X-Turnkey-Timestamp': timestampMs,
      'X-Turnkey-Event-Id': 'evt-1',
      'X-Turnkey-Signature-Key-Id': signer.keyId,
      'X-Turnkey-Signature-Algorithm': 'ed25519',
      'X-Turnkey-Signature-Version': 'v1',
      'X-Turnkey-Signature': signer.sign({ timestampMs, eventId: 'evt-1', body: utf8Encode(body) }),
    }
    const keys = [{ keyId: signer.keyId, publicKey: signer.publicKeyHex, algorithm: 'ed25519' as const }]
    expect(verifyTurnkeyWebhookSignature({ headers, body, verificationKeys: keys, maxTimestampAgeMs: 1000 }).ok).toBe(true)
    expect(verifyTurnkeyWebhookSignature({ headers, body: `${body} `, verificationKeys: keys, maxTimestampAgeMs: 1000 }).ok).toBe(false)
    expect(
      verifyTurnkeyWebhookSignature({
        headers: { ...headers, 'X-Turnkey-Event-Id': 'evt-2' },
        body,
        verificationKeys: keys,
        maxTimestampAgeMs: 1000,
      }).ok,
    ).toBe(false)
    const [jwk] = signer.jwks().keys
    expect(jwk?.kid).toBe(signer.keyId)
    expect(bytesToHex(Buffer.from(jwk?.x as string, 'base64url'))).toBe(signer.publicKeyHex)
  })

  it('backs off exponentially with jitter, capped', () => {
    expect(backoffMs(1, 1000, 300_000, () => 0.5)).toBe(1000)
    expect(backoffMs(2, 1000, 300_000, () => 0.5)).toBe(2000)
    expect(backoffMs(5, 1000, 300_000, () => 0.5)).toBe(16_000)
    expect(backoffMs(30, 1000, 300_000, () => 0.5)).toBe(300_000)
    expect(backoffMs(3, 1000, 300_000, () => 0)).toBe(3200)
    expect(backoffMs(3, 1000, 300_000, () => 1)).toBe(4800)
  })
})
