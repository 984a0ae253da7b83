/**
 * Every entry of test/vectors/derivation-vectors.json: published BIP-44/49/84/86, SLIP-0132,
 * SEP-0005 addresses and every SLIP-0010 vector (secp256k1, nist256p1, ed25519, retry cases).
 */
import { HDKey } from '@scure/bip32'
import { describe, expect, it } from 'vitest'
import vectors from '../../vectors/derivation-vectors.json' with { type: 'json' }
import { bytesToHex, hexToBytes } from '../../../src/crypto/encoding.js'
import { deriveAccount, deriveKey } from '../../../src/chains/derive.js'
import { mnemonicToSeed } from '../../../src/chains/mnemonic.js'
import { parsePath } from '../../../src/chains/path.js'
import { slip10Derive } from '../../../src/chains/slip10.js'
import type { AddressFormat, Curve } from '../../../src/chains/types.js'

type AddrVector = (typeof vectors.addresses)[number]
type SlipVector = (typeof vectors.slip10)[number]

describe('derivation-vectors.json addresses', () => {
  it('has vectors', () => expect(vectors.addresses.length).toBeGreaterThan(20))
  it.each(vectors.addresses.map((v: AddrVector) => [`${v.addressFormat} ${v.path}`, v] as const))('%s', (_name, v) => {
    const seed = mnemonicToSeed(v.mnemonic)
    const acct = deriveAccount({
      seed,
      curve: v.curve as Curve,
      path: v.path,
      addressFormat: v.addressFormat as AddressFormat,
    })
    expect(acct.address).toBe(v.address)
    expect(acct.publicKey).toBe(v.publicKey)
  })
})

describe('derivation-vectors.json slip10 (satoshilabs/slips slip-0010.md)', () => {
  it('has vectors for all three curves', () => {
    const curves = new Set(vectors.slip10.map((v: SlipVector) => v.slip10Curve))
    expect([...curves].sort()).toEqual(['ed25519', 'nist256p1', 'secp256k1'])
  })
  it.each(vectors.slip10.map((v: SlipVector) => [`${v.section} ${v.path}`, v] as const))('%s', (_name, v) => {
    const seed = hexToBytes(v.seedHex)
    const indices = parsePath(v.path)
    if (v.slip10Curve === 'secp256k1') {
      // secp256k1 SLIP-10 == BIP-32: checked through @scure/bip32 as used by deriveKey.
      let node = HDKey.fromMasterSeed(seed)
      for (const i of indices) node = node.deriveChild(i)
      expect(bytesToHex(node.chainCode!)).toBe(v.chainCode)
      expect(node.parentFingerprint.toString(16).padStart(8, '0')).toBe(v.fingerprint)
    } else {
      const node = slip10Derive(v.slip10Curve as 'ed25519' | 'nist256p1', seed, indices)
      expect(bytesToHex(node.chainCode)).toBe(v.chainCode)
      expect(bytesToHex(node.privateKey)).toBe(v.privateKey)
      expect(bytesToHex(node.publicKey)).toBe(v.publicKey)
      expect(node.parentFingerprint.toString(16).padStart(8, '0')).toBe(v.fingerprint)
    }
    const key = deriveKey({ seed, curve: v.curve as Curve, path: v.path })
    expect(bytesToHex(key.privateKey)).toBe(v.privateKey)
    expect(bytesToHex(key.publicKey)).toBe(v.publicKey)
  })
})
