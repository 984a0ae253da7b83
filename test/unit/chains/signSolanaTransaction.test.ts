/**
 * sign_transaction TRANSACTION_TYPE_SOLANA: signature placed in our signer slot, verified with
 * @noble/curves ed25519 over the message bytes; legacy and v0 messages; full tx or bare message.
 * Messages are hand-assembled per the Solana wire format (docs.solana.com "Transactions":
 * compact-u16 arrays, header [numRequiredSignatures, numReadonlySigned, numReadonlyUnsigned]).
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { describe, expect, it } from 'vitest'
import { SigilError } from '../../../src/api/errors.js'
import { bytesToHex, concatBytes, hexToBytes } from '../../../src/crypto/encoding.js'
import { deriveKey } from '../../../src/chains/derive.js'
import { mnemonicToSeed } from '../../../src/chains/mnemonic.js'
import { signSolanaTransaction } from '../../../src/chains/sign/solanaTransaction.js'
import { encodeCompactU16 } from '../../../src/chains/sign/solanaMessage.js'

const seed = mnemonicToSeed('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about')
const me = deriveKey({ seed, curve: 'CURVE_ED25519', path: "m/44'/501'/0'/0'" })
const other = deriveKey({ seed, curve: 'CURVE_ED25519', path: "m/44'/501'/1'/0'" })
const PROGRAM = new Uint8Array(32).fill(0) // System Program
const BLOCKHASH = new Uint8Array(32).fill(7)

function message(signers: Uint8Array[], opts: { v0?: boolean } = {}): Uint8Array {
  const keys = [...signers, PROGRAM]
  const ix = concatBytes(
    new Uint8Array([keys.length - 1]), // program id index
    encodeCompactU16(2),
    new Uint8Array([0, 1]),
    encodeCompactU16(12),
    new Uint8Array(12).fill(2),
  )
  return concatBytes(
    opts.v0 ? new Uint8Array([0x80]) : new Uint8Array(),
    new Uint8Array([signers.length, 0, 1]),
    encodeCompactU16(keys.length),
    ...keys,
    BLOCKHASH,
    encodeCompactU16(1),
    ix,
    opts.v0 ? encodeCompactU16(0) : new Uint8Array(),
  )
}

function unsignedTx(msg: Uint8Array, n: number): Uint8Array {
  return concatBytes(encodeCompactU16(n), new Uint8Array(64 * n), msg)
}

function split(signedHex: string, n: number) {
  const b = hexToBytes(signedHex)
  expect(b[0]).toBe(n)
  const sigs = Array.from({ length: n }, (_, i) => b.subarray(1 + 64 * i, 1 + 64 * (i + 1)))
  return { sigs, msg: b.subarray(1 + 64 * n) }
}

describe('signSolanaTransaction', () => {
  it('fills our slot (second signer) in a full unsigned legacy transaction', () => {
    const msg = message([other.publicKey, me.publicKey])
    const signed = signSolanaTransaction({
      privateKey: me.privateKey,
      publicKey: me.publicKey,
      unsignedTransaction: bytesToHex(unsignedTx(msg, 2)),
    })
    const { sigs, msg: out } = split(signed, 2)
    expect(bytesToHex(out)).toBe(bytesToHex(msg))
    expect(bytesToHex(sigs[0]!)).toBe('00'.repeat(64))
    expect(ed25519.verify(sigs[1]!, msg, me.publicKey)).toBe(true)
  })

  it('accepts a bare message and returns a full transaction', () => {
    const msg = message([me.publicKey])
    const signed = signSolanaTransaction({
      privateKey: me.privateKey,
      publicKey: me.publicKey,
      unsignedTransaction: `0x${bytesToHex(msg)}`,
    })
    const { sigs, msg: out } = split(signed, 1)
    expect(bytesToHex(out)).toBe(bytesToHex(msg))
    expect(ed25519.verify(sigs[0]!, msg, me.publicKey)).toBe(true)
  })

  it('handles v0 messages (full and bare)', () => {
    const msg = message([me.publicKey, other.publicKey], { v0: true })
    for (const input of [unsignedTx(msg, 2), msg]) {
      const signed = signSolanaTransaction({ privateKey: me.privateKey, publicKey: me.publicKey, unsignedTransaction: bytesToHex(input) })
      const { sigs, msg: out } = split(signed, 2)
      expect(out[0]).toBe(0x80)
      expect(ed25519.verify(sigs[0]!, msg, me.publicKey)).toBe(true)
      expect(bytesToHex(sigs[1]!)).toBe('00'.repeat(64))
    }
  })

  it("keeps another signer's existing signature", () => {
    const msg = message([other.publicKey, me.publicKey])
    const otherSig = ed25519.sign(msg, other.privateKey)
    const partly = concatBytes(encodeCompactU16(2), otherSig, new Uint8Array(64), msg)
    const signed = signSolanaTransaction({ privateKey: me.privateKey, publicKey: me.publicKey, unsignedTransaction: bytesToHex(partly) })
    const { sigs } = split(signed, 2)
    expect(ed25519.verify(sigs[0]!, msg, other.publicKey)).toBe(true)
    expect(ed25519.verify(sigs[1]!, msg, me.publicKey)).toBe(true)
  })

  it('compact-u16 round trip for multi-byte lengths', () => {
    expect(bytesToHex(encodeCompactU16(0))).toBe('00')
    expect(bytesToHex(encodeCompactU16(0x7f))).toBe('7f')
    expect(bytesToHex(encodeCompactU16(0x80))).toBe('8001')
    expect(bytesToHex(encodeCompactU16(0x3fff))).toBe('ff7f')
    expect(bytesToHex(encodeCompactU16(0x4000))).toBe('808001')
    expect(bytesToHex(encodeCompactU16(0xffff))).toBe('ffff03')
  })

  it.each([
    ['not a signer', () => bytesToHex(message([other.publicKey]))],
    ['garbage', () => 'deadbeef'],
    ['non-hex', () => 'xyz'],
    ['trailing bytes', () => bytesToHex(concatBytes(message([me.publicKey]), new Uint8Array([1])))],
    [
      'signature count mismatch',
      () => bytesToHex(concatBytes(encodeCompactU16(1), new Uint8Array(64), message([other.publicKey, me.publicKey]))),
    ],
  ])('refuses %s naming unsignedTransaction', (_name, input) => {
    let err: unknown
    try {
      signSolanaTransaction({ privateKey: me.privateKey, publicKey: me.publicKey, unsignedTransaction: input() })
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(SigilError)
    expect((err as SigilError).fieldViolations[0]?.field).toBe('unsignedTransaction')
  })
})
