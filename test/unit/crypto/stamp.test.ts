import { ApiKeyStamper, SignatureFormat } from '@turnkey/api-key-stamper'
import { verifyStampSignature } from '@turnkey/crypto'
import { p256 } from '@noble/curves/nist.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { ed25519 } from '@noble/curves/ed25519.js'
import { describe, expect, it } from 'vitest'
import { privateKeyToAccount } from 'viem/accounts'
import { SigilError } from '../../../src/api/errors.js'
import { base64UrlEncode, bytesToHex, hexToBytes, utf8Encode } from '../../../src/crypto/encoding.js'
import { generateP256KeyPair } from '../../../src/crypto/p256.js'
import {
  createApiKeyStamper,
  createP256WebCryptoKeyPair,
  createWebCryptoStamper,
  decodeStampHeader,
  encodeStampHeader,
  importP256PrivateKeyForSigning,
} from '../../../src/crypto/stamp.js'
import {
  eip191Digest,
  parseAttestedStamp,
  parseWebauthnStamp,
  verifyApiKeyStamp,
  verifyAttestedStampSignature,
} from '../../../src/crypto/verifyStamp.js'

const BODY = '{"organizationId":"c0ffee00-0000-4000-8000-000000000001","timestampMs":"1700000000000"}'
const body = utf8Encode(BODY)

function freshKey() {
  const kp = generateP256KeyPair()
  return { privateKeyHex: bytesToHex(kp.privateKey), publicKeyHex: bytesToHex(kp.publicKey), kp }
}

describe('createApiKeyStamper', () => {
  it('stamps verify with our verifier and with @turnkey/crypto verifyStampSignature', async () => {
    const k = freshKey()
    const s = await createApiKeyStamper({ privateKeyHex: k.privateKeyHex }).stamp(BODY)
    expect(s.stampHeaderName).toBe('X-Stamp')
    expect(verifyApiKeyStamp(s.stampHeaderValue, body)).toEqual({
      ok: true,
      publicKey: k.publicKeyHex,
      scheme: 'SIGNATURE_SCHEME_TK_API_P256',
    })
    const d = decodeStampHeader(s.stampHeaderValue)
    if (!d.ok) throw new Error('decode')
    expect(await verifyStampSignature(d.stamp.publicKey, d.stamp.signature, BODY)).toBe(true)
  })

  it('is byte-identical to @turnkey/api-key-stamper purejs for a fresh key', async () => {
    const k = freshKey()
    const ours = await createApiKeyStamper({ privateKeyHex: k.privateKeyHex }).stamp(BODY)
    const theirs = await new ApiKeyStamper({
      apiPublicKey: k.publicKeyHex,
      apiPrivateKey: k.privateKeyHex,
      runtimeOverride: 'purejs',
    }).stamp(BODY)
    expect(ours.stampHeaderValue).toBe(theirs.stampHeaderValue)
  })

  it('rejects a public key that does not match the private key', () => {
    const a = freshKey()
    const b = freshKey()
    expect(() => createApiKeyStamper({ privateKeyHex: a.privateKeyHex, publicKeyHex: b.publicKeyHex })).toThrowError(SigilError)
    expect(() => createApiKeyStamper({ privateKeyHex: 'zz' })).toThrowError(SigilError)
  })
})

describe('verifyApiKeyStamp against @turnkey/api-key-stamper', () => {
  for (const runtime of ['node', 'purejs'] as const) {
    it(`accepts ApiKeyStamper(${runtime}) stamps and rejects them for another body`, async () => {
      const k = freshKey()
      const s = await new ApiKeyStamper({
        apiPublicKey: k.publicKeyHex,
        apiPrivateKey: k.privateKeyHex,
        runtimeOverride: runtime,
      }).stamp(BODY)
      expect(verifyApiKeyStamp(s.stampHeaderValue, body)).toMatchObject({ ok: true, publicKey: k.publicKeyHex })
      expect(verifyApiKeyStamp(s.stampHeaderValue, utf8Encode(`${BODY} `))).toEqual({
        ok: false,
        reason: 'STAMP_SIGNATURE_INVALID',
      })
    })
  }
})

