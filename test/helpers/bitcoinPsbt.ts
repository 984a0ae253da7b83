/**
 * Bitcoin test fixtures: PSBTs spending fake UTXOs (built with @scure/btc-signer, as a wallet would),
 * and an independent check of the signatures a signer put in them: the legacy and BIP-143 sighashes
 * are computed here by hand from the transaction's fields (BIP-143 "Specification"; the original
 * SIGHASH_ALL serialization), not by the library that signed, and verified with @noble/curves; the
 * BIP-341 (taproot) message is btc-signer's `preimageWitnessV1`, verified with noble's BIP-340.
 */
import { schnorr, secp256k1 } from '@noble/curves/secp256k1.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { Address, OutScript, SigHash, Transaction, p2pk, p2pkh, p2sh, p2tr, p2wpkh, p2wsh } from '@scure/btc-signer'
import { concatBytes } from '../../src/crypto/encoding.js'
import { BITCOIN_NETWORK_PARAMS } from '../../src/chains/formats/bitcoin.js'
import type { BitcoinNetwork } from '../../src/chains/types.js'

export type BtcKind = 'P2PKH' | 'P2SH' | 'P2WPKH' | 'P2WSH' | 'P2TR'

/** The output script of `kind` for a compressed public key (as the address formats make it). */
export function scriptOf(kind: BtcKind, publicKey: Uint8Array): Uint8Array {
  switch (kind) {
    case 'P2PKH':
      return p2pkh(publicKey).script
    case 'P2SH':
      return p2sh(p2wpkh(publicKey)).script
    case 'P2WPKH':
      return p2wpkh(publicKey).script
    case 'P2WSH':
      return p2wsh(p2pk(publicKey)).script
    case 'P2TR':
      return p2tr(publicKey.subarray(1)).script
  }
}

/** The output script of an address on `network`. */
export const scriptOfAddress = (address: string, network: BitcoinNetwork) =>
  OutScript.encode(Address(BITCOIN_NETWORK_PARAMS[network]).decode(address))

/** One fake UTXO: the script it pays and its amount; `seed` varies its previous transaction. */
export type FakeUtxo = { script: Uint8Array; amount: bigint; seed: number; witnessUtxo?: boolean }

/** A previous transaction paying `utxo` at output 0 (its one input spends a made-up outpoint). */
function previousTx(utxo: FakeUtxo): Transaction {
  const prev = new Transaction({ allowUnknownOutputs: true })
  prev.addInput({ txid: new Uint8Array(32).fill(utxo.seed), index: utxo.seed })
  prev.addOutput({ script: utxo.script, amount: utxo.amount })
  return prev
}

/**
 * An unsigned PSBT spending `utxos` (each with its full previous transaction, and with its
 * `witnessUtxo` unless `witnessUtxo: false`; a P2PKH input never gets one) to `outputs`.
 */
export function psbtSpending(utxos: readonly FakeUtxo[], outputs: readonly { script: Uint8Array; amount: bigint }[]): Transaction {
  const tx = new Transaction({ allowUnknownOutputs: true, allowUnknownInputs: true })
  for (const u of utxos) {
    const prev = previousTx(u)
    const legacy = OutScript.decode(u.script).type === 'pkh'
    tx.addInput({
      txid: prev.id,
      index: 0,
      nonWitnessUtxo: prev.toBytes(true, true),
      ...(u.witnessUtxo === false || legacy ? {} : { witnessUtxo: { script: u.script, amount: u.amount } }),
    })
  }
  for (const o of outputs) tx.addOutput(o)
  return tx
}

const dsha = (b: Uint8Array) => sha256(sha256(b))
const le = (v: bigint | number, n: number) => {
  const out = new Uint8Array(n)
  let x = BigInt(v)
  for (let i = 0; i < n; i++) {
    out[i] = Number(x & 0xffn)
    x >>= 8n
  }
  return out
}
const varBytes = (b: Uint8Array) => {
  if (b.length >= 0xfd) throw new Error('test helper: scripts up to 252 bytes')
  return concatBytes(new Uint8Array([b.length]), b)
}
const outpoint = (tx: Transaction, i: number) => {
  const input = tx.getInput(i)
  return concatBytes(Uint8Array.from(input.txid as Uint8Array).reverse(), le(input.index as number, 4))
}
const sequence = (tx: Transaction, i: number) => le(tx.getInput(i).sequence ?? 0xffffffff, 4)
const outputsBytes = (tx: Transaction) =>
  concatBytes(
    ...Array.from({ length: tx.outputsLength }, (_, i) => {
      const o = tx.getOutput(i)
      return concatBytes(le(o.amount as bigint, 8), varBytes(o.script as Uint8Array))
    }),
  )

