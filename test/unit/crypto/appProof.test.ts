import { verifyAppProofSignature } from '@turnkey/crypto'
import { describe, expect, it } from 'vitest'
import { p256 } from '@noble/curves/nist.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { APP_PROOF_SCHEME, canonicalJson, createAppProof, verifyAppProof } from '../../../src/crypto/appProof.js'
import { bytesToHex, hexToBytes, utf8Encode } from '../../../src/crypto/encoding.js'
import { generateP256KeyPair } from '../../../src/crypto/p256.js'

const signer = generateP256KeyPair()
const intent = { signRawPayloadIntentV2: { signWith: '0xdead', payload: '0x01', encoding: 'PAYLOAD_ENCODING_HEXADECIMAL' } }
const result = { signRawPayloadResult: { r: 'aa', s: 'bb', v: '00' } }

describe('canonicalJson', () => {
  it('sorts keys recursively, keeps array order, drops undefined, no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: undefined }, e: 'x' })).toBe('{"a":{"d":[3,{"y":2,"z":1}]},"b":1,"e":"x"}')
    expect(canonicalJson([undefined, null, true])).toBe('[null,null,true]')
    expect(() => canonicalJson({ n: Number.NaN })).toThrow()
  })
})

describe('app proofs', () => {
  const proof = createAppProof({
    activityId: 'act-1',
    type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
    organizationId: 'org-1',
    intent,
    result,
    signerPrivateKey: signer.privateKey,
  })

  it("has the hosted service's layout (130-byte key, raw r||s) and verifies, here and with @turnkey/crypto", () => {
    expect(proof.scheme).toBe(APP_PROOF_SCHEME)
    expect(proof.publicKey).toBe(bytesToHex(signer.publicKeyUncompressed) + bytesToHex(signer.publicKeyUncompressed))
    const payload = JSON.parse(proof.proofPayload) as Record<string, string>
    expect(Object.keys(payload)).toEqual(['activityId', 'intentDigest', 'organizationId', 'resultDigest', 'timestampMs', 'type'])
    expect(payload.intentDigest).toBe(bytesToHex(sha256(utf8Encode(canonicalJson(intent)))))
    expect(hexToBytes(proof.signature)).toHaveLength(64)
    expect(
      p256.verify(hexToBytes(proof.signature), utf8Encode(proof.proofPayload), signer.publicKeyUncompressed, { format: 'compact' }),
    ).toBe(true)
    const r = verifyAppProof(proof, { intent, result, expectedPublicKey: bytesToHex(signer.publicKey) })
    expect(r.ok && r.payload.activityId).toBe('act-1')
    expect(() => verifyAppProofSignature(proof)).not.toThrow()
    expect(() => verifyAppProofSignature({ ...proof, proofPayload: proof.proofPayload.replace('act-1', 'act-2') })).toThrow()
    const withEncryptionKey = createAppProof({
      activityId: 'act-1',
      type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
      organizationId: 'org-1',
      intent,
      result,
      signerPrivateKey: signer.privateKey,
      encryptionPublicKey: generateP256KeyPair().publicKeyUncompressed,
    })
    expect(() => verifyAppProofSignature(withEncryptionKey)).not.toThrow()
  })

  it('key order of intent/result does not matter', () => {
    const reordered = { signRawPayloadIntentV2: { encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', payload: '0x01', signWith: '0xdead' } }
    expect(verifyAppProof(proof, { intent: reordered }).ok).toBe(true)
  })

  it('refuses changed intent, result, key, signature, scheme', () => {
    expect(verifyAppProof(proof, { intent: { other: 1 } })).toEqual({ ok: false, reason: 'PROOF_INTENT_MISMATCH' })
    expect(verifyAppProof(proof, { result: { other: 1 } })).toEqual({ ok: false, reason: 'PROOF_RESULT_MISMATCH' })
    expect(verifyAppProof(proof, { expectedPublicKey: bytesToHex(generateP256KeyPair().publicKey) })).toEqual({
      ok: false,
      reason: 'PROOF_KEY_MISMATCH',
    })
    expect(verifyAppProof({ ...proof, proofPayload: proof.proofPayload.replace('act-1', 'act-2') })).toEqual({
      ok: false,
      reason: 'PROOF_SIGNATURE_INVALID',
    })
    expect(verifyAppProof({ ...proof, scheme: 'X' })).toEqual({ ok: false, reason: 'PROOF_SCHEME_UNSUPPORTED' })
    expect(verifyAppProof({ ...proof, signature: 'zz' })).toEqual({ ok: false, reason: 'PROOF_MALFORMED' })
  })

  it("also accepts Sigil's earlier layout (compressed key, DER signature)", () => {
    const der = p256.sign(utf8Encode(proof.proofPayload), signer.privateKey, { format: 'der' })
    const earlier = { ...proof, publicKey: bytesToHex(signer.publicKey), signature: bytesToHex(der) }
    expect(verifyAppProof(earlier, { intent, result, expectedPublicKey: proof.publicKey }).ok).toBe(true)
  })
})