describe('verifyApiKeyStamp negatives', () => {
  it('wrong key → STAMP_SIGNATURE_INVALID', async () => {
    const a = freshKey()
    const b = freshKey()
    const s = await createApiKeyStamper({ privateKeyHex: a.privateKeyHex }).stamp(BODY)
    const d = decodeStampHeader(s.stampHeaderValue)
    if (!d.ok) throw new Error('decode')
    const swapped = encodeStampHeader({ ...d.stamp, publicKey: b.publicKeyHex })
    expect(verifyApiKeyStamp(swapped, body)).toEqual({ ok: false, reason: 'STAMP_SIGNATURE_INVALID' })
  })

  it('high-S signatures are accepted (A4), and an uncompressed key works', () => {
    const k = freshKey()
    const low = p256.Signature.fromBytes(p256.sign(body, k.kp.privateKey, { prehash: true, lowS: true, format: 'compact' }), 'compact')
    const high = new p256.Signature(low.r, p256.Point.CURVE().n - low.s)
    expect(high.hasHighS()).toBe(true)
    const header = encodeStampHeader({
      publicKey: bytesToHex(k.kp.publicKeyUncompressed),
      scheme: 'SIGNATURE_SCHEME_TK_API_P256',
      signature: bytesToHex(high.toBytes('der')),
    })
    expect(verifyApiKeyStamp(header, body)).toMatchObject({ ok: true })
  })

  it('malformed headers → STAMP_MALFORMED', () => {
    const k = freshKey()
    const cases = [
      '',
      '!!!not-base64!!!',
      base64UrlEncode(utf8Encode('not json')),
      base64UrlEncode(utf8Encode('[]')),
      base64UrlEncode(utf8Encode('{"publicKey":1,"scheme":"SIGNATURE_SCHEME_TK_API_P256","signature":"00"}')),
      encodeStampHeader({ publicKey: 'xyz', scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: '3006020101020101' }),
      encodeStampHeader({ publicKey: k.publicKeyHex, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: 'deadbeef' }),
      encodeStampHeader({ publicKey: `02${'ff'.repeat(32)}`, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: '3006020101020101' }),
    ]
    for (const c of cases) expect(verifyApiKeyStamp(c, body)).toEqual({ ok: false, reason: 'STAMP_MALFORMED' })
  })

  it('unknown scheme → STAMP_SCHEME_UNSUPPORTED', () => {
    const k = freshKey()
    const header = encodeStampHeader({ publicKey: k.publicKeyHex, scheme: 'SIGNATURE_SCHEME_TK_API_RSA', signature: '00' })
    expect(verifyApiKeyStamp(header, body)).toEqual({ ok: false, reason: 'STAMP_SCHEME_UNSUPPORTED' })
  })
})

describe('wallet stampers (B1.3)', () => {
  it('secp256k1 EIP-191: a viem personal_sign signature verifies; tampered body fails', async () => {
    const priv = secp256k1.utils.randomSecretKey()
    const account = privateKeyToAccount(`0x${bytesToHex(priv)}`)
    const sigHex = await account.signMessage({ message: BODY })
    const rs = hexToBytes(sigHex).subarray(0, 64)
    const der = secp256k1.Signature.fromBytes(rs, 'compact').toBytes('der')
    const header = encodeStampHeader({
      publicKey: bytesToHex(secp256k1.getPublicKey(priv, true)),
      scheme: 'SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191',
      signature: bytesToHex(der),
    })
    expect(verifyApiKeyStamp(header, body)).toMatchObject({ ok: true, scheme: 'SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191' })
    expect(verifyApiKeyStamp(header, utf8Encode(BODY.replace('1700', '1800')))).toEqual({
      ok: false,
      reason: 'STAMP_SIGNATURE_INVALID',
    })
    // The digest is the EIP-191 one: a plain sha256 signature by the same key does not verify.
    const plain = secp256k1.sign(body, priv, { prehash: true, format: 'der' })
    const wrong = encodeStampHeader({
      publicKey: bytesToHex(secp256k1.getPublicKey(priv, true)),
      scheme: 'SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191',
      signature: bytesToHex(plain),
    })
    expect(verifyApiKeyStamp(wrong, body)).toEqual({ ok: false, reason: 'STAMP_SIGNATURE_INVALID' })
    expect(eip191Digest(body)).toHaveLength(32)
  })

  it('ed25519: a 64-byte signature over the body verifies; tampered body fails', () => {
    const priv = ed25519.utils.randomSecretKey()
    const header = encodeStampHeader({
      publicKey: bytesToHex(ed25519.getPublicKey(priv)),
      scheme: 'SIGNATURE_SCHEME_TK_API_ED25519',
      signature: bytesToHex(ed25519.sign(body, priv)),
    })
    expect(verifyApiKeyStamp(header, body)).toMatchObject({ ok: true, scheme: 'SIGNATURE_SCHEME_TK_API_ED25519' })
    expect(verifyApiKeyStamp(header, utf8Encode(`${BODY}x`))).toEqual({ ok: false, reason: 'STAMP_SIGNATURE_INVALID' })
    const short = encodeStampHeader({
      publicKey: bytesToHex(ed25519.getPublicKey(priv)),
      scheme: 'SIGNATURE_SCHEME_TK_API_ED25519',
      signature: 'abcd',
    })
    expect(verifyApiKeyStamp(short, body)).toEqual({ ok: false, reason: 'STAMP_MALFORMED' })
  })
})

