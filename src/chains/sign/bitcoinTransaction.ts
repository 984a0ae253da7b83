/**
 * sign_transaction TRANSACTION_TYPE_BITCOIN (wire-formats.md B4 `signTransaction`; hosted docs
 * networks/bitcoin "Policy-enabled Bitcoin transaction signing"): `unsignedTransaction` is a
 * serialized PSBT (BIP-174, v0 or v2) as hex (`0x` optional; base64 `cHNidP…` is read too), and
 * `signedTransaction` is the same PSBT with the key's signatures added, as hex without `0x`, not
 * finalized (the caller finalizes and extracts, as with the hosted service).
 *
 * An input is the key's when the script it spends (its `witnessUtxo`, or its `nonWitnessUtxo`'s
 * output) is one of the five scripts the key's Bitcoin address formats make (address-formats.md
 * BITCOIN_*): P2PKH, P2SH-P2WPKH, P2WPKH, P2WSH(`<pk> OP_CHECKSIG`) and P2TR key path (BIP-86,
 * no script tree; signed BIP-340 Schnorr with the tweaked key). Matching the spent script, not a
 * `bip32Derivation` claim, is what decides: a derivation entry cannot make the key sign a script
 * it does not control. The redeem script, witness script or taproot internal key such an input
 * needs is filled in when the PSBT lacks it. Inputs the key does not control are left as they are.
 *
 * Only SIGHASH_ALL (or the taproot default) is signed: NONE, SINGLE and ANYONECANPAY would let
 * outputs or inputs change after signing, and the policies read the outputs that are signed.
 * Sighashes are @scure/btc-signer's (BIP-143, BIP-341 and legacy); signatures are RFC 6979 low-S
 * ECDSA and BIP-340 Schnorr.
 */
import { type Transaction as BtcTransaction, SigHash, Transaction, p2pk, p2pkh, p2sh, p2tr, p2wpkh, p2wsh } from '@scure/btc-signer'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { base64 } from '@scure/base'
import { bytesToHex, hexToBytes } from '../../crypto/encoding.js'
import { chainError } from '../errors.js'

/** The Bitcoin output types a secp256k1 key controls, as in the address formats. */
export type OwnScriptKind = 'P2PKH' | 'P2SH' | 'P2WPKH' | 'P2WSH' | 'P2TR'

/** Arguments of {@link signBitcoinTransaction}; `privateKey` is the 32-byte secp256k1 key. */
export type SignBitcoinTransactionArgs = { privateKey: Uint8Array; unsignedTransaction: string }

/** The result: the signed PSBT (hex, no `0x`) and which inputs the key signed. */
export type SignedBitcoinTransaction = { signedTransaction: string; signedInputs: number[] }

/** The PSBT options of both the signer and the policy reader: they read the same transaction. */
const PSBT_OPTIONS = { allowUnknownInputs: true, allowUnknownOutputs: true } as const

const PSBT_MAGIC_BASE64 = 'cHNidP'
/** A PSBT larger than this is refused before parsing (a standard transaction is at most 400 kWU). */
const MAX_PSBT_BYTES = 1_000_000
/**
 * Inputs or outputs beyond this are refused: each signature hashes the whole transaction again
 * (legacy) or all spent outputs (taproot), so the work grows with the square of the count; a
 * standard transaction (100 kvB) holds about 1,700 key-path inputs at most.
 */
const MAX_PSBT_ITEMS = 1000

function reason(e: unknown): string {
  return e instanceof Error ? e.message.slice(0, 160) : 'unknown'
}

/** The bytes of a PSBT given as hex (`0x` optional) or base64. @throws INVALID_ARGUMENT naming unsignedTransaction */
function psbtBytes(text: string): Uint8Array {
  const s = text.trim()
  if (s.length === 0) throw chainError('unsignedTransaction', 'empty; expected a PSBT as hex')
  if (s.length > MAX_PSBT_BYTES * 2) throw chainError('unsignedTransaction', `a PSBT larger than ${MAX_PSBT_BYTES} bytes`)
  if (s.startsWith(PSBT_MAGIC_BASE64)) {
    try {
      return base64.decode(s)
    } catch {
      throw chainError('unsignedTransaction', 'not valid base64')
    }
  }
  return hexToBytes(s, 'unsignedTransaction')
}

/**
 * Parses a PSBT (hex or base64) as the signer reads it.
 * @throws INVALID_ARGUMENT naming unsignedTransaction when it is not a PSBT
 */
export function parsePsbt(text: string): BtcTransaction {
  const bytes = psbtBytes(text)
  if (bytes.length < 5 || bytesToHex(bytes.subarray(0, 5)) !== '70736274ff') {
    throw chainError('unsignedTransaction', 'not a PSBT (it must start with the bytes "psbt" 0xff)')
  }
  let tx: BtcTransaction
  try {
    tx = Transaction.fromPSBT(bytes, PSBT_OPTIONS)
  } catch (e) {
    throw chainError('unsignedTransaction', `not a valid PSBT: ${reason(e)}`)
  }
  if (tx.inputsLength > MAX_PSBT_ITEMS || tx.outputsLength > MAX_PSBT_ITEMS) {
    throw chainError('unsignedTransaction', `a PSBT of more than ${MAX_PSBT_ITEMS} inputs or outputs`)
  }
  return tx
}

const equalBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i])

/**
 * The output an input spends: its `nonWitnessUtxo`'s output (btc-signer checks on parsing that the
 * previous transaction hashes to the input's txid), else its `witnessUtxo`; undefined when the PSBT
 * does not say. A `witnessUtxo` that contradicts the previous transaction is refused: the policy
 * would read one amount and the signature commit to another.
 * @throws INVALID_ARGUMENT naming unsignedTransaction when the two disagree
 */
export function spentOutput(tx: BtcTransaction, idx: number): { script: Uint8Array; amount: bigint } | undefined {
  const input = tx.getInput(idx)
  const fromPrev = input.nonWitnessUtxo && input.index !== undefined ? input.nonWitnessUtxo.outputs[input.index] : undefined
  if (input.nonWitnessUtxo && !fromPrev)
    throw chainError('unsignedTransaction', `input ${idx}: its previous transaction has no such output`)
  const w = input.witnessUtxo
  if (fromPrev && w && (w.amount !== fromPrev.amount || !equalBytes(w.script, fromPrev.script))) {
    throw chainError('unsignedTransaction', `input ${idx}: its witnessUtxo contradicts its previous transaction`)
  }
  return fromPrev ?? w
}

/** The five scripts a compressed secp256k1 public key controls (hex → kind), with what spending each needs. */
export function ownScripts(publicKey: Uint8Array): Map<string, OwnScriptKind> {
  if (publicKey.length !== 33) throw new Error('expected a 33-byte compressed public key')
  const wpkh = p2wpkh(publicKey)
  return new Map<string, OwnScriptKind>([
    [bytesToHex(p2pkh(publicKey).script), 'P2PKH'],
    [bytesToHex(p2sh(wpkh).script), 'P2SH'],
    [bytesToHex(wpkh.script), 'P2WPKH'],
    [bytesToHex(p2wsh(p2pk(publicKey)).script), 'P2WSH'],
    [bytesToHex(p2tr(publicKey.subarray(1)).script), 'P2TR'],
  ])
}

/** The spending data the input of `kind` needs; a conflicting value already in the PSBT is refused. */
function completeInput(tx: BtcTransaction, idx: number, kind: OwnScriptKind, publicKey: Uint8Array): void {
  const input = tx.getInput(idx)
  const fill = (name: 'redeemScript' | 'witnessScript' | 'tapInternalKey', want: Uint8Array) => {
    const have = input[name]
    if (have === undefined) tx.updateInput(idx, { [name]: want }, true)
    else if (!equalBytes(have, want))
      throw chainError('unsignedTransaction', `input ${idx}: its ${name} does not match the script it spends`)
  }
  if (kind === 'P2SH') fill('redeemScript', p2wpkh(publicKey).script)
  if (kind === 'P2WSH') fill('witnessScript', p2pk(publicKey).script)
  if (kind === 'P2TR') {
    if (input.tapMerkleRoot !== undefined || (input.tapLeafScript?.length ?? 0) > 0) {
      throw chainError('unsignedTransaction', `input ${idx}: script-path data on a key-path (BIP-86) Taproot output`)
    }
    fill('tapInternalKey', publicKey.subarray(1))
  }
  const sighash = input.sighashType
  const allowed = kind === 'P2TR' ? [SigHash.DEFAULT, SigHash.ALL] : [SigHash.ALL]
  if (sighash !== undefined && !(allowed as number[]).includes(sighash)) {
    throw chainError('unsignedTransaction', `input ${idx}: sighash type ${sighash} is not signed; only SIGHASH_ALL is`)
  }
}

/**
 * Signs every input of the PSBT the key controls (see the module comment).
 * @throws INVALID_ARGUMENT naming unsignedTransaction when it is not a PSBT, when no input spends a
 *   script of the key, or when an input of the key cannot be signed (its previous output missing for
 *   a legacy input, a sighash other than ALL, spending data that contradicts the script)
 */
export function signBitcoinTransaction(args: SignBitcoinTransactionArgs): SignedBitcoinTransaction {
  const tx = parsePsbt(args.unsignedTransaction)
  const publicKey = secp256k1.getPublicKey(args.privateKey, true)
  const mine = ownScripts(publicKey)
  const signedInputs: number[] = []
  for (let i = 0; i < tx.inputsLength; i++) {
    const spent = spentOutput(tx, i)
    const kind = spent && mine.get(bytesToHex(spent.script))
    if (!kind) continue
    completeInput(tx, i, kind, publicKey)
    try {
      tx.signIdx(args.privateKey, i, kind === 'P2TR' ? [SigHash.DEFAULT, SigHash.ALL] : [SigHash.ALL])
    } catch (e) {
      throw chainError('unsignedTransaction', `input ${i} (${kind}) cannot be signed: ${reason(e)}`)
    }
    signedInputs.push(i)
  }
  if (signedInputs.length === 0) {
    throw chainError('unsignedTransaction', "no input of this PSBT spends an output of signWith's key")
  }
  return { signedTransaction: bytesToHex(tx.toPSBT()), signedInputs }
}
