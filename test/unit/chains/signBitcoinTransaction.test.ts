/**
 * sign_transaction TRANSACTION_TYPE_BITCOIN and `bitcoin.tx`: a PSBT spending fake UTXOs of every
 * script type the key controls (P2PKH, P2SH-P2WPKH, P2WPKH, P2WSH, P2TR) beside someone else's; each
 * of ours signed, verified against sighashes computed by hand (test/helpers/bitcoinPsbt.ts), then
 * finalized and extracted by @scure/btc-signer; the foreign one untouched; hostile PSBTs refused with
 * INVALID_ARGUMENT naming unsignedTransaction. The policy facts come from the same PSBT.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { base64 } from '@scure/base'
import { SigHash, Transaction } from '@scure/btc-signer'
import { describe, expect, it } from 'vitest'
import { SigilError } from '../../../src/api/errors.js'
import { bitcoinAddress } from '../../../src/chains/formats/bitcoin.js'
import { bitcoinTxFromPsbt } from '../../../src/chains/policy/bitcoinTx.js'
import { signBitcoinTransaction } from '../../../src/chains/sign/bitcoinTransaction.js'
import { bytesToHex, hexToBytes } from '../../../src/crypto/encoding.js'
import { type BtcKind, psbtSpending, scriptOf, scriptOfAddress, verifyInputSignature } from '../../helpers/bitcoinPsbt.js'

const privateKey = hexToBytes('0101010101010101010101010101010101010101010101010101010101010101')
const publicKey = secp256k1.getPublicKey(privateKey, true)
const stranger = secp256k1.getPublicKey(hexToBytes('0202020202020202020202020202020202020202020202020202020202020202'), true)
const KINDS: BtcKind[] = ['P2PKH', 'P2SH', 'P2WPKH', 'P2WSH', 'P2TR']
const PAY_TO = bitcoinAddress('REGTEST', 'P2WPKH', stranger)

function refusal(f: () => unknown): SigilError {
  try {
    f()
  } catch (e) {
    expect(e).toBeInstanceOf(SigilError)
    return e as SigilError
  }
  throw new Error('expected a refusal')
}

describe('signBitcoinTransaction', () => {
  const utxos = [
    ...KINDS.map((k, i) => ({ script: scriptOf(k, publicKey), amount: 10_000n * BigInt(i + 1), seed: i + 1 })),
    { script: scriptOf('P2WPKH', stranger), amount: 5_000n, seed: 9 },
  ]
  const unsigned = psbtSpending(utxos, [
    { script: scriptOfAddress(PAY_TO, 'REGTEST'), amount: 150_000n },
    { script: scriptOf('P2TR', publicKey), amount: 5_000n },
  ])

  it('signs every input of the key, leaves the foreign one, and btc-signer finalizes ours', () => {
    const { signedTransaction, signedInputs } = signBitcoinTransaction({ privateKey, unsignedTransaction: bytesToHex(unsigned.toPSBT()) })
    expect(signedInputs).toEqual([0, 1, 2, 3, 4])
    expect(signedTransaction).toMatch(/^70736274ff[0-9a-f]+$/)
    const signed = Transaction.fromPSBT(hexToBytes(signedTransaction), { allowUnknownOutputs: true })
    KINDS.forEach((k, i) => {
      expect(verifyInputSignature(signed, i, k, publicKey, utxos[i]?.amount as bigint), k).toBe(true)
      signed.finalizeIdx(i)
    })
    // Someone else's input: no signature of ours, nothing to finalize with.
    expect(signed.getInput(5).partialSig).toBeUndefined()
    expect(() => signed.finalizeIdx(5)).toThrow()
    // The independent check can fail: another amount is another BIP-143 digest.
    const again = Transaction.fromPSBT(hexToBytes(signedTransaction), { allowUnknownOutputs: true })
    expect(verifyInputSignature(again, 2, 'P2WPKH', publicKey, 30_000n)).toBe(true)
    expect(verifyInputSignature(again, 2, 'P2WPKH', publicKey, 30_001n)).toBe(false)
  })

  it('a PSBT of only the key’s inputs extracts to a complete transaction; base64 and 0x-hex are read too', () => {
    const own = psbtSpending(
      KINDS.map((k, i) => ({ script: scriptOf(k, publicKey), amount: 20_000n, seed: 20 + i, witnessUtxo: i % 2 === 0 })),
      [{ script: scriptOfAddress(PAY_TO, 'REGTEST'), amount: 90_000n }],
    )
    for (const text of [`0x${bytesToHex(own.toPSBT())}`, base64.encode(own.toPSBT())]) {
      const { signedTransaction } = signBitcoinTransaction({ privateKey, unsignedTransaction: text })
      const signed = Transaction.fromPSBT(hexToBytes(signedTransaction))
      signed.finalize()
      const raw = Transaction.fromRaw(signed.extract(), { allowUnknownOutputs: true })
      expect(raw.inputsLength).toBe(5)
      expect(raw.id).toBe(signed.id)
    }
  })

  it('refuses what it cannot sign, naming unsignedTransaction', () => {
    const cases: Array<[string, string | RegExp]> = [
      ['', /empty/],
      ['zz', /hex/],
      ['deadbeef', /not a PSBT/],
      ['70736274ff0100', /not a valid PSBT/],
      [bytesToHex(psbtSpending([{ script: scriptOf('P2WPKH', stranger), amount: 1n, seed: 1 }], []).toPSBT()), /no input/],
    ]
    for (const [input, message] of cases) {
      const e = refusal(() => signBitcoinTransaction({ privateKey, unsignedTransaction: input }))
      expect(e.code).toBe('INVALID_ARGUMENT')
      expect(e.fieldViolations[0]?.field).toBe('unsignedTransaction')
      expect(e.message).toMatch(message)
    }
    // A sighash that lets outputs change after signing is refused, not signed.
    const anyone = psbtSpending([{ script: scriptOf('P2WPKH', publicKey), amount: 1000n, seed: 3 }], [])
    anyone.updateInput(0, { sighashType: SigHash.NONE })
    expect(refusal(() => signBitcoinTransaction({ privateKey, unsignedTransaction: bytesToHex(anyone.toPSBT()) })).message).toMatch(
      /sighash type 2/,
    )
    // Too many inputs for a bounded amount of signing work.
    const wide = psbtSpending(
      [{ script: scriptOf('P2WPKH', publicKey), amount: 1000n, seed: 6 }],
      Array.from({ length: 1001 }, () => ({ script: scriptOf('P2WPKH', stranger), amount: 1n })),
    )
    expect(refusal(() => signBitcoinTransaction({ privateKey, unsignedTransaction: bytesToHex(wide.toPSBT()) })).message).toMatch(
      /more than 1000/,
    )
    // A legacy input without its previous transaction cannot be signed safely.
    const bare = psbtSpending([{ script: scriptOf('P2WPKH', publicKey), amount: 1000n, seed: 4 }], [])
    const legacyNoPrev = new Transaction({ allowUnknownInputs: true, allowLegacyWitnessUtxo: true })
    const i0 = bare.getInput(0)
    legacyNoPrev.addInput({ txid: i0.txid as Uint8Array, index: 0, witnessUtxo: { script: scriptOf('P2PKH', publicKey), amount: 1000n } })
    expect(
      refusal(() => signBitcoinTransaction({ privateKey, unsignedTransaction: bytesToHex(legacyNoPrev.toPSBT()) })).fieldViolations[0]
        ?.field,
    ).toBe('unsignedTransaction')
  })
})

describe('bitcoinTxFromPsbt', () => {
  it('reads outputs, inputs, lock time and fee of the PSBT the signer signs', () => {
    const tx = psbtSpending(
      [
        { script: scriptOf('P2WPKH', publicKey), amount: 70_000n, seed: 5 },
        { script: scriptOf('P2TR', publicKey), amount: 30_000n, seed: 6 },
      ],
      [
        { script: scriptOfAddress(PAY_TO, 'REGTEST'), amount: 60_000n },
        { script: hexToBytes('6a0568656c6c6f'), amount: 0n },
        { script: scriptOf('P2TR', publicKey), amount: 39_000n },
      ],
    )
    const facts = bitcoinTxFromPsbt(bytesToHex(tx.toPSBT()), 'REGTEST')
    expect(facts.outputs).toEqual([
      { value: 60_000n, script_pubkey: bytesToHex(scriptOfAddress(PAY_TO, 'REGTEST')), address: PAY_TO, address_type: 'p2wpkh' },
      { value: 0n, script_pubkey: '6a0568656c6c6f', address: '', address_type: '' },
      {
        value: 39_000n,
        script_pubkey: bytesToHex(scriptOf('P2TR', publicKey)),
        address: bitcoinAddress('REGTEST', 'P2TR', publicKey),
        address_type: 'p2tr',
      },
    ])
    expect(facts.fee).toBe(1_000n)
    // tx_id is the id explorers show: the id of the previous transaction (hashed here from its bytes).
    expect(facts.inputs).toEqual([0, 1].map((i) => ({ tx_id: Transaction.fromRaw(rawOf(tx, i)).id, vout: 0n, sequence: 0xffffffffn })))
    expect(facts.locktime).toEqual({ amount: 0n, type: 'Blocks' })
    expect(facts.version).toBe(String(tx.version))
    // Mainnet encoding of the same script.
    expect(bitcoinTxFromPsbt(bytesToHex(tx.toPSBT()), 'MAINNET').outputs[0]?.address).toMatch(/^bc1q/)
    // A segwit input with only its witnessUtxo still gives the fee; with neither, there is none.
    const noAmounts = new Transaction()
    noAmounts.addInput({ txid: tx.getInput(0).txid as Uint8Array, index: 1 })
    noAmounts.addOutput({ script: scriptOf('P2WPKH', stranger), amount: 5n })
    expect(bitcoinTxFromPsbt(bytesToHex(noAmounts.toPSBT()), 'REGTEST')).not.toHaveProperty('fee')
  })
})

/** The raw previous transaction of input `i` (its nonWitnessUtxo), serialized. */
function rawOf(tx: Transaction, i: number): Uint8Array {
  const prev = tx.getInput(i).nonWitnessUtxo
  if (!prev) throw new Error('no previous transaction')
  const t = new Transaction({ allowUnknownOutputs: true })
  for (const inp of prev.inputs) t.addInput({ txid: inp.txid, index: inp.index, sequence: inp.sequence })
  for (const o of prev.outputs) t.addOutput({ script: o.script, amount: o.amount })
  return t.toBytes(true, true)
}
