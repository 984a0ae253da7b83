import { describe, expect, it } from 'vitest'
import { SigilError } from '../../../src/api/errors.js'
import {
  base64UrlDecode,
  base64UrlEncode,
  bytesToHex,
  concatBytes,
  constantTimeEqual,
  hexToBytes,
  utf8Decode,
  utf8Encode,
} from '../../../src/crypto/encoding.js'
import {
  compressP256PublicKey,
  generateP256KeyPair,
  isValidP256PublicKeyHex,
  p256PublicKeyFromPrivate,
  uncompressP256PublicKey,
} from '../../../src/crypto/p256.js'
import bundleVectors from '../../vectors/bundle-vectors.json' with { type: 'json' }

describe('encoding', () => {
  it('round-trips hex, lowercase out, 0x accepted', () => {
    expect(bytesToHex(hexToBytes('0x00Ff10'))).toBe('00ff10')
    expect(hexToBytes('')).toEqual(new Uint8Array())
  })

  it('rejects odd-length and non-hex input with a field-named INVALID_ARGUMENT', () => {
    expect(() => hexToBytes('abc', 'publicKey')).toThrowError(SigilError)
    try {
      hexToBytes('zz', 'publicKey')
      expect.unreachable()
    } catch (e) {
      expect((e as SigilError).code).toBe('INVALID_ARGUMENT')
      expect((e as SigilError).fieldViolations[0]?.field).toBe('publicKey')
    }
  })

  it('base64url has no padding and round-trips', () => {
    const b = utf8Encode('\u00ff\u00fe?>')
    const s = base64UrlEncode(b)
    expect(s).not.toContain('=')
    expect(s).not.toMatch(/[+/]/)
    expect(base64UrlDecode(s)).toEqual(b)
    expect(() => base64UrlDecode('***')).toThrowError(SigilError)
  })

  it('utf8, concat and constant-time compare', () => {
    expect(utf8Decode(utf8Encode('héllo'))).toBe('héllo')
    expect(concatBytes(new Uint8Array([1]), new Uint8Array([2, 3]))).toEqual(new Uint8Array([1, 2, 3]))
    expect(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true)
    expect(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false)
    expect(constantTimeEqual(new Uint8Array([1]), new Uint8Array([1, 2]))).toBe(false)
  })
})

describe('p256 helpers', () => {
  const v = bundleVectors.vectors[0]!

  it('compresses and uncompresses vector keys', () => {
    const full = hexToBytes(v.targetPublicKeyHex)
    const short = hexToBytes(v.targetPublicKeyCompressedHex)
    expect(bytesToHex(compressP256PublicKey(full))).toBe(v.targetPublicKeyCompressedHex)
    expect(bytesToHex(uncompressP256PublicKey(short))).toBe(v.targetPublicKeyHex)
    expect(bytesToHex(p256PublicKeyFromPrivate(hexToBytes(v.targetPrivateKeyHex), false))).toBe(v.targetPublicKeyHex)
    expect(bytesToHex(p256PublicKeyFromPrivate(hexToBytes(v.targetPrivateKeyHex)))).toBe(v.targetPublicKeyCompressedHex)
  })

  it('generates consistent key pairs', () => {
    const kp = generateP256KeyPair()
    expect(kp.privateKey).toHaveLength(32)
    expect(kp.publicKey).toHaveLength(33)
    expect(kp.publicKeyUncompressed).toHaveLength(65)
    expect(compressP256PublicKey(kp.publicKeyUncompressed)).toEqual(kp.publicKey)
  })

  it('validates public key hex', () => {
    expect(isValidP256PublicKeyHex(v.targetPublicKeyHex)).toBe(true)
    expect(isValidP256PublicKeyHex(v.targetPublicKeyCompressedHex)).toBe(true)
    expect(isValidP256PublicKeyHex(`04${'00'.repeat(64)}`)).toBe(false)
    expect(isValidP256PublicKeyHex('02abcd')).toBe(false)
    expect(isValidP256PublicKeyHex('nothex')).toBe(false)
    expect(() => compressP256PublicKey(new Uint8Array(33))).toThrowError(SigilError)
  })
})