/** The legacy SIGHASH_ALL digest of input `idx` spending `scriptCode`. */
export function legacySighash(tx: Transaction, idx: number, scriptCode: Uint8Array): Uint8Array {
  const ins = Array.from({ length: tx.inputsLength }, (_, i) =>
    concatBytes(outpoint(tx, i), varBytes(i === idx ? scriptCode : new Uint8Array()), sequence(tx, i)),
  )
  const body = concatBytes(
    le(tx.version, 4),
    new Uint8Array([tx.inputsLength]),
    ...ins,
    new Uint8Array([tx.outputsLength]),
    outputsBytes(tx),
    le(tx.lockTime, 4),
    le(SigHash.ALL, 4),
  )
  return dsha(body)
}

/** The BIP-143 SIGHASH_ALL digest of input `idx` spending `amount` under `scriptCode`. */
export function bip143Sighash(tx: Transaction, idx: number, scriptCode: Uint8Array, amount: bigint): Uint8Array {
  const n = tx.inputsLength
  const hashPrevouts = dsha(concatBytes(...Array.from({ length: n }, (_, i) => outpoint(tx, i))))
  const hashSequence = dsha(concatBytes(...Array.from({ length: n }, (_, i) => sequence(tx, i))))
  return dsha(
    concatBytes(
      le(tx.version, 4),
      hashPrevouts,
      hashSequence,
      outpoint(tx, idx),
      varBytes(scriptCode),
      le(amount, 8),
      sequence(tx, idx),
      dsha(outputsBytes(tx)),
      le(tx.lockTime, 4),
      le(SigHash.ALL, 4),
    ),
  )
}

/**
 * Checks the signature the key `publicKey` put on input `idx` of `kind` in the signed PSBT `signed`,
 * against a digest computed independently of the signer (see the module comment). True when it verifies.
 */
export function verifyInputSignature(signed: Transaction, idx: number, kind: BtcKind, publicKey: Uint8Array, amount: bigint): boolean {
  const input = signed.getInput(idx)
  if (kind === 'P2TR') {
    const sig = input.tapKeySig
    if (!sig || sig.length !== 64) return false
    const prevouts = Array.from({ length: signed.inputsLength }, (_, i) => {
      const inp = signed.getInput(i)
      const w = inp.witnessUtxo ?? inp.nonWitnessUtxo?.outputs[inp.index as number]
      if (!w) throw new Error(`input ${i} has no previous output`)
      return w
    })
    const msg = signed.preimageWitnessV1(
      idx,
      prevouts.map((p) => p.script),
      SigHash.DEFAULT,
      prevouts.map((p) => p.amount),
    )
    const tweaked = p2tr(publicKey.subarray(1)).tweakedPubkey
    return schnorr.verify(sig, msg, tweaked)
  }
  const entry = input.partialSig?.find(([pk]) => pk.length === publicKey.length && pk.every((x, i) => x === publicKey[i]))
  if (!entry) return false
  const [, sigWithType] = entry
  if (sigWithType[sigWithType.length - 1] !== SigHash.ALL) return false
  const der = sigWithType.subarray(0, -1)
  const pkh = p2pkh(publicKey).script
  const digest =
    kind === 'P2PKH'
      ? legacySighash(signed, idx, pkh)
      : kind === 'P2WSH'
        ? bip143Sighash(signed, idx, p2pk(publicKey).script, amount)
        : bip143Sighash(signed, idx, pkh, amount) // P2WPKH and P2SH-P2WPKH: scriptCode is the P2PKH script
  return secp256k1.verify(der, digest, publicKey, { prehash: false, format: 'der' })
}