describe('WebCrypto stamping', () => {
  it('createWebCryptoStamper with a non-extractable key verifies (ours and @turnkey/crypto)', async () => {
    const { keyPair, publicKeyHex, publicKeyUncompressedHex } = await createP256WebCryptoKeyPair()
    expect(keyPair.privateKey.extractable).toBe(false)
    expect(publicKeyHex).toHaveLength(66)
    expect(publicKeyUncompressedHex).toHaveLength(130)
    const stamper = createWebCryptoStamper({ privateKey: keyPair.privateKey, publicKeyHex })
    const s = await stamper.stamp(BODY)
    expect(verifyApiKeyStamp(s.stampHeaderValue, body)).toEqual({
      ok: true,
      publicKey: publicKeyHex,
      scheme: 'SIGNATURE_SCHEME_TK_API_P256',
    })
    const d = decodeStampHeader(s.stampHeaderValue)
    if (!d.ok) throw new Error('decode')
    expect(await verifyStampSignature(d.stamp.publicKey, d.stamp.signature, BODY)).toBe(true)
    expect(verifyApiKeyStamp(s.stampHeaderValue, utf8Encode('{}')).ok).toBe(false)
  })

  it('importP256PrivateKeyForSigning makes a non-extractable signing key for a raw scalar', async () => {
    const k = freshKey()
    const { privateKey, publicKeyHex } = await importP256PrivateKeyForSigning(k.kp.privateKey)
    expect(publicKeyHex).toBe(k.publicKeyHex)
    expect(privateKey.extractable).toBe(false)
    expect(privateKey.usages).toEqual(['sign'])
    await expect(globalThis.crypto.subtle.exportKey('jwk', privateKey)).rejects.toThrow()
    const s = await createWebCryptoStamper({ privateKey, publicKeyHex }).stamp(BODY)
    expect(verifyApiKeyStamp(s.stampHeaderValue, body)).toMatchObject({ ok: true, publicKey: k.publicKeyHex })
  })
})

describe('X-Stamp-Webauthn parsing (B1.2)', () => {
  it('parses the four base64url fields and rejects malformed values', () => {
    const b64 = (n: number) => base64UrlEncode(globalThis.crypto.getRandomValues(new Uint8Array(n)))
    const good = JSON.stringify({ authenticatorData: b64(37), clientDataJson: b64(120), credentialId: b64(16), signature: b64(71) })
    expect(parseWebauthnStamp(good)).toEqual({ ok: true, stamp: JSON.parse(good) })
    expect(parseWebauthnStamp('not json')).toEqual({ ok: false, reason: 'STAMP_MALFORMED' })
    expect(
      parseWebauthnStamp(JSON.stringify({ authenticatorData: 'AAEC', clientDataJson: 'eyJ9', credentialId: 'a+b/', signature: 'MEUC' })),
    ).toEqual({
      ok: false,
      reason: 'STAMP_MALFORMED',
    })
    expect(parseWebauthnStamp(JSON.stringify({ authenticatorData: 'AAEC', clientDataJson: 'eyJ9', credentialId: 'abc' }))).toEqual({
      ok: false,
      reason: 'STAMP_MALFORMED',
    })
  })
})

describe('X-Stamp-Attested (B1.4)', () => {
  it('parses and verifies, rejects a tampered body, wrong scheme, malformed header', async () => {
    const k = freshKey()
    const der = p256.sign(body, k.kp.privateKey, { prehash: true, format: 'der' })
    const json = JSON.stringify({
      publicKeyAttestation: 'eyJ.token.sig',
      scheme: 'STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN',
      publicKey: k.publicKeyHex,
      signature: bytesToHex(der),
    })
    const parsed = parseAttestedStamp(base64UrlEncode(utf8Encode(json)))
    if (!parsed.ok) throw new Error('parse')
    expect(parsed.stamp.publicKeyAttestation).toBe('eyJ.token.sig')
    expect(verifyAttestedStampSignature(parsed.stamp, body)).toEqual({ ok: true, publicKey: k.publicKeyHex })
    expect(verifyAttestedStampSignature(parsed.stamp, utf8Encode('{}'))).toEqual({ ok: false, reason: 'STAMP_SIGNATURE_INVALID' })
    expect(verifyAttestedStampSignature({ ...parsed.stamp, signature: '00' }, body)).toEqual({ ok: false, reason: 'STAMP_MALFORMED' })
    const other = base64UrlEncode(utf8Encode(json.replace('P256_VERIFICATION_TOKEN', 'RSA')))
    expect(parseAttestedStamp(other)).toEqual({ ok: false, reason: 'STAMP_SCHEME_UNSUPPORTED' })
    expect(parseAttestedStamp('%%%')).toEqual({ ok: false, reason: 'STAMP_MALFORMED' })
  })
})

describe('ApiKeyStamper.sign raw format matches our client-signature convention', () => {
  it('is verifiable as SHA-256 prehashed r||s', async () => {
    const k = freshKey()
    const raw = await new ApiKeyStamper({ apiPublicKey: k.publicKeyHex, apiPrivateKey: k.privateKeyHex }).sign('hello', SignatureFormat.Raw)
    expect(raw).toHaveLength(128)
    expect(p256.verify(hexToBytes(raw), utf8Encode('hello'), k.kp.publicKey, { prehash: true, lowS: false })).toBe(true)
  })
})
