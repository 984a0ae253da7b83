import { describe, expect, it, vi } from 'vitest'
import { importBundleKey } from '@/src/extension/background/login/credentialBundle'
import { encryptCredentialBundle, decryptCredentialBundle } from '@/src/crypto/credentialBundle'
import { bytesToHex } from '@/src/crypto/encoding'
import { createHpkeRecipientKeyPair } from '@/src/crypto/hpke'
import { generateP256KeyPair } from '@/src/crypto/p256'
import { importP256PrivateKeyForSigning } from '@/src/crypto/stamp'

describe('importBundleKey (wire-formats B2)', () => {
  it('imports the decrypted API key as a non-extractable signing key and zeroes the raw bytes', async () => {
    const target = await createHpkeRecipientKeyPair()
    const apiKey = generateP256KeyPair()
    const bundle = await encryptCredentialBundle({ plaintext: apiKey.privateKey, targetPublicKeyHex: target.publicKeyUncompressedHex })
    let seen: Uint8Array | undefined
    const decrypt: typeof decryptCredentialBundle = async (o) => {
      const r = await decryptCredentialBundle(o)
      if (r.ok) seen = r.plaintext
      return r
    }
    const key = await importBundleKey(bundle, target.keyPair, { decrypt, importKey: importP256PrivateKeyForSigning })
    expect(key.publicKeyHex).toBe(bytesToHex(apiKey.publicKey))
    expect(key.privateKey.extractable).toBe(false)
    expect(key.privateKey.usages).toEqual(['sign'])
    expect(seen).toBeDefined()
    expect(seen!.length).toBe(32)
    expect(seen!.every((b) => b === 0)).toBe(true)
  })

  it('zeroes the bytes even when the import fails, and reports BUNDLE_INVALID', async () => {
    const target = await createHpkeRecipientKeyPair()
    const bundle = await encryptCredentialBundle({
      plaintext: new Uint8Array(32).fill(0xff),
      targetPublicKeyHex: target.publicKeyUncompressedHex,
    })
    let seen: Uint8Array | undefined
    const decrypt: typeof decryptCredentialBundle = async (o) => {
      const r = await decryptCredentialBundle(o)
      if (r.ok) seen = r.plaintext
      return r
    }
    const importKey = vi.fn(importP256PrivateKeyForSigning)
    await expect(importBundleKey(bundle, target.keyPair, { decrypt, importKey })).rejects.toMatchObject({ code: 'BUNDLE_INVALID' })
    expect(importKey).toHaveBeenCalledOnce()
    expect(seen!.every((b) => b === 0)).toBe(true)
  })

  it('refuses a bundle for another key', async () => {
    const target = await createHpkeRecipientKeyPair()
    const other = await createHpkeRecipientKeyPair()
    const bundle = await encryptCredentialBundle({
      plaintext: generateP256KeyPair().privateKey,
      targetPublicKeyHex: other.publicKeyUncompressedHex,
    })
    await expect(importBundleKey(bundle, target.keyPair)).rejects.toMatchObject({ code: 'BUNDLE_INVALID' })
  })
})
