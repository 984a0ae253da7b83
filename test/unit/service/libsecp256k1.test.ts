/**
 * The service's libsecp256k1 signer (src/service/chains/libsecp256k1.ts) gives the same bytes as
 * the shared pure-JS signer for any key and digest, and signRawPayload uses whichever is installed.
 */
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { signRawPayload } from '@/src/chains/sign/raw'
import { nobleSecp256k1Signer, useSecp256k1DigestSigner } from '@/src/chains/sign/secp256k1'
import { libsecp256k1Signer } from '@/src/service/chains/libsecp256k1'

const N = secp256k1.Point.CURVE().n
const key = fc.bigInt({ min: 1n, max: N - 1n }).map((k) => Uint8Array.from(Buffer.from(k.toString(16).padStart(64, '0'), 'hex')))

afterEach(() => void useSecp256k1DigestSigner(nobleSecp256k1Signer))

describe('libsecp256k1 signer', () => {
  it('signs byte-for-byte as @noble/curves (RFC 6979, low-S, recovery id)', () => {
    fc.assert(
      fc.property(key, fc.uint8Array({ minLength: 32, maxLength: 32 }), (sk, digest) => {
        expect(libsecp256k1Signer(digest, sk)).toEqual(nobleSecp256k1Signer(digest, sk))
      }),
      { numRuns: 300 },
    )
    // the edges of the key range and of the digest
    for (const sk of [1n, N - 1n].map((k) => Uint8Array.from(Buffer.from(k.toString(16).padStart(64, '0'), 'hex'))))
      for (const digest of [new Uint8Array(32), new Uint8Array(32).fill(255)])
        expect(libsecp256k1Signer(digest, sk)).toEqual(nobleSecp256k1Signer(digest, sk))
  })

  it('refuses an invalid private key as the pure-JS signer does', () => {
    const digest = keccak_256(new Uint8Array([1]))
    for (const bad of [new Uint8Array(32), Uint8Array.from(Buffer.from(N.toString(16), 'hex'))]) {
      expect(() => libsecp256k1Signer(digest, bad)).toThrow()
      expect(() => nobleSecp256k1Signer(digest, bad)).toThrow()
    }
  })

  it('is what signRawPayload uses once installed', () => {
    const calls: number[] = []
    const sk = secp256k1.utils.randomSecretKey()
    const args = {
      privateKey: sk,
      curve: 'CURVE_SECP256K1',
      payload: '0xabcd',
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_KECCAK256',
    } as const
    const before = signRawPayload(args)
    useSecp256k1DigestSigner((d, k) => {
      calls.push(d.length)
      return libsecp256k1Signer(d, k)
    })
    expect(signRawPayload(args)).toEqual(before)
    expect(calls).toEqual([32])
  })
})
