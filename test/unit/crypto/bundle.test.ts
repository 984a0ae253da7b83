import { base58 } from '@scure/base'
import { decryptCredentialBundle as tkDecryptCredentialBundle, encryptOnRampSecret } from '@turnkey/crypto'
import { describe, expect, it } from 'vitest'
import { HpkeError, createHpkeRecipientKeyPair, hpkeDecrypt, hpkeEncrypt } from '../../../src/crypto/hpke.js'
import { decryptCredentialBundle, encryptCredentialBundle } from '../../../src/crypto/credentialBundle.js'
import { bytesToHex, hexToBytes, utf8Decode, utf8Encode } from '../../../src/crypto/encoding.js'
import { generateP256KeyPair } from '../../../src/crypto/p256.js'
import bundleVectors from '../../vectors/bundle-vectors.json' with { type: 'json' }

const v0 = bundleVectors.vectors[0]!

describe('credential bundles (B2)', () => {
  it('our bundle decrypts with @turnkey/crypto, for compressed and uncompressed targets', async () => {
    const target = generateP256KeyPair()
    const plaintext = generateP256KeyPair().privateKey
    for (const pub of [target.publicKey, target.publicKeyUncompressed]) {
      const bundle = await encryptCredentialBundle({ plaintext, targetPublicKeyHex: bytesToHex(pub) })
      expect(base58.decode(bundle)).toHaveLength(81 + 4)
      expect(tkDecryptCredentialBundle(bundle, bytesToHex(target.privateKey))).toBe(bytesToHex(plaintext))
      const ours = await decryptCredentialBundle({ bundle, privateKey: target.privateKey })
      expect(ours.ok && bytesToHex(ours.plaintext)).toBe(bytesToHex(plaintext))
    }
  })

  it('@turnkey/crypto bs58check(hpkeEncrypt) output decrypts with ours', async () => {
    const target = generateP256KeyPair()
    const bundle = encryptOnRampSecret('secret-value', bytesToHex(target.publicKey))
    const r = await decryptCredentialBundle({ bundle, privateKey: target.privateKey })
    expect(r.ok && utf8Decode(r.plaintext)).toBe('secret-value')
  })

  it('a non-extractable WebCrypto ECDH key pair decrypts a bundle', async () => {
    const { keyPair, publicKeyUncompressedHex } = await createHpkeRecipientKeyPair()
    expect(keyPair.privateKey.extractable).toBe(false)
    expect(keyPair.privateKey.usages).toEqual(['deriveBits'])
    const plaintext = utf8Encode('credential')
    const bundle = await encryptCredentialBundle({ plaintext, targetPublicKeyHex: publicKeyUncompressedHex })
    const r = await decryptCredentialBundle({ bundle, privateKey: keyPair })
    expect(r.ok && utf8Decode(r.plaintext)).toBe('credential')
    const other = await createHpkeRecipientKeyPair()
    expect(await decryptCredentialBundle({ bundle, privateKey: other.keyPair })).toEqual({ ok: false, reason: 'BUNDLE_DECRYPT_FAILED' })
  })

  describe('each failure has its own reason', () => {
    const priv = hexToBytes(v0.targetPrivateKeyHex)

    it('garbled (non-base58) → BUNDLE_NOT_BASE58', async () => {
      expect(await decryptCredentialBundle({ bundle: `${v0.bundle.slice(0, 10)}0OIl${v0.bundle.slice(14)}`, privateKey: priv })).toEqual({
        ok: false,
        reason: 'BUNDLE_NOT_BASE58',
      })
    })

    it('bad checksum → BUNDLE_BAD_CHECKSUM', async () => {
      const raw = base58.decode(v0.bundle)
      raw[raw.length - 1] = (raw[raw.length - 1]! ^ 1) & 0xff
      expect(await decryptCredentialBundle({ bundle: base58.encode(raw), privateKey: priv })).toEqual({
        ok: false,
        reason: 'BUNDLE_BAD_CHECKSUM',
      })
    })

    it('truncated → BUNDLE_TOO_SHORT', async () => {
      const { createBase58check } = await import('@scure/base')
      const { sha256 } = await import('@noble/hashes/sha2.js')
      const bs58check = createBase58check(sha256)
      const short = bs58check.encode(hexToBytes(v0.bundleRawHex).subarray(0, 33))
      expect(await decryptCredentialBundle({ bundle: short, privateKey: priv })).toEqual({ ok: false, reason: 'BUNDLE_TOO_SHORT' })
      expect(await decryptCredentialBundle({ bundle: '1', privateKey: priv })).toEqual({ ok: false, reason: 'BUNDLE_TOO_SHORT' })
    })

    it('encapped key not on the curve → BUNDLE_BAD_ENCAPPED_KEY', async () => {
      const { createBase58check } = await import('@scure/base')
      const { sha256 } = await import('@noble/hashes/sha2.js')
      const raw = hexToBytes(v0.bundleRawHex)
      raw.fill(0xff, 1, 33)
      const bundle = createBase58check(sha256).encode(raw)
      expect(await decryptCredentialBundle({ bundle, privateKey: priv })).toEqual({ ok: false, reason: 'BUNDLE_BAD_ENCAPPED_KEY' })
    })

    it('wrong recipient key → BUNDLE_DECRYPT_FAILED', async () => {
      const wrong = generateP256KeyPair().privateKey
      expect(await decryptCredentialBundle({ bundle: v0.bundle, privateKey: wrong })).toEqual({
        ok: false,
        reason: 'BUNDLE_DECRYPT_FAILED',
      })
    })

    it('tampered ciphertext (valid checksum) → BUNDLE_DECRYPT_FAILED', async () => {
      const { createBase58check } = await import('@scure/base')
      const { sha256 } = await import('@noble/hashes/sha2.js')
      const raw = hexToBytes(v0.bundleRawHex)
      raw[40] = (raw[40]! ^ 0x80) & 0xff
      const bundle = createBase58check(sha256).encode(raw)
      expect(await decryptCredentialBundle({ bundle, privateKey: priv })).toEqual({ ok: false, reason: 'BUNDLE_DECRYPT_FAILED' })
    })
  })
})

