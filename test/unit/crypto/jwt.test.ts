import { ApiKeyStamper, SignatureFormat } from '@turnkey/api-key-stamper'
import { verifyOtpVerificationToken, verifySessionJwtSignature } from '@turnkey/crypto'
import { describe, expect, it } from 'vitest'
import { SigilError } from '../../../src/api/errors.js'
import { base64UrlDecode, bytesToHex, utf8Decode } from '../../../src/crypto/encoding.js'
import {
  decodeJwtPayload,
  signClientSignature,
  signSessionJwt,
  signVerificationToken,
  verifyClientSignature,
  verifySessionJwt,
  verifyVerificationToken,
} from '../../../src/crypto/jwt.js'
import { generateP256KeyPair } from '../../../src/crypto/p256.js'

const signer = generateP256KeyPair()
const signerHex = bytesToHex(signer.publicKeyUncompressed)
const sessionKey = bytesToHex(generateP256KeyPair().publicKey)
const claims = {
  exp: 1_900_000_000,
  public_key: sessionKey,
  session_type: 'SESSION_TYPE_READ_WRITE' as const,
  user_id: 'a1b2c3d4-0000-4000-8000-000000000001',
  organization_id: 'c0ffee00-0000-4000-8000-000000000001',
}

describe('session JWT (B3)', () => {
  it('verifies with @turnkey/crypto verifySessionJwtSignature and with ours', async () => {
    const token = signSessionJwt({ claims, signerPrivateKey: signer.privateKey })
    expect(await verifySessionJwtSignature(token, signerHex)).toBe(true)
    expect(await verifySessionJwtSignature(token, bytesToHex(generateP256KeyPair().publicKeyUncompressed))).toBe(false)
    const r = verifySessionJwt(token, signerHex)
    expect(r.ok && r.claims).toEqual(claims)
  })

  it('has the exact header, a 64-byte signature and a payload core atob can parse', () => {
    const token = signSessionJwt({ claims, signerPrivateKey: signer.privateKey })
    const [h, p, s] = token.split('.') as [string, string, string]
    expect(utf8Decode(base64UrlDecode(h))).toBe('{"alg":"ES256","typ":"JWT"}')
    expect(base64UrlDecode(s)).toHaveLength(64)
    expect(p).not.toMatch(/[-_]/)
    expect(JSON.parse(atob(p))).toEqual(claims)
    expect(decodeJwtPayload(token)).toEqual(claims)
    expect(decodeJwtPayload('a.b')).toBeNull()
  })

  it('refuses tampering, wrong key, expiry, bad claims; refuses unsafe payload chars when signing', () => {
    const token = signSessionJwt({ claims, signerPrivateKey: signer.privateKey })
    const other = signSessionJwt({ claims: { ...claims, user_id: 'someone-else' }, signerPrivateKey: signer.privateKey })
    const [h, , s] = token.split('.')
    const spliced = `${h}.${other.split('.')[1]}.${s}`
    expect(verifySessionJwt(spliced, signerHex)).toEqual({ ok: false, reason: 'TOKEN_SIGNATURE_INVALID' })
    expect(verifySessionJwt(token, bytesToHex(generateP256KeyPair().publicKey))).toEqual({ ok: false, reason: 'TOKEN_SIGNATURE_INVALID' })
    expect(verifySessionJwt(token, signerHex, { nowMs: claims.exp * 1000 + 1 })).toEqual({ ok: false, reason: 'TOKEN_EXPIRED' })
    expect(verifySessionJwt(token, signerHex, { nowMs: claims.exp * 1000 - 1 }).ok).toBe(true)
    expect(verifySessionJwt('garbage', signerHex)).toEqual({ ok: false, reason: 'TOKEN_MALFORMED' })
    expect(() => signSessionJwt({ claims: { ...claims, user_id: 'what?' }, signerPrivateKey: signer.privateKey })).toThrowError(SigilError)
    expect(() => signSessionJwt({ claims: { ...claims, user_id: 'ünïcode' }, signerPrivateKey: signer.privateKey })).toThrowError(
      SigilError,
    )
  })
})

describe('verification token (B3)', () => {
  const vclaims = {
    exp: String(Date.now() + 3_600_000),
    id: 'tok-1',
    organization_id: 'c0ffee00-0000-4000-8000-000000000001',
    verification_type: 'OTP_TYPE_EMAIL',
    contact: 'user@example.com',
    public_key: sessionKey,
  }

  it('verifies with @turnkey/crypto verifyOtpVerificationToken and ours', async () => {
    const token = signVerificationToken({ claims: vclaims, signerPrivateKey: signer.privateKey })
    expect(utf8Decode(base64UrlDecode(token.split('.')[0]!))).toBe('{"typ":"JWT","alg":"ES256"}')
    expect(await verifyOtpVerificationToken(token, signerHex)).toMatchObject(vclaims)
    const r = verifyVerificationToken(token, signerHex, { nowMs: Date.now() })
    expect(r.ok && r.claims).toEqual(vclaims)
  })

  it('refuses wrong key, expired, and session-style double-hash signatures', () => {
    const token = signVerificationToken({ claims: vclaims, signerPrivateKey: signer.privateKey })
    expect(verifyVerificationToken(token, bytesToHex(generateP256KeyPair().publicKey))).toEqual({
      ok: false,
      reason: 'TOKEN_SIGNATURE_INVALID',
    })
    const expired = signVerificationToken({ claims: { ...vclaims, exp: '1000' }, signerPrivateKey: signer.privateKey })
    expect(verifyVerificationToken(expired, signerHex, { nowMs: Date.now() })).toEqual({ ok: false, reason: 'TOKEN_EXPIRED' })
    const session = signSessionJwt({ claims, signerPrivateKey: signer.privateKey })
    expect(verifyVerificationToken(session, signerHex)).toEqual({ ok: false, reason: 'TOKEN_SIGNATURE_INVALID' })
  })
})

describe('clientSignature (B3)', () => {
  const message = JSON.stringify({ login: { publicKey: sessionKey }, tokenId: 'tok-1', type: 'USAGE_TYPE_LOGIN' })

  it('ours verifies, and ApiKeyStamper.sign(Raw) verifies with ours', async () => {
    const k = generateP256KeyPair()
    const sig = signClientSignature({ privateKey: k.privateKey, message })
    expect(sig.publicKey).toBe(bytesToHex(k.publicKey))
    expect(sig.signature).toMatch(/^[0-9a-f]{128}$/)
    expect(verifyClientSignature(sig)).toBe(true)
    const raw = await new ApiKeyStamper({ apiPublicKey: bytesToHex(k.publicKey), apiPrivateKey: bytesToHex(k.privateKey) }).sign(
      message,
      SignatureFormat.Raw,
    )
    expect(verifyClientSignature({ ...sig, signature: raw })).toBe(true)
  })

  it('refuses another message, another key, another scheme', () => {
    const k = generateP256KeyPair()
    const sig = signClientSignature({ privateKey: k.privateKey, message })
    expect(verifyClientSignature({ ...sig, message: `${message} ` })).toBe(false)
    expect(verifyClientSignature({ ...sig, publicKey: bytesToHex(generateP256KeyPair().publicKey) })).toBe(false)
    expect(verifyClientSignature({ ...sig, scheme: 'OTHER' })).toBe(false)
    expect(verifyClientSignature({ ...sig, signature: 'zz' })).toBe(false)
  })
})
