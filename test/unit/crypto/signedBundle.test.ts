import {
  decryptExportBundle,
  encryptOtpCodeToBundle,
  encryptPrivateKeyToBundle,
  encryptWalletToBundle,
  formatHpkeBuf,
  hpkeEncrypt as tkHpkeEncrypt,
} from '@turnkey/crypto'
import { describe, expect, it } from 'vitest'
import { bytesToHex, hexToBytes, utf8Decode, utf8Encode } from '../../../src/crypto/encoding.js'
import { createHpkeRecipientKeyPair } from '../../../src/crypto/hpke.js'
import { generateP256KeyPair } from '../../../src/crypto/p256.js'
import {
  createExportBundle,
  createTargetBundle,
  decryptEnvelope,
  encryptToTargetBundle,
  openExportBundle,
} from '../../../src/crypto/signedBundle.js'

const ORG = 'c0ffee00-0000-4000-8000-000000000001'
const USER = 'u5e40000-0000-4000-8000-000000000002'
const signer = generateP256KeyPair()
const signerPubHex = bytesToHex(signer.publicKeyUncompressed)

describe('export bundles (B2)', () => {
  it('our export bundle decrypts with @turnkey/crypto decryptExportBundle (override signer)', async () => {
    const target = generateP256KeyPair()
    const plaintext = generateP256KeyPair().privateKey
    const exportBundle = await createExportBundle({
      plaintext,
      targetPublicKeyHex: bytesToHex(target.publicKeyUncompressed),
      organizationId: ORG,
      signerPrivateKey: signer.privateKey,
    })
    const outer = JSON.parse(exportBundle) as Record<string, string>
    expect(Object.keys(outer)).toEqual(['version', 'data', 'dataSignature', 'enclaveQuorumPublic'])
    expect(outer.version).toBe('v1.0.0')
    const hex = await decryptExportBundle({
      exportBundle,
      embeddedKey: bytesToHex(target.privateKey),
      organizationId: ORG,
      dangerouslyOverrideSignerPublicKey: signerPubHex,
      returnMnemonic: false,
    })
    expect(hex).toBe(bytesToHex(plaintext))
  })

  it('mnemonic export round-trips through @turnkey/crypto returnMnemonic and our opener', async () => {
    const target = generateP256KeyPair()
    const mnemonic = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'
    const exportBundle = await createExportBundle({
      plaintext: utf8Encode(mnemonic),
      targetPublicKeyHex: bytesToHex(target.publicKey),
      organizationId: ORG,
      signerPrivateKey: signer.privateKey,
    })
    expect(
      await decryptExportBundle({
        exportBundle,
        embeddedKey: bytesToHex(target.privateKey),
        organizationId: ORG,
        dangerouslyOverrideSignerPublicKey: signerPubHex,
        returnMnemonic: true,
      }),
    ).toBe(mnemonic)
    const r = await openExportBundle({ exportBundle, privateKey: target.privateKey, organizationId: ORG, signerPublicKeyHex: signerPubHex })
    expect(r.ok && utf8Decode(r.plaintext)).toBe(mnemonic)
  })

  it('opens with a WebCrypto key pair and refuses tampering with distinct reasons', async () => {
    const { keyPair, publicKeyUncompressedHex } = await createHpkeRecipientKeyPair()
    const exportBundle = await createExportBundle({
      plaintext: utf8Encode('x'),
      targetPublicKeyHex: publicKeyUncompressedHex,
      organizationId: ORG,
      signerPrivateKey: signer.privateKey,
    })
    const ok = await openExportBundle({ exportBundle, privateKey: keyPair, organizationId: ORG, signerPublicKeyHex: signerPubHex })
    expect(ok.ok && utf8Decode(ok.plaintext)).toBe('x')

    const outer = JSON.parse(exportBundle) as Record<string, string>
    const data = JSON.parse(utf8Decode(hexToBytes(outer.data!))) as Record<string, string>
    const forged = JSON.stringify({ ...outer, data: bytesToHex(utf8Encode(JSON.stringify({ ...data, organizationId: 'evil' }))) })
    expect(
      await openExportBundle({ exportBundle: forged, privateKey: keyPair, organizationId: 'evil', signerPublicKeyHex: signerPubHex }),
    ).toEqual({
      ok: false,
      reason: 'BUNDLE_SIGNATURE_INVALID',
    })
    expect(
      await openExportBundle({ exportBundle: '{', privateKey: keyPair, organizationId: ORG, signerPublicKeyHex: signerPubHex }),
    ).toEqual({
      ok: false,
      reason: 'BUNDLE_MALFORMED',
    })
    const other = await createHpkeRecipientKeyPair()
    expect(
      await openExportBundle({ exportBundle, privateKey: other.keyPair, organizationId: ORG, signerPublicKeyHex: signerPubHex }),
    ).toEqual({
      ok: false,
      reason: 'BUNDLE_DECRYPT_FAILED',
    })
  })
})

