/**
 * An `X-Stamp-Attested` request is parsed and its signature verified once: the stamp checked over
 * the raw body (stampSignatureCheck) is the one authentication reads. The crypto parse and verify
 * are counted; the store lookups authentication makes are stubbed.
 */
import { p256 } from '@noble/curves/nist.js'
import { describe, expect, it, vi } from 'vitest'
import { base64UrlEncode, bytesToHex, utf8Encode } from '../../../../src/crypto/encoding.js'
import { signVerificationToken } from '../../../../src/crypto/jwt.js'
import { generateP256KeyPair } from '../../../../src/crypto/p256.js'
import * as verifyStamp from '../../../../src/crypto/verifyStamp.js'
import { authenticate, stampSignatureCheck } from '../../../../src/service/auth/authenticate.js'
import type { ServiceConfig } from '../../../../src/service/config.js'
import type { Sql } from '../../../../src/service/store/sql.js'

const ORG = 'org-1'
const calls = vi.hoisted(() => ({ parse: 0, verify: 0 }))

vi.mock('../../../../src/crypto/verifyStamp.js', async (importOriginal) => {
  const actual = await importOriginal<typeof verifyStamp>()
  return {
    ...actual,
    parseAttestedStamp: (header: string) => {
      calls.parse++
      return actual.parseAttestedStamp(header)
    },
    verifyAttestedStampSignature: (stamp: verifyStamp.AttestedStamp, body: Uint8Array) => {
      calls.verify++
      return actual.verifyAttestedStampSignature(stamp, body)
    },
  }
})
vi.mock('../../../../src/service/store/organizations.js', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  ancestry: async () => [ORG],
  isSelfOrAncestor: async () => true,
}))
vi.mock('../../../../src/service/auth/contact.js', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  findUserByContact: async () => ({ id: 'user-1', organization_id: ORG }),
}))

describe('X-Stamp-Attested', () => {
  it('is parsed and its signature verified once per request', async () => {
    const verifier = generateP256KeyPair()
    const stampKey = generateP256KeyPair()
    const publicKey = bytesToHex(p256.getPublicKey(stampKey.privateKey, true))
    const token = signVerificationToken({
      claims: {
        exp: String(Date.now() + 60_000),
        id: 'token-1',
        organization_id: ORG,
        verification_type: 'OTP_TYPE_EMAIL',
        contact: 'a@example.com',
        public_key: publicKey,
      },
      signerPrivateKey: verifier.privateKey,
    })
    const rawBody = utf8Encode(JSON.stringify({ organizationId: ORG }))
    const signature = bytesToHex(p256.sign(rawBody, stampKey.privateKey, { prehash: true, lowS: false, format: 'der' }))
    const header = base64UrlEncode(
      utf8Encode(
        JSON.stringify({ publicKeyAttestation: token, scheme: 'STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN', publicKey, signature }),
      ),
    )

    const signed = await stampSignatureCheck(new Headers({ 'X-Stamp-Attested': header }), rawBody)
    const { principal, effectiveOrganizationId } = await authenticate({} as Sql, {} as ServiceConfig, {
      signed,
      rawBody,
      organizationId: ORG,
      allowDescendant: true,
      now: Date.now(),
      verifierPublicKeyHex: bytesToHex(verifier.publicKey),
    })

    expect(principal).toMatchObject({ userId: 'user-1', credentialKind: 'ATTESTED', credentialId: 'token-1', publicKey })
    expect(effectiveOrganizationId).toBe(ORG)
    expect(calls).toEqual({ parse: 1, verify: 1 })
  })
})
