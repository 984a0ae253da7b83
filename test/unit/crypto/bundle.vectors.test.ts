import { describe, expect, it } from 'vitest'
import { decryptCredentialBundle } from '../../../src/crypto/credentialBundle.js'
import { bytesToHex, hexToBytes } from '../../../src/crypto/encoding.js'
import { hpkeDecrypt } from '../../../src/crypto/hpke.js'
import { openExportBundle } from '../../../src/crypto/signedBundle.js'
import bundleVectors from '../../vectors/bundle-vectors.json' with { type: 'json' }

const ORG = bundleVectors.testOrganizationId
const SIGNER = bundleVectors.testSignerPublicKeyHex

describe('bundle-vectors.json (B2)', () => {
  it('has three vectors', () => {
    expect(bundleVectors.vectors).toHaveLength(3)
  })

  for (const [i, v] of bundleVectors.vectors.entries()) {
    describe(`vector #${i}`, () => {
      const priv = hexToBytes(v.targetPrivateKeyHex)

      it('credential bundle decrypts to the plaintext', async () => {
        const r = await decryptCredentialBundle({ bundle: v.bundle, privateKey: priv })
        expect(r.ok && bytesToHex(r.plaintext)).toBe(v.plaintextHex)
      })

      it('raw layout decrypts with either encapped-key form', async () => {
        for (const enc of [v.encappedPublicCompressedHex, v.encappedPublicUncompressedHex]) {
          const pt = await hpkeDecrypt({
            encappedPublic: hexToBytes(enc),
            ciphertext: hexToBytes(v.ciphertextWithTagHex),
            privateKey: priv,
          })
          expect(bytesToHex(pt)).toBe(v.plaintextHex)
        }
        expect(v.bundleRawHex).toBe(v.encappedPublicCompressedHex + v.ciphertextWithTagHex)
      })

      it('export bundle opens with the test signer key', async () => {
        const r = await openExportBundle({
          exportBundle: v.exportBundle,
          privateKey: priv,
          organizationId: ORG,
          signerPublicKeyHex: SIGNER,
        })
        expect(r.ok && bytesToHex(r.plaintext)).toBe(v.plaintextHex)
      })

      it('export bundle is refused for another organization or signer', async () => {
        expect(
          await openExportBundle({ exportBundle: v.exportBundle, privateKey: priv, organizationId: 'other', signerPublicKeyHex: SIGNER }),
        ).toEqual({ ok: false, reason: 'BUNDLE_ORGANIZATION_MISMATCH' })
        const prodSigner =
          '04cf288fe433cc4e1aa0ce1632feac4ea26bf2f5a09dcfe5a42c398e06898710330f0572882f4dbdf0f5304b8fc8703acd69adca9a4bbf7f5d00d20a5e364b2569'
        expect(
          await openExportBundle({ exportBundle: v.exportBundle, privateKey: priv, organizationId: ORG, signerPublicKeyHex: prodSigner }),
        ).toEqual({ ok: false, reason: 'BUNDLE_SIGNER_MISMATCH' })
      })
    })
  }

  it('upstream real credential bundle (crossChecks) decrypts', async () => {
    const u = bundleVectors.crossChecks.upstreamRealCredentialBundle.credentialBundle
    const r = await decryptCredentialBundle({ bundle: u.bundle, privateKey: hexToBytes(u.targetPrivateKeyHex) })
    expect(r.ok && bytesToHex(r.plaintext)).toBe(u.plaintextHex)
  })
})