describe('target bundles and envelopes (B2 import / OTP)', () => {
  it('@turnkey/crypto encryptOtpCodeToBundle → our decryptEnvelope', async () => {
    const target = generateP256KeyPair()
    const targetBundle = createTargetBundle({ targetPublicKey: target.publicKey, signerPrivateKey: signer.privateKey })
    const clientPub = bytesToHex(generateP256KeyPair().publicKey)
    const envelope = await encryptOtpCodeToBundle('123456789', targetBundle, clientPub, signerPubHex)
    const r = await decryptEnvelope({ envelope, privateKey: target.privateKey })
    expect(r.ok && JSON.parse(utf8Decode(r.plaintext))).toEqual({ otp_code: '123456789', public_key: clientPub })
  })

  it('@turnkey/crypto encryptPrivateKeyToBundle / encryptWalletToBundle → our decryptEnvelope', async () => {
    const target = generateP256KeyPair()
    const importBundle = createTargetBundle({
      targetPublicKey: target.publicKeyUncompressed,
      signerPrivateKey: signer.privateKey,
      organizationId: ORG,
      userId: USER,
    })
    const key = generateP256KeyPair().privateKey
    const envelope = await encryptPrivateKeyToBundle({
      privateKey: bytesToHex(key),
      keyFormat: 'HEXADECIMAL',
      importBundle,
      userId: USER,
      organizationId: ORG,
      dangerouslyOverrideSignerPublicKey: signerPubHex,
    })
    const r = await decryptEnvelope({ envelope, privateKey: target.privateKey })
    expect(r.ok && bytesToHex(r.plaintext)).toBe(bytesToHex(key))

    const walletEnvelope = await encryptWalletToBundle({
      mnemonic: 'test test test test test test test test test test test junk',
      importBundle,
      userId: USER,
      organizationId: ORG,
      dangerouslyOverrideSignerPublicKey: signerPubHex,
    })
    const w = await decryptEnvelope({ envelope: walletEnvelope, privateKey: target.privateKey })
    expect(w.ok && utf8Decode(w.plaintext)).toBe('test test test test test test test test test test test junk')
  })

  it('formatHpkeBuf(hpkeEncrypt) from @turnkey/crypto → our decryptEnvelope', async () => {
    const target = generateP256KeyPair()
    const envelope = formatHpkeBuf(tkHpkeEncrypt({ plainTextBuf: utf8Encode('hi'), targetKeyBuf: target.publicKeyUncompressed }))
    const r = await decryptEnvelope({ envelope, privateKey: target.privateKey })
    expect(r.ok && utf8Decode(r.plaintext)).toBe('hi')
  })

  it('our encryptToTargetBundle envelope round-trips and matches formatHpkeBuf shape', async () => {
    const target = generateP256KeyPair()
    const targetBundle = createTargetBundle({
      targetPublicKey: target.publicKey,
      signerPrivateKey: signer.privateKey,
      organizationId: ORG,
      userId: USER,
    })
    const enc = await encryptToTargetBundle({
      targetBundle,
      plaintext: utf8Encode('secret'),
      signerPublicKeyHex: signerPubHex,
      organizationId: ORG,
      userId: USER,
    })
    if (!enc.ok) throw new Error(enc.reason)
    const parsed = JSON.parse(enc.envelope) as Record<string, string>
    expect(Object.keys(parsed)).toEqual(['encappedPublic', 'ciphertext'])
    expect(parsed.encappedPublic).toMatch(/^04[0-9a-f]{128}$/)
    const r = await decryptEnvelope({ envelope: enc.envelope, privateKey: target.privateKey })
    expect(r.ok && utf8Decode(r.plaintext)).toBe('secret')
  })

  it('encryptToTargetBundle refuses a wrong signer, bad signature, wrong org/user', async () => {
    const target = generateP256KeyPair()
    const targetBundle = createTargetBundle({
      targetPublicKey: target.publicKey,
      signerPrivateKey: signer.privateKey,
      organizationId: ORG,
      userId: USER,
    })
    const other = bytesToHex(generateP256KeyPair().publicKeyUncompressed)
    const p = utf8Encode('s')
    expect(await encryptToTargetBundle({ targetBundle, plaintext: p, signerPublicKeyHex: other })).toEqual({
      ok: false,
      reason: 'BUNDLE_SIGNER_MISMATCH',
    })
    expect(await encryptToTargetBundle({ targetBundle, plaintext: p, signerPublicKeyHex: signerPubHex, organizationId: 'x' })).toEqual({
      ok: false,
      reason: 'BUNDLE_ORGANIZATION_MISMATCH',
    })
    expect(await encryptToTargetBundle({ targetBundle, plaintext: p, signerPublicKeyHex: signerPubHex, userId: 'x' })).toEqual({
      ok: false,
      reason: 'BUNDLE_USER_MISMATCH',
    })
    const outer = JSON.parse(targetBundle) as Record<string, string>
    const swapped = JSON.stringify({ ...outer, data: bytesToHex(utf8Encode(JSON.stringify({ targetPublic: other }))) })
    expect(await encryptToTargetBundle({ targetBundle: swapped, plaintext: p, signerPublicKeyHex: signerPubHex })).toEqual({
      ok: false,
      reason: 'BUNDLE_SIGNATURE_INVALID',
    })
  })

  it('decryptEnvelope: malformed, wrong key', async () => {
    const target = generateP256KeyPair()
    expect(await decryptEnvelope({ envelope: 'nope', privateKey: target.privateKey })).toEqual({ ok: false, reason: 'BUNDLE_MALFORMED' })
    const envelope = formatHpkeBuf(tkHpkeEncrypt({ plainTextBuf: utf8Encode('hi'), targetKeyBuf: target.publicKeyUncompressed }))
    expect(await decryptEnvelope({ envelope, privateKey: generateP256KeyPair().privateKey })).toEqual({
      ok: false,
      reason: 'BUNDLE_DECRYPT_FAILED',
    })
  })
})
