/** Service identity documents: signature, pinned key and origin checks, fingerprints. */
import { describe, expect, it } from 'vitest'
import { bytesToHex } from '@/src/crypto/encoding'
import { generateP256KeyPair, p256PublicKeyFromPrivate } from '@/src/crypto/p256'
import { originOf, serviceFingerprint, signServiceIdentity, verifyServiceIdentity } from '@/src/crypto/serviceIdentity'

const key = generateP256KeyPair()
const pub = bytesToHex(p256PublicKeyFromPrivate(key.privateKey, false))
const statement = {
  v: 1 as const,
  kind: 'sigil-service-identity' as const,
  origins: ['http://127.0.0.1:8787', 'https://kms.example'],
  keys: { identity: pub, signer: pub, notarizer: pub },
  issuedAt: 1,
}

describe('service identity', () => {
  const doc = signServiceIdentity(statement, key.privateKey)

  it('verifies for a listed origin, with or without the pinned key', () => {
    expect(verifyServiceIdentity(doc, { url: 'http://127.0.0.1:8787' })).toMatchObject({ ok: true, statement })
    expect(verifyServiceIdentity(doc, { url: 'https://kms.example/some/path', pinnedKey: pub.toUpperCase() }).ok).toBe(true)
  })

  it('refuses another origin, another pinned key, a changed statement, a foreign signature, junk', () => {
    expect(verifyServiceIdentity(doc, { url: 'http://127.0.0.1:8788' })).toEqual({ ok: false, reason: 'IDENTITY_ORIGIN_MISMATCH' })
    expect(verifyServiceIdentity(doc, { url: 'http://kms.example' })).toEqual({ ok: false, reason: 'IDENTITY_ORIGIN_MISMATCH' })
    const other = bytesToHex(p256PublicKeyFromPrivate(generateP256KeyPair().privateKey, false))
    expect(verifyServiceIdentity(doc, { url: 'http://127.0.0.1:8787', pinnedKey: other })).toEqual({
      ok: false,
      reason: 'IDENTITY_KEY_MISMATCH',
    })
    const widened = { ...doc, statement: doc.statement.replace('https://kms.example', 'http://127.0.0.1:9999') }
    expect(verifyServiceIdentity(widened, { url: 'http://127.0.0.1:9999' })).toEqual({ ok: false, reason: 'IDENTITY_SIGNATURE_INVALID' })
    const foreign = signServiceIdentity(statement, generateP256KeyPair().privateKey)
    expect(verifyServiceIdentity(foreign, { url: 'http://127.0.0.1:8787' })).toEqual({ ok: false, reason: 'IDENTITY_MALFORMED' })
    expect(verifyServiceIdentity({ ...doc, signature: 'zz' }, { url: 'http://127.0.0.1:8787' })).toEqual({
      ok: false,
      reason: 'IDENTITY_MALFORMED',
    })
    expect(verifyServiceIdentity(null, { url: 'http://127.0.0.1:8787' })).toEqual({ ok: false, reason: 'IDENTITY_MALFORMED' })
    expect(verifyServiceIdentity({ ...doc, statement: '{"v":2}' }, { url: 'http://127.0.0.1:8787' })).toEqual({
      ok: false,
      reason: 'IDENTITY_MALFORMED',
    })
  })

  it('fingerprints are 8 groups of 4 upper-case hex, stable per key', () => {
    expect(serviceFingerprint(pub)).toMatch(/^[0-9A-F]{4}( [0-9A-F]{4}){7}$/)
    expect(serviceFingerprint(pub)).toBe(serviceFingerprint(pub))
    expect(serviceFingerprint(pub)).not.toBe(
      serviceFingerprint(bytesToHex(p256PublicKeyFromPrivate(generateP256KeyPair().privateKey, false))),
    )
    expect(originOf('https://a.example:443/x')).toBe('https://a.example')
    expect(originOf('not a url')).toBeNull()
  })
})
