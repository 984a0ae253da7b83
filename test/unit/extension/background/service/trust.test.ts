/**
 * verifyService's refusals (service/trust.ts): a relay that refuses the extension's origin (Firefox's
 * `moz-extension://<UUID>` is drawn per profile, so a production service allows it only when its operator does) is named as such,
 * with the origin to allow, instead of "no valid service identity".
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SigilError } from '@/src/api/errors'
import { RELAY_IDENTITY_PATH, SERVICE_IDENTITY_PATH } from '@/src/api/serviceIdentity'
import { bytesToHex } from '@/src/crypto/encoding'
import { generateP256KeyPair, p256PublicKeyFromPrivate } from '@/src/crypto/p256'
import { signServiceIdentity } from '@/src/crypto/serviceIdentity'
import { verifyService } from '@/src/extension/background/service/trust'

const SERVICE = 'http://127.0.0.1:8787'
const RELAY = `${SERVICE}/auth`
const key = generateP256KeyPair()
const pub = bytesToHex(p256PublicKeyFromPrivate(key.privateKey, false))
const identity = signServiceIdentity(
  { v: 1, kind: 'sigil-service-identity', origins: [SERVICE], keys: { identity: pub, signer: pub, notarizer: pub }, issuedAt: 1 },
  key.privateKey,
)

/** The service answers its identity; the relay answers `relay` (status and body). */
function serviceWithRelay(relay: { status: number; body: unknown }): typeof fetch {
  return async (input) => {
    const url = String(input)
    if (url === SERVICE + SERVICE_IDENTITY_PATH) return Response.json(identity)
    if (url === RELAY + RELAY_IDENTITY_PATH) return Response.json(relay.body, { status: relay.status })
    return new Response('not found', { status: 404 })
  }
}

const refusedOrigin = new SigilError('ORIGIN_NOT_ALLOWED', 'origin is not allowed to use this relay').toWire()

describe('verifyService', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('accepts a service whose relay republishes its identity', async () => {
    const v = await verifyService({ apiBaseUrl: SERVICE, relayUrl: RELAY }, serviceWithRelay({ status: 200, body: identity }))
    expect(v.keys.identity).toBe(pub)
  })

  it('a relay refusing the origin (403 ORIGIN_NOT_ALLOWED) is reported with the origin to allow', async () => {
    vi.stubGlobal('location', { origin: 'moz-extension://0f6b7a52-3c1e-4c43-9d4e-2f1f1a3c5b6d' })
    await expect(
      verifyService({ apiBaseUrl: SERVICE, relayUrl: RELAY }, serviceWithRelay({ status: 403, body: refusedOrigin })),
    ).rejects.toMatchObject({
      code: 'SERVICE_UNVERIFIED',
      message: `The relay at ${RELAY} does not accept this extension's origin moz-extension://0f6b7a52-3c1e-4c43-9d4e-2f1f1a3c5b6d: its operator must allow it (SIGIL_ALLOWED_ORIGINS). Nothing but this check was sent to it.`,
    })
  })

  it('any other refusal still reads as no valid identity', async () => {
    const other = new SigilError('RATE_LIMITED', 'too many requests, try again later').toWire()
    await expect(
      verifyService({ apiBaseUrl: SERVICE, relayUrl: RELAY }, serviceWithRelay({ status: 429, body: other })),
    ).rejects.toMatchObject({
      code: 'SERVICE_UNVERIFIED',
      message: `The relay at ${RELAY} publishes no valid service identity. Nothing but this check was sent to it.`,
    })
    await expect(
      verifyService(
        { apiBaseUrl: SERVICE, relayUrl: RELAY },
        serviceWithRelay({ status: 403, body: { code: 7, message: 'no', details: [] } }),
      ),
    ).rejects.toMatchObject({ message: expect.stringContaining('publishes no valid service identity') })
  })
})
