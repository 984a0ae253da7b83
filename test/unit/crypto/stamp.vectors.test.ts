import { describe, expect, it } from 'vitest'
import { p256 } from '@noble/curves/nist.js'
import { hexToBytes, utf8Decode, utf8Encode, base64UrlDecode } from '../../../src/crypto/encoding.js'
import { createApiKeyStamper, decodeStampHeader } from '../../../src/crypto/stamp.js'
import { verifyApiKeyStamp, webauthnChallengeBytesForBody, webauthnChallengeForBody } from '../../../src/crypto/verifyStamp.js'
import stampVectors from '../../vectors/stamp-vectors.json' with { type: 'json' }

describe('stamp-vectors.json (B8)', () => {
  it('has the four vectors', () => {
    expect(stampVectors.vectors).toHaveLength(4)
  })

  for (const [i, v] of stampVectors.vectors.entries()) {
    describe(`vector #${i} (${v.stamperRuntime})`, () => {
      const body = utf8Encode(v.body)

      it('is accepted by our verifier with the sent public key', () => {
        const r = verifyApiKeyStamp(v.stampHeaderValue, body)
        expect(r).toEqual({ ok: true, publicKey: v.publicKeyHex, scheme: 'SIGNATURE_SCHEME_TK_API_P256' })
      })

      it('is rejected for a body with one changed character', () => {
        const tampered = utf8Encode(v.body.replace('c0ffee00', 'c0ffee01'))
        expect(verifyApiKeyStamp(v.stampHeaderValue, tampered)).toEqual({ ok: false, reason: 'STAMP_SIGNATURE_INVALID' })
      })

      it('decodes to the recorded JSON', () => {
        const d = decodeStampHeader(v.stampHeaderValue)
        expect(d.ok && JSON.stringify(d.stamp)).toBe(v.decodedStamp)
        expect(utf8Decode(base64UrlDecode(v.stampHeaderValue))).toBe(v.decodedStamp)
      })

      it('webauthn challenge matches', () => {
        expect(webauthnChallengeForBody(body)).toBe(v.webauthnChallengeForSameBody.clientDataJsonChallengeBase64url)
        expect(utf8Decode(webauthnChallengeBytesForBody(body))).toBe(v.webauthnChallengeForSameBody.challengeBytesUtf8)
        expect(v.webauthnChallengeForSameBody.challengeBytesUtf8).toBe(v.bodySha256Hex)
      })

      if (v.stamperRuntime === 'purejs') {
        it('is reproduced byte-for-byte by createApiKeyStamper', async () => {
          const stamper = createApiKeyStamper({ privateKeyHex: v.privateKeyHex, publicKeyHex: v.publicKeyHex })
          expect(stamper.publicKeyHex).toBe(v.publicKeyHex)
          const s = await stamper.stamp(v.body)
          expect(s.stampHeaderName).toBe(v.stampHeaderName)
          expect(s.stampHeaderValue).toBe(v.stampHeaderValue)
        })
      } else {
        it('our deterministic stamp for the same key and body also verifies', async () => {
          const s = await createApiKeyStamper({ privateKeyHex: v.privateKeyHex }).stamp(v.body)
          expect(verifyApiKeyStamp(s.stampHeaderValue, body).ok).toBe(true)
        })
      }
    })
  }

  it('vector #0 is high-S and accepted (A4)', () => {
    const v = stampVectors.vectors[0]!
    expect(v.signatureIsLowS).toBe(false)
    const d = decodeStampHeader(v.stampHeaderValue)
    if (!d.ok) throw new Error('decode')
    expect(p256.Signature.fromBytes(hexToBytes(d.stamp.signature), 'der').hasHighS()).toBe(true)
    expect(verifyApiKeyStamp(v.stampHeaderValue, utf8Encode(v.body)).ok).toBe(true)
  })
})
