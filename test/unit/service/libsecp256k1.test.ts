/**
 * The service's libsecp256k1 signer (src/service/chains/libsecp256k1.ts) gives the same bytes as
 * the shared pure-JS signer for any key and digest, and signRawPayload uses whichever is installed;
 * its BIP-32 deriver gives the keys `@scure/bip32` gives, on the BIP-32 test vectors and any seed
 * and path, and deriveAccount uses whichever is installed.
 */
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { signRawPayload } from '@/src/chains/sign/raw'
import { nobleSecp256k1Signer, useSecp256k1DigestSigner } from '@/src/chains/sign/secp256k1'
import { deriveAccount, deriveKey, scureBip32Deriver, useBip32Deriver } from '@/src/chains/derive'
import { libsecp256k1Bip32Deriver, libsecp256k1Signer } from '@/src/service/chains/libsecp256k1'

const N = secp256k1.Point.CURVE().n
const key = fc.bigInt({ min: 1n, max: N - 1n }).map((k) => Uint8Array.from(Buffer.from(k.toString(16).padStart(64, '0'), 'hex')))

afterEach(() => {
  useSecp256k1DigestSigner(nobleSecp256k1Signer)
  useBip32Deriver(scureBip32Deriver)
})

const H = 0x8000_0000
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')

describe('libsecp256k1 BIP-32 deriver', () => {
  it('derives the BIP-32 test vector 1 chain (m/0H/1/2H/2/1000000000)', () => {
    const seed = Uint8Array.from(Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex'))
    // Private keys of the vector's chain (bip-0032.mediawiki, test vector 1).
    const expected: Array<[number[], string]> = [
      [[], 'e8f32e723decf4051aefac8e2c93c9c5b214313817cdb01a1494b917c8436b35'],
      [[H], 'edb2e14f9ee77d26dd93b4ecede8d16ed408ce149b6cd80b0715a2d911a0afea'],
      [[H, 1], '3c6cb8d0f6a264c91ea8b5030fadaa8e538b020f0a387421a12de9319dc93368'],
      [[H, 1, H + 2], 'cbce0d719ecf7431d88e6a89fa1483e02e35092af60c042b1df2ff59fa424dca'],
      [[H, 1, H + 2, 2], '0f479245fb19a38a1954c5c7c0ebab2f9bdfd96a17563ef28a6a4b1a2a764ef4'],
      [[H, 1, H + 2, 2, 1_000_000_000], '471b76e389e528d6de6d816857e012c5455051cad6660850e58372a6c3e6e7c8'],
    ]
    for (const [indices, privateKey] of expected) {
      const got = libsecp256k1Bip32Deriver(seed, indices)
      expect(hex(got.privateKey)).toBe(privateKey)
      expect(got.publicKey).toEqual(scureBip32Deriver(seed, indices).publicKey)
    }
  })

  it('derives the keys @scure/bip32 derives for any seed and path', () => {
    const index = fc.oneof(fc.integer({ min: 0, max: H - 1 }), fc.integer({ min: H, max: 2 ** 32 - 1 }))
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 64 }), fc.array(index, { maxLength: 6 }), (seed, indices) => {
        expect(libsecp256k1Bip32Deriver(seed, indices)).toEqual(scureBip32Deriver(seed, indices))
      }),
      { numRuns: 100 },
    )
  })

  it('is what deriveKey and deriveAccount use once installed', () => {
    const seed = new Uint8Array(64).fill(7)
    const args = { seed, curve: 'CURVE_SECP256K1' as const, path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' as const }
    const pure = deriveAccount(args)
    let calls = 0
    useBip32Deriver((s, i) => {
      calls++
      return libsecp256k1Bip32Deriver(s, i)
    })
    expect(deriveAccount(args)).toEqual(pure)
    expect(hex(deriveKey(args).privateKey)).toBe(hex(pure.privateKey))
    expect(calls).toBe(2)
  })
})

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