describe('hpke (B2)', () => {
  it('uses a 65-byte encapped key and ct||tag; AAD binds the uncompressed receiver key', async () => {
    const target = generateP256KeyPair()
    const { encappedPublic, ciphertext } = await hpkeEncrypt({ plaintext: new Uint8Array(32), targetPublicKey: target.publicKey })
    expect(encappedPublic).toHaveLength(65)
    expect(encappedPublic[0]).toBe(4)
    expect(ciphertext).toHaveLength(48)
    expect(await hpkeDecrypt({ encappedPublic, ciphertext, privateKey: target.privateKey })).toEqual(new Uint8Array(32))
  })

  it('throws a typed HpkeError on failure', async () => {
    const target = generateP256KeyPair()
    await expect(hpkeEncrypt({ plaintext: new Uint8Array(1), targetPublicKey: new Uint8Array(33) })).rejects.toMatchObject({
      failure: 'HPKE_BAD_TARGET_KEY',
      code: 'BUNDLE_INVALID',
    })
    const err = await hpkeDecrypt({
      encappedPublic: target.publicKeyUncompressed,
      ciphertext: new Uint8Array(20),
      privateKey: target.privateKey,
    }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(HpkeError)
    expect((err as HpkeError).failure).toBe('HPKE_DECRYPT_FAILED')
    await expect(
      hpkeDecrypt({ encappedPublic: target.publicKey, ciphertext: new Uint8Array(20), privateKey: new Uint8Array(32) }),
    ).rejects.toMatchObject({ failure: 'HPKE_BAD_RECIPIENT_KEY' })
  })
})
